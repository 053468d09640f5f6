"""Jump-In: a seated, unlit player holding their button 0.6 s takes the turn; a tap never."""

from controller.game import Press, Release
from controller.game.holds import JUMP_HOLD

from .driver import Game

JUMP = {"jump_in": "on", "turn_timer": 6}


def test_a_held_button_jumps_in_at_0_6_s_and_starts_the_jumpers_timer():
    game = Game(JUMP)
    lit = game.start(1, 2, 3)
    jumper = game.others(lit)[0]
    pressed = game.now + 1.0
    game.press(f"seat{jumper}", pressed)
    game.run_until(pressed + 0.599)
    assert game.lit == lit
    mark = game.mark()
    game.run_until(pressed + JUMP_HOLD)
    assert game.lit == jumper
    assert game.light(lit) == "dim"
    turn = game.table.turn
    assert (turn.started, turn.deadline) == (pressed + JUMP_HOLD, pressed + JUMP_HOLD + 6)
    assert game.announced("jump_in", mark) == [{"seat": jumper, "from": lit}]
    assert game.sounds(mark) == ["jump_in"]
    assert game.lines == (f"Jump-In! Seat {jumper}", f"Seat {jumper} turn   6s")
    game.release(f"seat{jumper}", pressed + 0.8)
    assert game.lit == jumper
    game.run_until(pressed + JUMP_HOLD + 2.0)
    assert game.lines[0] == "Table   timer 6s"  # the banner makes way for the header


def test_a_tap_never_changes_the_turn():
    game = Game(JUMP)
    lit = game.start(1, 2, 3)
    other = game.others(lit)[0]
    for hold in (0.05, 0.3, 0.59):
        game.hold(f"seat{other}", hold)
        game.wait(0.5)
        assert game.lit == lit
    assert game.announced("jump_in") == []


def test_a_release_before_the_mark_handled_late_is_still_a_tap():
    game = Game(JUMP)
    lit = game.start(1, 2)
    other = game.others(lit)[0]
    pressed = game.now + 1
    game.feed(Press(f"seat{other}", pressed))
    # The daemon was busy: no tick at the mark, and the release arrives 0.3 s after it.
    game.feed(Release(f"seat{other}", pressed + 0.5), pressed + 0.9)
    assert game.lit == lit


def test_a_release_after_the_mark_handled_late_still_jumps_in_at_the_mark():
    game = Game(JUMP)
    lit = game.start(1, 2)
    other = game.others(lit)[0]
    pressed = game.now + 1
    game.feed(Press(f"seat{other}", pressed))
    game.feed(Release(f"seat{other}", pressed + 0.7), pressed + 0.9)
    assert game.lit == other
    assert game.table.turn.started == pressed + JUMP_HOLD


def test_jump_in_is_off_by_default():
    game = Game({"turn_timer": 6})
    lit = game.start(1, 2, 3)
    game.hold(f"seat{game.others(lit)[0]}", 1.0)
    assert game.lit == lit
    assert game.announced("jump_in") == []


def test_an_unseated_button_never_jumps_in():
    game = Game(JUMP)
    lit = game.start(1, 2)
    game.hold("seat4", 1.0)
    assert game.lit == lit
    assert game.announced("jump_in") == []


def test_holding_on_after_ending_your_own_turn_never_takes_the_next_one():
    handed_on = 0
    for seed in range(12):
        game = Game(JUMP, seed=seed)
        lit = game.start(1, 2)
        game.press(f"seat{lit}")  # ends the turn; the next pick may be anyone
        handed_on += game.lit != lit
        next_lit = game.lit
        game.wait(1.0)
        assert game.table.turn.seat == next_lit  # waiting for them, perhaps: not taken
        assert game.announced("jump_in") == []
    assert handed_on  # the case that matters did occur


def test_the_jumped_over_turn_is_not_counted():
    game = Game(JUMP)
    lit = game.start(1, 2)
    other = game.others(lit)[0]
    game.hold(f"seat{other}", 0.7)
    game.tap(f"seat{other}")
    assert game.table.stats[lit].turns == 0
    assert game.table.stats[other].turns == 1


def test_the_jumper_gets_their_own_handicap():
    game = Game({**JUMP, "handicap_seat3": 4})
    lit = game.start(1, 3)
    jumper = 3 if lit == 1 else 1
    game.hold(f"seat{jumper}", 0.7)
    turn = game.table.turn
    assert turn.deadline - turn.started == (10 if jumper == 3 else 6)
