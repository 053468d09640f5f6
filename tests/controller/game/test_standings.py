"""The evening's standings: folded in at each round's end, shown after the summary and on the
seating screen between rounds, cleared by sleep or by Reset standings."""

import json

import pytest

from controller.catalogs import translation
from controller.game import Command, Phase
from controller.game.codec import encode
from controller.game.frozen import replace
from controller.game.holds import WIN_HOLD
from controller.game.standings import PAGE_TIME, pages, slap_line
from controller.game.state import MAX_COUNT, SeatStanding, SlapTimes, Standings

from .driver import Game

PLACES = {"finish": "places", "turn_timer": "off", "sleep_time": "off"}


def out(game: Game, seat: int) -> None:
    game.hold(f"seat{seat}", WIN_HOLD + 0.1)


def play_places(game: Game, order: list[int]) -> None:
    """A round for places in which the seats go out in `order` (the last one is left)."""
    game.tap("play_pause")
    for seat in order[:-1]:
        out(game, seat)
    assert game.table.phase is Phase.ROUND_OVER
    assert game.table.places == tuple(order)


def test_three_rounds_make_the_standings_of_the_evening():
    game = Game(PLACES, seed=1)
    game.seat(1, 2, 3)
    play_places(game, [2, 1, 3])
    play_places(game, [2, 3, 1])
    game.tap("play_pause")
    game.feed(Command("new_round", game.now))  # ended before anyone went out: not counted
    play_places(game, [1, 3, 2])
    standings = game.table.standings
    assert standings.rounds == 3
    assert {seat: (s.rounds, s.wins, s.average_place) for seat, s in standings.seats.items()} == {
        1: (3, 1, (2 + 3 + 1) / 3),
        2: (3, 2, (1 + 1 + 3) / 3),
        3: (3, 0, (3 + 2 + 2) / 3),
    }
    [over] = game.announced("round_over")[-1:]
    assert over["standings"]["rounds"] == 3
    assert over["standings"]["seats"][1] == {
        "seat": 2,
        "name": "",
        "rounds": 3,
        "wins": 2,
        "average_place": 1.67,
        "timeouts": 0,
        "slap_best_ms": None,
        "slap_average_ms": None,
    }


def test_timeouts_and_slap_times_add_up_over_the_rounds():
    game = Game({**PLACES, "turn_timer": 2, "slap_window": 2}, seed=3)
    game.seat(1, 2)
    game.tap("play_pause")
    game.wait(2.0 + 2.5)  # the first player's time runs out
    slapper = game.lit
    [racer] = game.others(slapper)
    game.press("slap")
    game.tap(f"seat{racer}", hold=0.05)
    game.press(f"seat{racer}", game.now + 0.3)  # a second press is no new race press
    game.wait(2.0 + 4.0)
    out(game, game.lit)
    timeouts = {seat: s.timeouts for seat, s in game.table.standings.seats.items()}
    assert sum(timeouts.values()) >= 1
    slap = game.table.standings.seats[racer].slap
    assert slap.presses == 1 and slap.best_ms == slap.average_ms == 0


def test_a_round_for_the_first_out_counts_its_winner_but_no_places():
    game = Game({"turn_timer": "off", "sleep_time": "off"}, seed=1)
    game.seat(1, 2)
    game.tap("play_pause")
    out(game, 2)
    standings = game.table.standings
    assert standings.rounds == 1
    assert standings.seats[2] == SeatStanding(rounds=1, wins=1)
    assert standings.seats[1].average_place is None


def test_the_seating_screen_pages_through_the_standings_and_a_join_shows_it_again():
    game = Game(PLACES, seed=1)
    game.seat(1, 2)
    play_places(game, [1, 2])
    game.feed(Command("seating", game.now))
    seating = game.lines
    assert seating == ("Table   no timer", "Seats 1 2")
    shown = [game.lines]
    for _ in range(len(pages(game.table)) + 1):
        game.wait(PAGE_TIME)
        shown.append(game.lines)
    assert shown == [seating, *pages(game.table), seating]
    # The score to 500 first: the round's points wait to be entered; then the standings.
    assert shown[1:3] == [
        ("Card points    0", "1 to enter"),
        ("Seat 1         0", "Seat 2         0"),
    ]
    assert shown[3] == ("Standings after", "1 round")
    game.wait(PAGE_TIME)
    game.tap("seat3")
    assert game.lines == ("Table   no timer", "Seats 1 2 3")


def test_sleep_clears_the_standings_and_says_so():
    game = Game({**PLACES, "sleep_time": 1}, seed=1)
    game.seat(1, 2)
    play_places(game, [2, 1])
    mark = game.mark()
    game.wait(61)
    assert game.table.asleep
    assert game.announced("standings_reset", mark) == [{"reason": "sleep"}]
    assert game.table.standings == Standings()
    game.tap("seat1")  # wakes it
    game.tap("play_pause")
    out(game, 1)
    mark = game.mark()
    game.wait(61)
    game.tap("seat1")
    game.wait(61)  # asleep again, with nothing to clear: nothing said
    assert game.announced("standings_reset", mark) == [{"reason": "sleep"}]


def test_reset_standings_clears_them_and_the_summary_starts_over():
    game = Game(PLACES, seed=1)
    game.seat(1, 2)
    play_places(game, [2, 1])
    game.wait(5 * 3.0)
    mark = game.mark()
    game.feed(Command("reset_standings", game.now))
    assert game.announced("standings_reset", mark) == [{"reason": "menu"}]
    assert game.table.standings == Standings()
    assert game.table.summary.page == 0
    assert game.lines == ("Round over!", "Seat 2 wins!")


def test_every_standings_screen_fits_the_lcd_with_the_largest_figures():
    slow = SlapTimes(presses=3, total_ms=30000, best_ms=10000)
    standings = Standings(
        rounds=999,
        seats={
            seat: SeatStanding(
                rounds=999, wins=124, placed=999, place_total=7992, timeouts=99999, slap=slow
            )
            for seat in range(1, 9)
        },
    )
    screens = pages(replace(Game(PLACES).table, standings=standings))
    assert len(screens) == 1 + 2 * 8
    assert all(len(line) <= 16 for lines in screens for line in lines)
    # A number is never cut: the words give way.
    assert screens[1] == ("Sea 1 999 rounds", "wi 124 place 8.0")
    assert screens[2] == ("Sea 1 late 99999", "SLAP 10.0s/10.0s")


@pytest.mark.parametrize(
    ("best", "total", "line"),
    [
        (212, 776, "SLAP 212ms/388ms"),
        (1109, 3010, "SLAP 1.10s/1.50s"),  # over a second: whole, the label too
        (999, 1998, "SLAP 999ms/999ms"),
        (9999, 19998, "SLAP 9.99s/9.99s"),
    ],
)
def test_a_reaction_time_shows_whole_beside_its_label(best, total, line):
    assert slap_line(translation("en"), SlapTimes(presses=2, total_ms=total, best_ms=best)) == line


def test_a_german_table_writes_its_figures_with_a_decimal_comma():
    slap = SlapTimes(presses=2, total_ms=3010, best_ms=1109)
    standing = SeatStanding(rounds=2, wins=1, placed=2, place_total=3, timeouts=0, slap=slap)
    german = Game({**PLACES, "language": "de"}).table
    screens = pages(replace(german, standings=Standings(rounds=2, seats={1: standing})))
    assert screens[1][1].endswith(" 1,5") and screens[2][1] == "SLAP 1,10s/1,50s"
    assert slap_line(translation("de"), SlapTimes(presses=2, total_ms=776, best_ms=212)) == (
        "SLAP 212ms/388ms"
    )


def test_in_extreme_the_seating_screen_keeps_the_launchers_result_in_sight():
    game = Game({"mode": "extreme", "sleep_time": "off"}, has_launcher=True)
    game.seat(1, 2)
    game.tap("play_pause")
    out(game, 1)
    game.feed(Command("seating", game.now))
    assert game.table.standings.rounds == 1
    shown = game.lines
    game.wait(3 * PAGE_TIME)
    assert game.lines == shown and game.lines[0].startswith("Extreme")


def test_after_reset_standings_the_summarys_first_screen_shows_its_full_time():
    game = Game(PLACES, seed=1)
    game.seat(1, 2)
    play_places(game, [2, 1])
    game.wait(5 * PAGE_TIME)
    reset = game.now + 1.0
    game.feed(Command("reset_standings", reset))
    game.run_until(reset + PAGE_TIME - 0.01)
    assert game.table.summary.page == 0
    assert game.lines == ("Round over!", "Seat 2 wins!")
    game.run_until(reset + PAGE_TIME)
    assert game.table.summary.page == 1


def test_a_resumed_round_whose_snapshot_lacks_a_seats_figures_still_counts_that_seat():
    """A snapshot that decodes is one the table can play on (controller/game/codec.py): a seat
    without figures in it plays the round on and counts it, with none of its own."""
    game = Game({**PLACES, "finish": "first"}, seed=1)
    game.start(1, 2, 3)
    data = encode(game.table, game.now)
    del data["stats"]["3"]
    game.resume(data)
    game.tap("play_pause")
    out(game, 1)
    assert game.table.phase is Phase.ROUND_OVER
    assert game.table.standings.rounds == 1
    assert game.table.standings.seats[3] == SeatStanding(rounds=1)
    assert game.table.standings.seats[1].wins == 1


def saved_and_resumed(game: Game) -> None:
    """The game as a restart resumes it from the disk: encoded, written, read back."""
    game.resume(json.loads(json.dumps(encode(game.table, game.now))))


def test_standings_at_the_largest_count_kept_still_resume_after_another_round():
    # An evening whose standings a hand edited to the largest count the table keeps.
    game = Game(PLACES, seed=1)
    game.seat(1, 2, 3)
    full = Standings(
        MAX_COUNT,
        {
            1: SeatStanding(MAX_COUNT, MAX_COUNT, 0, 0, 0, SlapTimes()),
            2: SeatStanding(MAX_COUNT, 0, 0, 0, MAX_COUNT, SlapTimes(2, 400, 150)),
        },
    )
    game.table = replace(game.table, standings=full)
    saved_and_resumed(game)
    play_places(game, [2, 1, 3])
    assert game.table.standings == full  # the round is not counted: the counts stop there
    saved_and_resumed(game)  # and the game saved after it resumes, standings and all
    assert game.table.standings == full


def test_slap_times_past_the_largest_count_kept_are_not_counted_and_the_game_resumes():
    game = Game({**PLACES, "slap_window": 2}, seed=3)
    game.seat(1, 2)
    game.tap("play_pause")
    lit = game.lit
    stats = game.table.stats
    most = SlapTimes(100_000, MAX_COUNT, 5)  # as many milliseconds as a table keeps
    game.table = replace(game.table, stats={**stats, 3 - lit: replace(stats[3 - lit], slap=most)})
    game.tap("slap")
    game.wait(0.3)
    game.tap(f"seat{3 - lit}")
    game.wait(3.0)
    [result] = game.announced("slap_result")
    assert [entry["seat"] for entry in result["order"]] == [3 - lit]  # a press with its time
    assert game.table.stats[3 - lit].slap == most
    saved_and_resumed(game)
    assert game.table.stats[3 - lit].slap == most
