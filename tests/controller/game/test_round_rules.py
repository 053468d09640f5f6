"""What a round leaves behind when it ends, what its summary reports, and the Jump-In guard:
a round's turn, mode and figures are its own, and a player whose turn came does not jump in
on it."""

from controller.game import Command, Configure, Phase
from controller.game.holds import JUMP_HOLD, WIN_HOLD
from controller.game.summary import ENDED, PAGE_TIME
from controller.game.summary import pages as summary_pages
from controller.remote.payloads import state_snapshot
from controller.settings import Settings

from .driver import Game


def test_the_round_over_event_reports_each_seats_slap_reaction_times():
    game = Game({"turn_timer": "off", "slap_window": 3}, seed=2)
    slapper = game.start(1, 2, 3)
    fast, slow = game.others(slapper)
    slapped = game.now + 1.0
    game.press("slap", slapped)
    game.press(f"seat{fast}", slapped + 0.25)
    game.release(f"seat{fast}", slapped + 0.3)
    game.wait(10.0)  # the window closes on the slowest; the result shows; a turn is up
    winner = game.lit
    mark = game.mark()
    game.hold(f"seat{winner}", WIN_HOLD + 0.1)
    [over] = game.announced("round_over", mark)
    seats = {s["seat"]: s for s in over["seats"]}
    assert set(seats[fast]) == {
        "seat",
        "name",
        "turns",
        "timeouts",
        "slaps_lost",
        "slap_best_ms",
        "slap_average_ms",
        "launcher_cards",
        "average_turn",
    }
    assert (seats[fast]["slap_best_ms"], seats[fast]["slap_average_ms"]) == (250, 250)
    assert (seats[slow]["slap_best_ms"], seats[slow]["slap_average_ms"]) == (None, None)
    assert seats[slow]["slaps_lost"] == 1


def test_a_seat_pressed_after_the_round_shows_its_screen_its_full_time():
    game = Game({"turn_timer": "off"}, seed=1)
    game.start(1, 2, 3)
    game.hold(f"seat{game.lit}", WIN_HOLD + 0.1)
    assert game.table.phase is Phase.ROUND_OVER
    game.wait(2 * PAGE_TIME + 1.0)
    pressed = game.now + 1.3
    game.press("seat3", pressed)
    game.release("seat3", pressed + 0.1)
    page = game.table.summary.page
    lines = game.lines
    assert lines[0].startswith("Seat 3")
    game.run_until(pressed + PAGE_TIME - 0.01)
    assert game.table.summary.page == page and game.lines == lines
    game.run_until(pressed + PAGE_TIME)
    assert game.table.summary.page != page


def test_a_mode_chosen_during_a_round_is_the_tables_once_the_round_is_over():
    game = Game({"turn_timer": 6}, seed=1)
    game.start(1, 2)
    game.feed(Configure(Settings({"turn_timer": 6, "mode": "flash"}), game.now + 0.5))
    assert game.table.mode == "table"  # the round plays on in its own mode
    game.hold(f"seat{game.lit}", WIN_HOLD + 0.1)
    assert game.table.phase is Phase.ROUND_OVER
    assert state_snapshot(game.table)["mode"] == "flash"
    game.feed(Command("seating", game.now + 1.0))
    assert game.lines[0].startswith("Flash")


def test_between_rounds_no_seat_has_the_turn():
    game = Game({"turn_timer": 6}, seed=1)
    game.start(1, 2)
    assert state_snapshot(game.table)["seat"] == game.lit
    game.hold(f"seat{game.lit}", WIN_HOLD + 0.1)
    assert game.table.phase is Phase.ROUND_OVER
    assert state_snapshot(game.table)["seat"] is None


def test_a_player_whose_turn_comes_while_they_hold_does_not_jump_in_on_it():
    """They held on while the lit player ended their turn, and the turn came to them: it is
    theirs from its start, with its full time, and no Jump-In is said."""
    game = Game({"turn_timer": 6, "jump_in": "on", "picker": "classic"}, seed=0)
    lit = game.start(1, 2)
    other = game.others(lit)[0]
    for _ in range(20):
        game.press(f"seat{other}")
        game.press(f"seat{lit}", game.now + 0.1)
        if game.lit == other:
            break
        game.release(f"seat{other}", game.now + 0.01)
        game.release(f"seat{lit}", game.now + 0.01)
        lit, other = game.lit, game.others(game.lit)[0]
    assert game.lit == other
    started = game.table.turn.started
    mark = game.mark()
    game.run_until(started + JUMP_HOLD + 0.1)
    game.release(f"seat{other}", game.now)
    assert game.announced("jump_in", mark) == []
    assert game.table.turn.started == started and game.lines[0] != f"Jump-In! Seat {other}"


def test_every_slap_race_a_seat_loses_counts_in_the_round_summary():
    game = Game({"turn_timer": "off", "slap_window": 3}, seed=5)
    game.start(1, 2, 3)
    loser, races = 3, 0
    while races < 2:
        slapper = game.lit
        if slapper == loser:
            game.tap(f"seat{slapper}")
            continue
        [racer] = game.others(slapper, loser)
        slapped = game.now + 0.5
        game.press("slap", slapped)
        game.press(f"seat{racer}", slapped + 0.2)
        game.release(f"seat{racer}", slapped + 0.3)
        game.wait(10.0)
        races += 1
    mark = game.mark()
    game.hold(f"seat{game.lit}", WIN_HOLD + 0.1)
    [over] = game.announced("round_over", mark)
    lost = {s["seat"]: s["slaps_lost"] for s in over["seats"]}
    assert lost[loser] == 2 and sum(lost.values()) == 2


def test_a_summary_label_too_long_for_its_figure_gives_way_first_word_first():
    """A turn of two weeks (no timer, no sleep): "avg turn" gives way to the whole figure, its
    first word's letters first ("press OK" becomes "pres OK", docs of text.row)."""
    game = Game({"turn_timer": "off", "sleep_time": "off"}, seed=1)
    lit = game.start(1, 2)
    game.press(f"seat{lit}", game.table.turn.started + 1_234_567.8)
    game.release(f"seat{lit}", game.now + 0.1)
    game.hold(f"seat{game.others(game.lit)[0]}", WIN_HOLD + 0.1)
    assert game.table.phase is Phase.ROUND_OVER
    [line] = [ln for lines in summary_pages(game.table) for ln in lines if "1234567.8s" in ln]
    assert line == "turn  1234567.8s"


def test_a_round_ended_from_the_menu_before_anyone_won_names_no_winner():
    game = Game({"turn_timer": "off"}, seed=1)
    game.start(1, 2)
    game.feed(Command("new_round", game.now + 1.0))
    assert game.table.phase is Phase.ROUND_OVER
    assert game.lines == ENDED


def test_a_seat_with_one_turn_reads_one_turn():
    game = Game({"turn_timer": "off"}, seed=1)
    lit = game.start(1, 2)
    game.tap(f"seat{lit}")
    game.feed(Command("new_round", game.now + 1.0))
    lines = [
        ln for page in summary_pages(game.table) for ln in page if ln.startswith(f"Seat {lit}")
    ]
    assert f"Seat {lit}    1 turn" in lines


def test_during_a_slap_race_no_seat_has_the_turn():
    """The lit player's SLAP ends their turn: while the race runs, the state names no seat,
    and the next turn is named once the results have been shown."""
    game = Game({"turn_timer": "off", "slap_window": 3}, seed=2)
    game.start(1, 2, 3)
    assert state_snapshot(game.table)["seat"] == game.lit
    game.press("slap", game.now + 1.0)
    assert game.table.phase is Phase.SLAP
    assert state_snapshot(game.table)["seat"] is None
    game.wait(10.0)
    assert state_snapshot(game.table)["seat"] == game.lit


def test_the_round_over_event_gives_each_seats_average_turn_in_seconds_to_the_millisecond():
    game = Game({"turn_timer": "off"}, seed=0)
    game.start(1, 2)
    lengths = iter([1.0, 1.0, 1.001] * 4)  # a third of a millisecond more, on average
    played: dict[int, list[float]] = {1: [], 2: []}
    while min(len(turns) for turns in played.values()) < 3:
        seat, length = game.lit, next(lengths)
        game.press(f"seat{seat}", game.table.turn.started + length)
        game.release(f"seat{seat}", game.now + 0.05)
        played[seat].append(length)
    mark = game.mark()
    game.feed(Command("new_round", game.now + 1.0))  # ended from the menu: no turn of its own
    [over] = game.announced("round_over", mark)
    for seat in over["seats"]:
        average = sum(played[seat["seat"]]) / len(played[seat["seat"]])
        assert seat["average_turn"] == round(average, 3)
    assert any(round(sum(t) / len(t), 3) != round(sum(t) / len(t), 4) for t in played.values())
