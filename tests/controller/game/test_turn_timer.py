"""The turn timer: the surprise limit, per-seat handicaps, and the penalty on expiry."""

import pytest

from controller.game import Phase, Tick
from controller.game.turns import TIMEOUT_HOLD

from .driver import Game


def turn_limits(game: Game, turns: int) -> list[tuple[int, float]]:
    """(seat, limit) of each of the next `turns` turns, each ended by the lit player at once."""
    limits = []
    for _ in range(turns):
        turn = game.table.turn
        limits.append((turn.seat, turn.deadline - turn.started))
        game.tap(f"seat{turn.seat}")
    return limits


def test_a_surprise_limit_is_drawn_for_each_turn_between_the_bounds():
    game = Game({"turn_timer": "surprise", "surprise_min": 3, "surprise_max": 8}, seed=1)
    game.start(1, 2, 3)
    limits = [limit for _, limit in turn_limits(game, 300)]
    assert all(3 <= limit <= 8 for limit in limits)
    assert min(limits) < 3.3 and max(limits) > 7.7
    assert len(set(limits)) > 250
    announced = [e["limit"] for e in game.announced("turn_started")][: len(limits)]
    assert announced == pytest.approx(limits)


def test_the_surprise_bounds_are_settings():
    game = Game({"turn_timer": "surprise", "surprise_min": 10, "surprise_max": 12}, seed=2)
    game.start(1, 2)
    assert all(10 <= limit <= 12 for _, limit in turn_limits(game, 50))


def test_a_surprise_countdown_is_hidden_until_the_last_two_seconds():
    game = Game({"turn_timer": "surprise", "surprise_min": 5, "surprise_max": 5})
    lit = game.start(1, 2)
    start = game.table.turn.started
    assert game.lines == ("Table   surprise", f"Seat {lit} turn   ?s")
    mark = game.mark()
    game.run_until(start + 2.999)
    assert game.lines[1] == f"Seat {lit} turn   ?s"
    assert game.light(lit) == "pulse"
    assert game.sounds(mark) == []
    game.run_until(start + 3.0)
    assert game.lines[1] == f"Seat {lit} turn   2s"
    assert game.light(lit) == "blink_fast"
    assert game.sounds(mark) == ["tick"]
    game.run_until(start + 4.0)
    assert game.lines[1] == f"Seat {lit} turn   1s"
    game.run_until(start + 5.0)
    assert game.lines[0] == f"Seat {lit} timeout!"


def test_a_handicap_adds_its_seconds_to_that_seats_turns_only():
    game = Game({"turn_timer": 4, "handicap_seat2": 3}, seed=5)
    game.start(1, 2)
    limits = turn_limits(game, 40)
    assert {seat for seat, _ in limits} == {1, 2}
    assert {limit for seat, limit in limits if seat == 1} == {4.0}
    assert {limit for seat, limit in limits if seat == 2} == {7.0}


def test_the_lcd_counts_down_the_handicapped_time():
    game = Game({"turn_timer": 6, "handicap_seat1": 10, "handicap_seat2": 10}, seed=1)
    lit = game.start(1, 2)
    assert game.lines == ("Table   timer 6s", f"Seat {lit} turn  16s")


def test_a_handicap_stretches_a_surprise_limit_too():
    settings = {"turn_timer": "surprise", "surprise_min": 2, "surprise_max": 4}
    game = Game({**settings, "handicap_seat1": 5}, seed=3)
    game.start(1, 2)
    for seat, limit in turn_limits(game, 60):
        low, high = (7, 9) if seat == 1 else (2, 4)
        assert low <= limit <= high


def test_without_a_timer_a_handicap_changes_nothing():
    game = Game({"turn_timer": "off", "handicap_seat1": 5, "sleep_time": "off"})
    lit = game.start(1, 2)
    assert game.table.turn.deadline is None
    game.wait(3600)
    assert game.lit == lit


@pytest.mark.parametrize("cards", range(5))
def test_a_timeout_gives_the_penalty_setting_to_the_lit_seat(cards):
    game = Game({"turn_timer": 3, "timeout_penalty": cards})
    lit = game.start(1, 2, 3)
    game.wait(3.0)
    assert game.announced("timeout") == [{"seat": lit, "penalty": cards}]
    expected = [{"seat": lit, "cards": cards, "reason": "timeout"}] if cards else []
    assert game.announced("penalty") == expected
    words = {0: "No penalty", 1: "Draw 1 card"}.get(cards, f"Draw {cards} cards")
    assert game.lines == (f"Seat {lit} timeout!", words)
    assert game.light(lit) == "flash"
    assert game.sounds()[-1] == "timeout"


def test_after_a_timeout_notice_the_next_player_is_lit():
    game = Game({"turn_timer": 2})
    late = game.start(1, 2, 3)
    deadline = game.table.turn.deadline
    game.run_until(deadline + TIMEOUT_HOLD - 0.001)
    assert game.table.phase is Phase.NOTICE
    game.run_until(deadline + TIMEOUT_HOLD)
    assert game.table.phase is Phase.TURN
    assert game.table.turn.started == deadline + TIMEOUT_HOLD
    assert game.sounds()[-1] == ("again" if game.lit == late else "turn")


def test_a_press_after_the_deadline_is_too_late_even_when_handled_before_the_tick():
    from controller.game import Press

    game = Game({"turn_timer": 4})
    lit = game.start(1, 2)
    deadline = game.table.turn.deadline
    game.feed(Press(f"seat{lit}", deadline + 0.01), deadline + 0.02)
    assert game.announced("timeout") == [{"seat": lit, "penalty": 2}]
    assert game.announced("turn_ended") == []


def test_a_wakeup_handled_late_at_the_deadline_sounds_the_timeout_and_no_last_tick():
    game = Game({"turn_timer": 6})
    lit = game.start(1, 2)
    deadline = game.table.turn.deadline
    game.run_until(deadline - 1.5)
    mark = game.mark()
    game.feed(Tick(deadline))
    assert game.announced("timeout", mark) == [{"seat": lit, "penalty": 2}]
    assert game.sounds(mark) == ["timeout"]
