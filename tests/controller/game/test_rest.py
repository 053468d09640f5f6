"""Pause and resume keep the time left; inactivity puts the table to sleep; a press wakes it."""

import pytest

from controller.game import Phase
from controller.game.view import SLEEP_LINES

from .driver import Game

MINUTE = 60.0


def test_pause_keeps_the_time_left_to_the_millisecond():
    game = Game({"turn_timer": 6})
    lit = game.start(1, 2, 3)
    start = game.table.turn.started
    game.press("play_pause", start + 1.234)
    assert game.table.phase is Phase.PAUSED
    assert game.table.paused_left == pytest.approx(4.766, abs=1e-9)
    assert game.lines == ("Paused", f"Seat {lit}   5s left")
    assert set(game.view.lights) <= {"dim", "off"}
    assert game.sounds()[-1] == "pause"
    game.run_until(start + 200)  # nothing runs out while paused
    assert game.table.phase is Phase.PAUSED
    resumed = start + 300.5
    game.press("play_pause", resumed)
    assert game.table.phase is Phase.TURN
    assert game.lit == lit
    assert game.table.turn.deadline == pytest.approx(resumed + 4.766, abs=1e-9)
    assert game.lines[1] == f"Seat {lit} turn   5s"
    game.run_until(resumed + 4.765)
    assert game.announced("timeout") == []
    game.run_until(resumed + 4.766 + 1e-9)
    assert game.announced("timeout") == [{"seat": lit, "penalty": 2}]


def test_paused_time_is_not_turn_time():
    game = Game({"turn_timer": "off"})
    lit = game.start(1, 2)
    start = game.table.turn.started
    game.press("play_pause", start + 1.5)
    game.press("play_pause", start + 61.5)
    game.press(f"seat{lit}", start + 63.0)
    assert game.announced("turn_ended") == [{"seat": lit, "seconds": 3.0}]
    assert game.table.stats[lit].turn_time == pytest.approx(3.0)


def test_a_surprise_stays_hidden_while_paused():
    game = Game({"turn_timer": "surprise", "surprise_min": 8, "surprise_max": 8})
    lit = game.start(1, 2)
    game.tap("play_pause")
    assert game.lines == ("Paused", f"Seat {lit}   ?s left")


def test_inactivity_puts_the_table_to_sleep_with_lights_and_backlight_off():
    game = Game({"turn_timer": "off"})
    lit = game.start(1, 2, 3)
    last = game.table.last_input  # the release of Play/Pause
    game.run_until(last + 10 * MINUTE - 0.001)
    assert game.table.phase is Phase.TURN and not game.table.asleep
    game.run_until(last + 10 * MINUTE)
    assert game.table.asleep
    assert game.table.phase is Phase.PAUSED
    view = game.view
    assert view.backlight is False
    assert set(view.lights) == {"off"}
    assert view.lines == SLEEP_LINES
    assert game.announced("asleep") == [{"phase": "paused"}]
    assert game.table.turn.seat == lit


def test_any_press_wakes_into_pause_and_does_nothing_else():
    for waker in ("seat{lit}", "play_pause", "slap", "launcher", "encoder.push", "seat4"):
        game = Game({"turn_timer": 6})
        lit = game.start(1, 2, 3)
        game.press("play_pause")
        left = game.table.paused_left
        game.wait(11 * MINUTE)
        assert game.table.asleep
        mark = game.mark()
        game.tap(waker.format(lit=lit))
        assert not game.table.asleep
        assert game.table.phase is Phase.PAUSED
        assert game.table.paused_left == left
        assert game.view.backlight is True
        assert game.lines == ("Paused", f"Seat {lit}   6s left")
        assert game.announced("woke", mark) == [{"phase": "paused"}]
        assert game.announced("turn_ended", mark) == []
        assert game.announced("resumed", mark) == []
        assert game.sounds(mark) == ["wake"]
        # The next Play/Pause resumes.
        game.tap("play_pause")
        assert game.table.phase is Phase.TURN


def test_a_running_turn_falls_asleep_into_pause_keeping_its_time():
    game = Game({"turn_timer": 30, "sleep_time": 1})
    lit = game.start(1, 2)
    # Turns time out by themselves; that is not input, so the table still goes to sleep.
    game.wait(MINUTE + 1)
    assert game.table.asleep and game.table.phase is Phase.PAUSED
    assert game.announced("timeout")
    game.tap(f"seat{lit}")
    assert game.table.phase is Phase.PAUSED
    left = game.table.paused_left
    game.tap("play_pause")
    assert game.table.turn.deadline - game.table.turn.started == pytest.approx(30.0)
    assert game.table.turn.deadline == pytest.approx(game.now - 0.1 + left)


def test_every_press_and_release_puts_sleep_off():
    game = Game({"turn_timer": "off"})
    lit = game.start(1, 2, 3)
    other = game.others(lit)[0]
    for _ in range(5):
        game.wait(9 * MINUTE)
        game.tap(f"seat{other}")  # an unlit press: ignored by the game, but it is input
    assert not game.table.asleep
    game.wait(10 * MINUTE)
    assert game.table.asleep


@pytest.mark.parametrize("minutes", [1, 5, 60])
def test_the_sleep_time_is_a_setting(minutes):
    game = Game({"turn_timer": "off", "sleep_time": minutes})
    game.start(1, 2)
    last = game.table.last_input
    game.run_until(last + minutes * MINUTE - 0.001)
    assert not game.table.asleep
    game.run_until(last + minutes * MINUTE)
    assert game.table.asleep


def test_sleep_off_never_sleeps():
    game = Game({"turn_timer": "off", "sleep_time": "off"})
    game.start(1, 2)
    game.wait(24 * 60 * MINUTE)
    assert not game.table.asleep


def test_seating_sleeps_too_and_the_waking_press_claims_nothing():
    game = Game()
    game.seat(1)
    game.wait(10 * MINUTE)
    assert game.table.asleep and game.view.lights == ("off",) * 4
    game.tap("seat2")
    assert not game.table.asleep
    assert game.table.seated == {1}
    assert game.lines == ("Table   timer 6s", "Seats 1")
    game.tap("seat2")
    assert game.table.seated == {1, 2}


def test_a_fresh_table_counts_idle_time_from_its_first_event():
    from controller.game import Tick

    game = Game()
    game.feed(Tick(game.now))
    game.wait(10 * MINUTE)
    assert game.table.asleep
