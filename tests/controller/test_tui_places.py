"""The terminal view in a round for places: a player out is steady, the places show on the
top line, and `s` shows the evening's standings (and the places of the round in play)."""

from __future__ import annotations

from textual.pilot import Pilot

from controller.catalogs import translation
from controller.game.frozen import replace
from controller.game.state import SeatStanding, SlapTimes, Standings
from controller.tui.app import TableApp
from controller.tui.keys import SHIFTED_DIGITS
from controller.tui.standings_screen import StandingsScreen
from controller.tui.standings_table import row, standings_lines

from .game.driver import Game
from .test_tui import keys, lit_seat, play, screen, seat_box

PLACES = {"finish": "places", "turn_timer": "off"}


def top_line(app: TableApp) -> str:
    return screen(app).splitlines()[0]


async def go_out(app: TableApp, pilot: Pilot, seat: int) -> None:
    await keys(app, pilot, SHIFTED_DIGITS[seat - 1], gap=3.0)  # a long press: 2.5 s


def test_a_player_out_is_steady_and_the_places_show_on_top():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await keys(app, pilot, "1", "2", "3", "p")
        lit = lit_seat(app)
        leaving = min({1, 2, 3} - {lit})
        assert "places" not in top_line(app)
        await go_out(app, pilot, leaving)
        assert seat_box(app, leaving) == f"({leaving})"
        assert top_line(app).rstrip().endswith(f"places {leaving}")
        await keys(app, pilot, "s")
        assert isinstance(app.screen, StandingsScreen)
        text = screen(app)
        assert "No round counted yet" in text
        assert f"Places: 1st Seat {leaving}" in text
        await keys(app, pilot, "escape")
        assert not isinstance(app.screen, StandingsScreen)
        # a key of the table closes the screen and plays: none is lost behind it
        await keys(app, pilot, "s")
        assert isinstance(app.screen, StandingsScreen)
        ended = len(app.table.events_of("turn_ended"))
        await keys(app, pilot, str(lit))
        assert not isinstance(app.screen, StandingsScreen)
        assert [e.data["seat"] for e in app.table.events_of("turn_ended")[ended:]] == [lit]

    play(scenario, settings=PLACES)


def test_s_shows_the_standings_after_a_round():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await keys(app, pilot, "1", "2", "3", "p")
        lit = lit_seat(app)
        first, second = sorted({1, 2, 3} - {lit})
        await go_out(app, pilot, first)
        await go_out(app, pilot, second)
        assert "Round over!" in screen(app)
        assert top_line(app).rstrip().endswith(f"places {first} {second} {lit}")
        await keys(app, pilot, "s")
        text = screen(app)
        assert "Standings after 1 round:" in text
        for seat, wins, place in ((first, "1", "1.00"), (second, "0", "2.00"), (lit, "0", "3.00")):
            assert row(translation("en"), (str(seat), "1", wins, place, "0", "-", "-")) in text
        assert all(len(line) <= 80 for line in text.splitlines())
        await keys(app, pilot, "s")
        assert not isinstance(app.screen, StandingsScreen)

    play(scenario, settings=PLACES)


def test_the_standings_in_german_write_the_average_place_with_a_decimal_comma():
    standing = SeatStanding(rounds=2, wins=1, placed=2, place_total=3, timeouts=0, slap=SlapTimes())
    table = replace(Game(PLACES).table, standings=Standings(rounds=2, seats={1: standing}))
    german = translation("de")
    assert row(german, ("1", "2", "1", "1,50", "0", "-", "-")) in standings_lines(table, german)


def test_the_views_clock_and_speed_keep_the_decimal_mark_of_the_tables_language():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await keys(app, pilot, "1", "2", "p", gap=0.25)
        status = top_line(app)
        assert "Zeit x0,5" in status and status.rstrip().endswith(" 0,8 s"), status

    play(scenario, settings={"language": "de"}, time_scale=0.5)
