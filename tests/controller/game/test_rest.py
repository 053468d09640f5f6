"""Pause and resume keep the time left; inactivity puts the table to sleep; a press wakes it."""

import pytest

from controller.game import Command, Configure, Phase
from controller.game.codec import encode, time_left
from controller.game.events import CardOut, LauncherStopped
from controller.game.holds import WIN_HOLD
from controller.game.view import SLEEP_LINES
from controller.settings import Settings

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


# -- what a pause says, and what it clears ---------------------------------------------------


def test_a_pause_announces_the_seat_and_the_time_left():
    game = Game({"turn_timer": 6})
    lit = game.start(1, 2, 3)
    mark = game.mark()
    game.press("play_pause", game.table.turn.started + 2.5)
    assert game.announced("paused", mark) == [{"seat": lit, "left": pytest.approx(3.5)}]
    game.tap("play_pause")
    game.tap(f"seat{game.lit}")
    game.feed(Configure(Settings({"turn_timer": "off"}), game.now))
    game.tap(f"seat{game.lit}")
    lit = game.lit
    mark = game.mark()
    game.tap("play_pause")
    assert game.announced("paused", mark) == [{"seat": lit, "left": None}]


def test_a_pause_in_the_last_second_keeps_the_fraction_left():
    game = Game({"turn_timer": 4})
    lit = game.start(1, 2)
    deadline = game.table.turn.deadline
    game.press("play_pause", deadline - 0.25)
    assert game.table.paused_left == pytest.approx(0.25)
    resumed = game.now + 30
    game.press("play_pause", resumed)
    game.run_until(resumed + 0.2)
    assert game.table.phase is Phase.TURN and game.lit == lit
    game.run_until(resumed + 0.25)
    assert game.announced("timeout") == [{"seat": lit, "penalty": 2}]


def test_a_repeat_paused_in_its_banner_resumes_lit_steadily_without_it():
    """The banner's moment (and a repeat's blink) is over once the turn is paused."""
    game = Game({"turn_timer": "off", "picker": "classic"}, seed=1)
    game.start(1, 2)
    for _ in range(50):
        if game.light(game.lit) == "blink":
            break
        game.tap(f"seat{game.lit}")
    lit = game.lit
    assert game.light(lit) == "blink" and game.lines[0] == f"Seat {lit} again!"
    game.tap("play_pause")
    game.tap("play_pause")
    assert game.table.phase is Phase.TURN and game.lit == lit
    assert game.light(lit) == "pulse"
    assert game.lines[0] != f"Seat {lit} again!"


def test_falling_asleep_makes_no_sound():
    game = Game({"turn_timer": "off", "sleep_time": 1})
    game.start(1, 2)
    mark = game.mark()
    game.wait(MINUTE)
    assert game.table.asleep
    assert game.sounds(mark) == []


def test_woken_from_the_menu_without_a_press_it_sleeps_again_after_the_sleep_time():
    game = Game({"turn_timer": "off", "sleep_time": 1})
    game.start(1, 2)
    game.wait(MINUTE)
    assert game.table.asleep
    woke = game.now + 5
    game.feed(Command("wake", woke))
    assert not game.table.asleep
    game.run_until(woke + MINUTE - 0.001)
    assert not game.table.asleep
    game.run_until(woke + MINUTE)
    assert game.table.asleep


# -- the menu holds the turn -------------------------------------------------------------------


def test_opening_the_menu_pauses_the_turn_and_closing_it_resumes_with_the_time_left():
    game = Game({"turn_timer": 6})
    lit = game.start(1, 2, 3)
    opened = game.table.turn.started + 2.0
    game.feed(Command("menu_opened", opened))
    assert game.table.phase is Phase.PAUSED
    assert game.table.paused_left == pytest.approx(4.0)
    game.run_until(opened + 100)
    assert game.announced("timeout") == []
    closed = opened + 100
    game.feed(Command("menu_closed", closed))
    assert game.table.phase is Phase.TURN and game.lit == lit
    assert game.table.turn.deadline == pytest.approx(closed + 4.0)


def test_a_pause_from_play_pause_stays_through_the_menu_opened_and_closed():
    game = Game({"turn_timer": 6})
    lit = game.start(1, 2, 3)
    game.tap("play_pause")
    for _ in range(2):
        game.feed(Command("menu_opened", game.now + 1))
        game.feed(Command("menu_closed", game.now + 1))
        assert game.table.phase is Phase.PAUSED
    game.tap("play_pause")
    assert game.table.phase is Phase.TURN and game.lit == lit


def test_a_table_asleep_with_the_menu_open_wakes_paused_and_stays_paused():
    """The menu's pause became a sleep: it wakes paused, as any sleep does, and the menu
    opened and closed after it leaves that pause to Play/Pause."""
    game = Game({"turn_timer": 6, "sleep_time": 1})
    lit = game.start(1, 2, 3)
    game.feed(Command("menu_opened", game.now + 1))
    game.wait(MINUTE + 1)
    assert game.table.asleep and game.table.phase is Phase.PAUSED
    game.feed(Command("menu_closed", game.now))
    assert game.table.asleep and game.table.phase is Phase.PAUSED
    game.tap("encoder.push")
    assert not game.table.asleep and game.table.phase is Phase.PAUSED
    game.feed(Command("menu_opened", game.now + 1))
    game.feed(Command("menu_closed", game.now + 1))
    assert game.table.phase is Phase.PAUSED
    game.tap("play_pause")
    assert game.table.phase is Phase.TURN and game.lit == lit


def test_a_jam_while_the_menu_holds_the_turn_waits_for_ok_after_the_menu_closes():
    game = Game({"turn_timer": 4, "timeout_penalty": 4}, has_launcher=True, seed=3)
    game.start(1, 2, 3)
    game.wait(4.0)  # a timeout: the launcher deals its penalty
    game.feed(CardOut(game.now))
    game.wait(3.0)  # the next turn is running
    lit = game.lit
    left = game.table.turn.deadline - game.now
    game.feed(Command("menu_opened", game.now))
    game.feed(LauncherStopped("jam", game.now))
    game.feed(Command("menu_closed", game.now + 5))
    assert game.table.phase is Phase.PAUSED
    assert game.lines == ("JAM: clear slot", "press OK  3 owed")
    game.wait(60)
    assert game.table.phase is Phase.PAUSED
    game.tap("encoder.push")
    assert game.table.phase is Phase.TURN and game.lit == lit
    assert game.table.turn.deadline - game.now == pytest.approx(left - 0.1)


def test_a_summary_woken_from_sleep_shows_its_first_screen_its_full_time():
    """The screens go on from the wake-up, not from before the sleep."""
    game = Game({"finish": "places", "turn_timer": "off", "sleep_time": 1}, seed=1)
    game.seat(1, 2)
    game.tap("play_pause")
    game.hold("seat2", WIN_HOLD + 0.1)
    assert game.table.phase is Phase.ROUND_OVER
    game.wait(MINUTE + 10)
    assert game.table.asleep
    game.press("encoder.push", game.now + 1.0)
    woke = game.now
    game.release("encoder.push", woke + 0.1)
    first = game.lines
    game.run_until(woke + 2.99)
    assert game.table.summary.page == 0 and game.lines == first
    game.run_until(woke + 3.0)
    assert game.table.summary.page == 1


def test_a_table_woken_shows_its_pause_not_what_it_said_before_it_slept():
    """A remote change of mode just before the sleep: its note is gone with the sleep, and
    the press that wakes the table shows the paused turn."""
    game = Game({"turn_timer": "off", "sleep_time": 1})
    lit = game.start(1, 2)
    asleep = game.table.last_input + MINUTE
    remote = Settings({"turn_timer": "off", "sleep_time": 1, "mode": "flash"})
    game.feed(Configure(remote, asleep - 1))
    assert game.lines[1] == "next round"
    game.run_until(asleep)
    assert game.table.asleep
    game.tap("seat1")
    assert game.lines == ("Paused", f"Seat {lit}".ljust(16))


def test_a_resume_sounds_and_announces_the_seat_and_the_time_left():
    game = Game({"turn_timer": 6})
    lit = game.start(1, 2, 3)
    game.press("play_pause", game.table.turn.started + 2.5)
    mark = game.mark()
    game.press("play_pause", game.now + 30)
    assert game.sounds(mark) == ["resume"]
    assert game.announced("resumed", mark) == [{"seat": lit, "left": pytest.approx(3.5)}]


def test_a_snapshot_of_a_paused_turn_keeps_the_time_it_had_left():
    """What a crash or a power cut resumes with (SPEC §2.5): the turn's time left, also as
    the figure the heartbeat reads back from the snapshot."""
    game = Game({"turn_timer": 6})
    game.start(1, 2, 3)
    game.press("play_pause", game.table.turn.started + 2.5)
    game.wait(20)
    data = encode(game.table, game.now)
    assert time_left(data) == pytest.approx(3.5)
    game.tap("play_pause")
    assert time_left(encode(game.table, game.now)) == pytest.approx(3.4)
    untimed = Game({"turn_timer": "off"})
    untimed.start(1, 2)
    untimed.tap("play_pause")
    assert time_left(encode(untimed.table, untimed.now)) is None


def test_a_paused_turn_resumed_from_a_snapshot_counts_no_paused_time_as_turn_time():
    game = Game({"turn_timer": 6})
    lit = game.start(1, 2, 3)
    game.press("play_pause", game.table.turn.started + 2.5)
    game.wait(20)
    data = encode(game.table, game.now)
    game.resume(data)
    resumed = game.now + 1.0
    game.press("play_pause", resumed)
    game.press(f"seat{lit}", resumed + 1.0)
    assert game.announced("turn_ended") == [{"seat": lit, "seconds": 3.5}]


def test_a_snapshot_of_a_running_turn_keeps_the_time_it_has_left():
    game = Game({"turn_timer": 4})
    game.start(1, 2)
    deadline = game.table.turn.deadline
    game.run_until(deadline - 0.25)
    assert time_left(encode(game.table, game.now)) == pytest.approx(0.25)
    untimed = Game({"turn_timer": "off"})
    untimed.start(1, 2)
    untimed.wait(5)
    assert time_left(encode(untimed.table, untimed.now)) is None
