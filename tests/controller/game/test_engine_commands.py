"""The menu's and the remotes' commands, buttons found stuck, and what the LCD shows around
them (a message's time, a notice's pages): event by event, in virtual time."""

import json
import random

import pytest

from controller.game import Announce, Command, Configure, Phase, Press, Stuck, codec, next_wakeup
from controller.game.engine import MESSAGE_TIME, STUCK_AFTER
from controller.game.holds import OUT_HINT, WIN_HOLD
from controller.game.slap import PAGE_TIME as SLAP_PAGE_TIME
from controller.game.standings import PAGE_TIME
from controller.game.turns import TIMEOUT_HOLD
from controller.shell.tunes import TUNES

from .driver import Game

QUIET = {"turn_timer": 6, "sleep_time": "off"}
PLACES = {"finish": "places", "turn_timer": "off", "sleep_time": "off"}
STUCK_LINE = "stuck: check it"


def command(game: Game, name: str, seat: int | None = None) -> list:
    return game.feed(Command(name, game.now, seat))


def kinds(game: Game, since: int) -> list[str]:
    """The types of the events announced since the mark `since`, in order."""
    return [e.type for e in game.effects[since:] if isinstance(e, Announce)]


def resumed(game: Game) -> Game:
    """The table as a restart finds it: the saved game, read back at the same moment."""
    data = json.loads(json.dumps(codec.encode(game.table, game.now)))
    game.table = codec.decode(
        data,
        settings=game.table.settings,
        stations=game.stations,
        has_launcher=game.table.has_launcher,
        now=game.now,
        rng=random.Random(0),
    )
    return game


# -- commands ----------------------------------------------------------------------------


def test_start_pause_and_resume_do_what_they_say_and_nothing_when_it_is_so_already():
    game = Game(QUIET, seed=2)
    game.seat(1, 2, 3)
    command(game, "start")
    assert game.table.phase is Phase.TURN
    lit = game.lit
    game.wait(1.5)
    assert command(game, "start") == []  # a round is running: nothing, not a pause
    command(game, "pause")
    assert game.table.phase is Phase.PAUSED
    game.wait(10)
    assert command(game, "pause") == []  # paused already: nothing, not a resume
    game.wait(10)
    command(game, "resume")
    assert game.table.phase is Phase.TURN
    assert game.lit == lit
    assert game.table.turn.deadline == pytest.approx(game.now + 4.5)
    assert command(game, "resume") == []  # running already: nothing, not a pause
    assert game.table.phase is Phase.TURN


def test_a_resume_just_after_a_players_play_press_leaves_the_turn_running():
    # Asked while the table was paused; the player pressed Play/Pause first.
    game = Game(QUIET, seed=2)
    game.start(1, 2)
    game.tap("play_pause")
    assert game.table.phase is Phase.PAUSED
    mark = game.mark()
    game.feed(Press("play_pause", game.now))
    command(game, "resume")
    assert game.table.phase is Phase.TURN
    assert kinds(game, mark) == ["resumed"]


def test_a_resume_wakes_a_sleeping_table_and_resumes_its_turn_and_a_pause_leaves_it_asleep():
    game = Game({"sleep_time": 1, "turn_timer": 6}, seed=2)
    game.start(1, 2)
    game.wait(61)
    assert game.table.asleep and game.table.phase is Phase.PAUSED
    assert command(game, "pause") == []
    assert game.table.asleep
    mark = game.mark()
    command(game, "resume")
    assert not game.table.asleep and game.table.phase is Phase.TURN
    assert kinds(game, mark) == ["woke", "resumed"]


def test_the_next_round_now_ends_a_round_going_on_and_starts_one_in_a_single_step():
    game = Game(QUIET, seed=2)
    game.start(1, 2, 3)
    mark = game.mark()
    command(game, "next_round")
    assert game.table.phase is Phase.TURN
    assert kinds(game, mark)[:2] == ["round_over", "round_started"]
    game.tap("play_pause")
    assert game.table.phase is Phase.PAUSED
    command(game, "next_round")  # from a pause, too
    assert game.table.phase is Phase.TURN and game.announced("round_started", mark)[1]


@pytest.mark.parametrize("intent", ["start", "next_round"])
def test_a_round_a_remote_starts_while_the_menu_is_open_waits_for_it_with_its_full_time(intent):
    game = Game(QUIET, seed=2)
    game.seat(1, 2, 3)
    if intent == "next_round":
        game.tap("play_pause")
        game.wait(2.0)
    command(game, "menu_opened")
    mark = game.mark()
    command(game, intent)
    assert game.announced("round_started", mark)
    assert game.table.phase is Phase.PAUSED
    game.wait(30.0)  # far past a turn's 6 s
    command(game, "menu_closed")
    assert game.table.phase is Phase.TURN
    assert game.table.turn.deadline == pytest.approx(game.now + 6.0)


def test_a_remotes_resume_while_the_menu_is_open_waits_for_the_menu_to_close():
    game = Game(QUIET, seed=2)
    game.start(1, 2)
    game.wait(2.0)
    left = game.table.turn.deadline - game.now
    game.tap("play_pause")
    command(game, "menu_opened")
    command(game, "resume")
    assert game.table.phase is Phase.PAUSED
    game.wait(30.0)
    assert game.table.phase is Phase.PAUSED
    command(game, "menu_closed")  # closing the menu resumes what the remote asked
    assert game.table.phase is Phase.TURN
    assert game.table.turn.deadline == pytest.approx(game.now + left, abs=0.2)


def test_a_table_a_remotes_start_wakes_sleeps_again_a_minute_later():
    game = Game({"sleep_time": 1}, seed=2)
    game.seat(1)
    game.wait(61)
    assert game.table.asleep
    command(game, "start")  # one player: refused, but the table is awake
    assert not game.table.asleep
    game.wait(59.9)
    assert not game.table.asleep
    game.wait(0.2)
    assert game.table.asleep


def test_a_banner_put_over_a_player_going_out_stays_when_they_let_go():
    game = Game(QUIET, seed=3)
    last = game.start(1, 2, 3)
    game.press(f"seat{last}")  # their turn ends; held on, they may be going out
    game.wait(OUT_HINT + 0.1)
    assert game.lines[0] == f"Seat {last} going out"
    game.tap("launcher")  # a table without one says so over the first line
    assert game.lines[0] == "No launcher"
    game.release(f"seat{last}")  # not out after all: only the going-out line goes with it
    assert game.lines[0] == "No launcher"


def test_a_player_picked_again_who_holds_on_is_not_taken_for_going_out():
    game = Game(QUIET, seed=0)
    last = game.start(1, 2, 3)
    game.press(f"seat{last}")  # their turn ends, and the pick lights them again
    assert game.table.turn.seat == last
    game.wait(OUT_HINT + 0.1)
    assert game.lines[0] == f"Seat {last} again!"
    assert game.table.turn.waits_for == ""  # their own timer runs


def test_a_start_refused_says_why_with_its_tone_for_a_message_time():
    game = Game(QUIET, seed=2)
    game.seat(1)
    mark = game.mark()
    game.tap("play_pause")
    assert game.sounds(mark) == ["refuse"]
    assert game.lines == ("Need 2+ players", "Press to join")
    game.wait(MESSAGE_TIME - 0.2)
    assert game.lines == ("Need 2+ players", "Press to join")
    game.wait(0.2)
    assert game.lines != ("Need 2+ players", "Press to join")


def test_the_sleep_time_counts_from_a_buttons_release_but_not_a_stuck_ones():
    game = Game({"sleep_time": 1}, seed=2)
    game.hold("seat1", 5.0)  # claimed at the press; someone was there until the release
    game.wait(59.9)
    assert not game.table.asleep
    game.wait(0.2)
    assert game.table.asleep
    stuck = Game({"sleep_time": 1}, seed=2)
    stuck.feed(Stuck("seat2", stuck.now))  # held down at power on
    stuck.wait(30.0)
    stuck.release("seat2")  # freed: nobody was at the table for it
    stuck.wait(30.1)
    assert stuck.table.asleep


def test_each_rounds_fair_picks_start_afresh():
    """The fair picker weighs the round's own picks: a seat the last round lit twice running
    may be the next round's first."""
    game = Game({"turn_timer": "off", "sleep_time": "off", "picker": "fair"}, seed=4)
    game.start(1, 2)
    for _ in range(6):
        game.tap(f"seat{game.lit}")
    assert game.table.picks[-2:] == (2, 2)
    command(game, "next_round")
    assert game.lit == 2


def test_the_next_round_is_nothing_while_seating():
    game = Game(QUIET, seed=2)
    game.seat(1, 2)
    assert command(game, "next_round") == []
    assert game.table.phase is Phase.SEATING


def test_opening_the_menu_during_a_turn_pauses_it_and_closing_resumes_it():
    game = Game(QUIET, seed=2)
    lit = game.start(1, 2)
    game.wait(2.0)
    left = game.table.turn.deadline - game.now
    command(game, "menu_opened")
    assert game.table.phase is Phase.PAUSED
    assert game.lines[0] == "Paused"
    game.wait(30)  # far past the turn's 6 s: no timeout while the menu is open
    assert game.table.phase is Phase.PAUSED
    command(game, "menu_closed")
    assert game.table.phase is Phase.TURN
    assert game.lit == lit
    assert game.table.turn.deadline == pytest.approx(game.now + left)


def test_a_wake_from_the_menu_or_a_remote_wakes_a_sleeping_table_that_sleeps_again_later():
    game = Game({"sleep_time": 1}, seed=2)
    game.seat(1)
    game.wait(61)
    assert game.table.asleep
    mark = game.mark()
    command(game, "wake")
    assert not game.table.asleep
    assert game.view.backlight
    assert game.lines == ("Table   timer 6s", "Seats 1")
    assert game.announced("woke", mark) == [{"phase": "seating"}]
    assert set(game.sounds(mark)) <= set(TUNES)
    game.wait(59)
    assert not game.table.asleep
    game.wait(2)  # a minute with nobody there since the wake
    assert game.table.asleep


def test_a_command_from_the_menu_starts_the_sleep_time_over():
    game = Game({"sleep_time": 1}, seed=2)
    game.seat(1)  # the last input: its release, 0.1 s in
    game.wait(50)
    command(game, "wake")  # someone at the menu: keep awake
    game.wait(59)  # well past a minute since the seat was claimed
    assert not game.table.asleep
    game.wait(2)  # a minute since the menu was used
    assert game.table.asleep


def test_new_round_after_a_round_is_over_starts_the_next_with_the_same_seats():
    game = Game(QUIET, seed=2)
    winner = game.start(1, 2, 3)
    game.hold(f"seat{winner}", WIN_HOLD + 0.1)
    assert game.table.phase is Phase.ROUND_OVER
    mark = game.mark()
    command(game, "new_round")
    assert game.table.phase is Phase.TURN
    assert game.table.seated == {1, 2, 3}
    [started] = game.announced("round_started", mark)
    assert started["seats"] == [1, 2, 3]
    assert game.lit in (1, 2, 3)


def test_change_seats_after_a_round_says_so_and_keeps_the_seats_for_the_seating_screen():
    game = Game(QUIET, seed=2)
    winner = game.start(1, 3)
    game.hold(f"seat{winner}", WIN_HOLD + 0.1)
    mark = game.mark()
    command(game, "seating")
    assert game.table.phase is Phase.SEATING
    assert game.announced("seating", mark) == [{"seats": [1, 3]}]
    assert game.lines == ("Table   timer 6s", "Seats 1 3")


def test_change_seats_after_a_round_for_places_resumes_at_seating_after_a_restart():
    game = Game(PLACES, seed=1)
    game.seat(1, 2, 3)
    game.tap("play_pause")
    for seat in (2, 1):
        game.hold(f"seat{seat}", WIN_HOLD + 0.1)
    assert game.table.phase is Phase.ROUND_OVER
    command(game, "seating")
    resumed(game)  # a power cut now loses nothing: the seats, ready for a new round
    assert game.table.phase is Phase.SEATING
    assert game.table.seated == {1, 2, 3}
    assert game.lines == ("Table   no timer", "Seats 1 2 3")
    game.tap("play_pause")
    assert game.table.phase is Phase.TURN


def test_change_seats_shows_the_seating_screen_a_full_page_before_the_standings():
    game = Game(PLACES, seed=1)
    game.seat(1, 2)
    game.tap("play_pause")
    game.hold("seat1", WIN_HOLD + 0.1)
    command(game, "seating")
    game.wait(PAGE_TIME)
    assert game.lines == ("Card points    0", "1 to enter")  # the score, then the standings
    game.tap("play_pause")  # the next round starts from a standings page
    game.hold("seat2", WIN_HOLD + 0.1)
    assert game.table.phase is Phase.ROUND_OVER
    command(game, "seating")
    seating = ("Table   no timer", "Seats 1 2")
    assert game.lines == seating
    game.wait(PAGE_TIME - 0.1)
    assert game.lines == seating
    game.wait(0.1)
    assert game.lines == ("Card points    0", "1 to enter")


# -- stuck buttons -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "first"),
    [
        ("seat3", "Seat 3 button"),
        ("slap", "SLAP button"),
        ("launcher", "Launcher button"),
        ("encoder.push", "Encoder button"),
        ("play_pause", "Play/Pause"),  # "Play/Pause button" would not fit
    ],
)
def test_a_button_stuck_at_power_on_is_named_on_the_lcd_in_words_that_fit(name, first):
    game = Game(QUIET)
    game.feed(Stuck(name, game.now))
    assert game.announced("button_stuck") == [{"input": name}]
    assert game.lines == (first, STUCK_LINE)
    assert all(len(line) <= 16 for line in game.lines)


def test_a_stuck_button_sounds_a_tune_and_is_shown_for_a_few_seconds():
    game = Game(QUIET)
    game.seat(1)
    mark = game.mark()
    game.feed(Stuck("seat2", game.now))
    sounds = game.sounds(mark)
    assert sounds
    assert set(sounds) <= set(TUNES)
    game.wait(MESSAGE_TIME - 0.1)
    assert game.lines == ("Seat 2 button", STUCK_LINE)
    game.wait(0.1)
    assert game.lines == ("Table   timer 6s", "Seats 1")


def test_a_seating_message_stays_its_full_time_through_a_visit_to_the_menu():
    game = Game(QUIET)
    game.feed(Stuck("slap", game.now))
    game.wait(1.0)
    command(game, "menu_opened")
    game.wait(0.5)
    command(game, "menu_closed")
    assert game.lines == ("SLAP button", STUCK_LINE)
    game.wait(MESSAGE_TIME - 1.5)
    assert game.lines == ("Table   timer 6s", "Press to join")


def test_a_button_stuck_at_a_restart_mid_round_is_ignored_and_its_player_keeps_the_seat():
    game = Game(QUIET, seed=2)
    lit = game.start(1, 2, 3)
    other = game.others(lit)[0]
    game.tap("play_pause")
    resumed(game)  # the restart: the round resumes paused
    assert game.table.phase is Phase.PAUSED
    game.feed(Stuck(f"seat{other}", game.now))
    assert game.table.seated == {1, 2, 3}
    game.tap("play_pause")
    assert game.table.phase is Phase.TURN
    assert game.lit == lit
    game.release(f"seat{other}")  # freed
    game.tap(f"seat{lit}")
    assert game.table.seated == {1, 2, 3}
    assert game.table.phase is Phase.TURN


def test_only_a_seat_button_held_while_seating_is_taken_for_stuck():
    # Play/Pause held is nothing more than a press (README, "What each long press does").
    game = Game(QUIET)
    game.feed(Press("play_pause", game.now))  # refused: nobody seated
    game.press("seat1", game.now + 1.0)
    game.wait(STUCK_AFTER + 1.0)
    assert game.announced("button_stuck") == [{"input": "seat1"}]
    assert game.table.seated == frozenset()
    assert "play_pause" not in game.table.stuck


def test_seat_buttons_held_together_while_seating_are_each_reported_stuck():
    game = Game(QUIET)
    game.feed(Press("seat2", game.now))
    game.feed(Press("seat1", game.now))
    game.wait(STUCK_AFTER)
    assert sorted(e["input"] for e in game.announced("button_stuck")) == ["seat1", "seat2"]
    assert game.table.seated == frozenset()
    assert game.lines[1] == STUCK_LINE


# -- a mode or a finish for the next round -----------------------------------------------


def test_a_finish_chosen_during_a_round_is_said_for_a_few_seconds_then_the_turn_shows():
    game = Game(QUIET, seed=2)
    lit = game.start(1, 2)
    game.feed(Configure(game.table.settings.replace({"finish": "places"}), game.now))
    assert game.lines == ("Finish: places", "from next round")
    game.wait(MESSAGE_TIME - 0.1)
    assert game.lines == ("Finish: places", "from next round")
    game.wait(0.1)
    assert game.lines[1].startswith(f"Seat {lit} turn")


# -- the menu and a notice ---------------------------------------------------------------


def test_a_turn_that_comes_up_while_the_menu_is_open_starts_paused_with_its_full_time():
    game = Game({"turn_timer": 2, "sleep_time": "off"}, seed=2)
    game.start(1, 2)
    game.wait(2.1)  # the time runs out: the timeout notice holds the table
    assert game.table.phase is Phase.NOTICE
    command(game, "menu_opened")
    game.wait(TIMEOUT_HOLD)  # the notice ends behind the menu
    assert game.table.phase is Phase.PAUSED
    assert game.lines[0] == "Paused"
    paused = game.table.turn.seat
    game.wait(10)
    command(game, "menu_closed")
    assert game.table.phase is Phase.TURN
    assert game.lit == paused
    assert game.table.turn.deadline == pytest.approx(game.now + 2)


# -- a notice's pages --------------------------------------------------------------------


@pytest.mark.timeout(20)  # a page that never moves on would keep the step going for ever
def test_the_slap_results_pages_move_on_whatever_the_moment_the_race_closed():
    game = Game({"turn_timer": "off", "sleep_time": "off", "slap_window": 3}, seed=2)
    game.start(1, 2, 3)
    # The race closes at 126.00000000000001: its first page's end, that moment plus 2 s,
    # is the float 128.0, a hair before the exact sum.
    game.press("slap", 123.00000000000001)
    game.release("slap", game.now + 0.1)
    assert game.table.race.closes == 126.00000000000001
    assert game.table.race.closes + 2.0 == 128.0
    game.run_until(game.table.race.closes)
    assert game.table.phase is Phase.NOTICE
    pages = game.table.notice.pages
    assert len(pages) > 1
    shown = [game.lines]
    for _ in pages[1:]:
        game.run_until(next_wakeup(game.table))
        shown.append(game.lines)
    assert shown == list(pages)
    game.wait(SLAP_PAGE_TIME)
    assert game.table.phase is Phase.TURN
