"""Rules found by mutation testing of the game's codec, text, summary and view: each stated
where the product promises it."""

from __future__ import annotations

import pytest

from controller.game import Phase
from controller.game.codec import encode, time_left

from .driver import Game


def test_a_snapshot_of_a_running_turn_holds_its_time_played_and_left_to_the_millisecond():
    game = Game({"turn_timer": 6})
    seat = game.start(1, 2)
    turn = game.table.turn
    now = turn.started + 5.6543
    data = encode(game.table, now)
    assert data["turn"] == {"seat": seat, "played": 5.654, "left": 0.346}
    assert time_left(data) == 0.346


def test_a_snapshot_of_a_turn_without_a_timer_has_no_time_left():
    game = Game({"turn_timer": "off"})
    game.start(1, 2)
    data = encode(game.table, game.table.turn.started + 2.0)
    assert data["turn"]["left"] is None and data["turn"]["played"] == 2.0
    assert time_left(data) is None


def test_a_snapshot_of_a_paused_turn_holds_the_time_played_and_left_at_the_pause():
    game = Game({"turn_timer": 6})
    game.start(1, 2)
    started = game.table.turn.started
    game.run_until(started + 2.0)
    game.press("play_pause")
    assert game.table.phase is Phase.PAUSED
    data = encode(game.table, started + 100.0)
    assert data["turn"]["played"] == pytest.approx(2.0, abs=0.001)
    assert data["turn"]["left"] == pytest.approx(4.0, abs=0.001)
    assert time_left(data) == data["turn"]["left"]


def test_the_time_left_read_from_a_snapshot_is_none_unless_it_is_a_number():
    assert time_left({"turn": {"seat": 1, "played": 1.0, "left": None}}) is None
    assert time_left({"turn": {"seat": 1, "played": 1.0, "left": "4"}}) is None
    assert time_left({"turn": None}) is None
    assert time_left({"turn": {"left": 3}}) == 3.0


def test_a_jump_in_hold_does_nothing_once_its_seat_has_been_lit_meanwhile():
    game = Game({"jump_in": "on"}, seed=4)  # a seed that lights the other seat next
    lit = game.start(1, 2)
    other = game.others(lit)[0]
    game.press(f"seat{other}")  # holding on to jump in
    game.tap(f"seat{lit}", hold=0.1)  # the lit player ends the turn: the other is lit
    assert game.lit == other
    mark = game.mark()
    game.wait(1.0)
    assert game.announced("jump_in", mark) == [] and "jump_in" not in game.sounds(mark)
    assert game.lit == other
