"""The view's parts on their own: glyphs, layout, keys, the launcher panel, fingers, logs."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import pytest
from textual.app import App, ComposeResult

from controller.catalogs import translation
from controller.game import Press, Release
from controller.game.lcd_glyphs import ARROW_LEFT, ARROW_RIGHT, CUSTOM_CHARS
from controller.shell.publish import GameEvent
from controller.simulation.table import TAP_TIME, SimTable
from controller.tui.eventlog import event_line, value_text
from controller.tui.fingers import LONG_PRESS, REPRESS_GAP, Fingers
from controller.tui.glyphs import LIGHT_MARKS, braille, lcd_text, legend, light_style, seat_label
from controller.tui.keys import Move, move_for
from controller.tui.launcher_panel import (
    FLIGHT_TIME,
    FLIGHT_TRACK,
    LauncherPanel,
    Reading,
    flight_text,
    hopper_text,
    motor_text,
    reading,
    title_text,
)
from controller.tui.lcd import Lcd, backlit
from controller.tui.logroute import ROUTED_LOGGERS, LogRoute
from controller.tui.screen_text import screen_text
from controller.tui.tabletop import SEAT_HEIGHT, SEAT_WIDTH, seat_places

# -- glyphs --------------------------------------------------------------------------------

EN = translation("en")


def test_every_light_pattern_reads_differently_without_colour():
    labels = [seat_label(3, pattern) for pattern in LIGHT_MARKS]
    assert len(set(labels)) == len(labels)
    assert seat_label(3, "on") == "(3)"
    assert seat_label(3, "pulse") == "<3>"
    assert seat_label(3, "blink") == "*3*"
    assert seat_label(3, "dim") == "·3·"
    assert [line[:3] for line in legend(EN)] == labels


def test_moving_patterns_alternate_with_game_time_and_steady_ones_do_not():
    assert light_style("blink", 0.1) != light_style("blink", 0.5)
    assert light_style("flash", 0.01) != light_style("flash", 0.07)
    assert light_style("on", 0.1) == light_style("on", 0.5)
    assert light_style("off", 0.1) == light_style("off", 0.5)


@pytest.mark.parametrize(
    ("bitmap", "cell"),
    [
        ((0b11111,) * 8, "⣿"),
        ((0,) * 8, "⠀"),
        ((0b10000,) * 8, "⡇"),  # the left column: dots 1, 2, 3 and 7
        ((0b00001,) * 8, "⢸"),  # the right column: dots 4, 5, 6 and 8
        ((0b11111, 0, 0, 0, 0, 0, 0, 0), "⠉"),  # the top row only
        ((0, 0, 0, 0, 0, 0, 0, 0b01110), "⣀"),  # a thin underline still shows
    ],
)
def test_custom_characters_are_drawn_from_their_bitmaps(bitmap, cell):
    assert braille(bitmap) == cell


def test_lcd_text_maps_custom_codes_and_blanks_control_codes():
    custom = {1: (0b11111,) * 8}
    assert lcd_text("a\x01b\x02c\x1bd", custom) == "a⣿b▒c d"


def test_the_displays_own_glyphs_are_drawn_as_their_look_alikes():
    assert lcd_text(ARROW_LEFT + ARROW_RIGHT, CUSTOM_CHARS) == "←→"


def test_lcd_text_takes_the_eight_cgram_slots_of_a_controller():
    slots = [(0,) * 8] * 7 + [(0b00001,) * 8]
    assert lcd_text("\x00\x07", slots) == "⠀⢸"


def test_backlight_is_read_from_either_kind_of_simulated_display():
    assert backlit(SimpleNamespace(backlight=False)) is False
    assert backlit(SimpleNamespace(lit=False, backlight=True)) is False
    assert backlit(object()) is True


class LcdApp(App):
    def compose(self) -> ComposeResult:
        yield Lcd()


def test_the_lcd_shows_its_lines_and_says_when_its_backlight_is_off():
    async def main() -> None:
        app = LcdApp()
        async with app.run_test(size=(24, 4)) as pilot:
            lcd = app.query_one(Lcd)
            lcd.show(
                ("Round over!", "Seat 3 wins\x00"), lit=True, custom={0: (0b11111,) * 8}, words=EN
            )
            await pilot.pause()
            text = screen_text(app)
            assert "│ Round over!      │" in text and "│ Seat 3 wins⣿     │" in text
            assert "backlight off" not in text
            lcd.show(("Sleeping", ""), lit=False, custom={}, words=EN)
            await pilot.pause()
            assert "backlight off" in screen_text(app)

    asyncio.run(main())


# -- layout and keys -----------------------------------------------------------------------


@pytest.mark.parametrize("seats", range(2, 9))
@pytest.mark.parametrize(("width", "height"), [(48, 15), (100, 30)])
def test_seats_sit_round_the_table_without_overlapping(seats, width, height):
    places = seat_places(seats, width, height)
    top_x, top_y = places[0]
    assert top_y == 0 and abs(top_x - (width - SEAT_WIDTH) / 2) <= 0.5
    for x, y in places:
        assert 0 <= x <= width - SEAT_WIDTH and 0 <= y <= height - SEAT_HEIGHT
    for i, (x, y) in enumerate(places):
        for ox, oy in places[i + 1 :]:
            apart = abs(x - ox) >= SEAT_WIDTH or abs(y - oy) >= SEAT_HEIGHT
            assert apart, (seats, (x, y), (ox, oy))


@pytest.mark.parametrize(
    ("key", "character", "move"),
    [
        ("3", "3", Move("tap", "seat3")),
        ("number_sign", "#", Move("hold", "seat3", seconds=LONG_PRESS)),
        ("shift+3", None, Move("hold", "seat3", seconds=LONG_PRESS)),
        ("space", " ", Move("tap", "slap")),
        ("l", "l", Move("tap", "launcher")),
        ("L", "L", Move("hold", "launcher", seconds=LONG_PRESS)),
        ("p", "p", Move("tap", "play_pause")),
        ("enter", "\r", Move("tap", "encoder.push")),
        ("left", None, Move("turn", steps=-1)),
        ("right_square_bracket", "]", Move("turn", steps=1)),
        ("j", "j", Move("fault", "jam")),
        ("c", "c", Move("fault", "clear")),
        ("e", "e", Move("fault", "empty")),
        ("r", "r", Move("fault", "refill")),
        ("question_mark", "?", Move("help")),
        ("7", "7", Move("missing", "seat7")),  # this table has six seats
        ("ampersand", "&", Move("missing", "seat7")),
        ("x", "x", None),
    ],
)
def test_keys_map_to_moves(key, character, move):
    assert move_for(key, character, seats=6, armed=False) == move


def test_an_armed_hold_makes_the_next_press_long():
    assert move_for("space", " ", seats=6, armed=True) == Move("hold", "slap", seconds=LONG_PRESS)
    assert move_for("left", None, seats=6, armed=True) == Move("turn", steps=-1)


# -- the launcher panel --------------------------------------------------------------------


def test_hopper_and_counter_text():
    assert hopper_text(None) == "hopper  --"
    assert hopper_text(54) == "hopper ▮▮▮▮▮▮▮▮▮▮▮▮  54"
    assert hopper_text(49) == "hopper ▮▮▮▮▮▮▮▮▮▮▮▯  49"
    assert hopper_text(1) == "hopper ▮▯▯▯▯▯▯▯▯▯▯▯   1"
    assert hopper_text(0) == "hopper ▯▯▯▯▯▯▯▯▯▯▯▯   0"
    assert flight_text(None) == "out     --"
    assert flight_text(12) == "out    12 ⊐"
    assert flight_text(12, [(0.0, 3)]) == "out    12 ⊐ ▭▭▭"
    assert flight_text(12, [(1.0, 3)]) == "out    12 ⊐"


def test_cards_that_left_apart_fly_apart_and_a_big_burst_is_drawn_short():
    assert flight_text(2, [(0.5, 1), (0.0, 1)]) == "out     2 ⊐ ▭      ▭"
    assert flight_text(9, [(0.0, 9)]) == "out     9 ⊐ ▭▭▭▭▭▭"
    # Near the end of the track the cards leave the panel: the line never outgrows it.
    assert flight_text(9999, [(0.99, 6)]) == "out  9999 ⊐" + " " * (FLIGHT_TRACK - 1) + "▭"


def test_motor_and_title_text():
    assert motor_text(1.0) == "motor ▶ running"
    assert motor_text(0.45) == "motor ▶ running"
    assert motor_text(-0.7) == "motor ◀ reverse"
    assert motor_text(0.0) == "motor ■ stopped"
    assert motor_text(0.0, jammed=True) == "motor ■ stopped · JAM"
    assert title_text(0, False) == "launcher"
    assert title_text(3, True) == "launcher · ♪ chime · 3 owed"


class PanelApp(App):
    def compose(self) -> ComposeResult:
        yield LauncherPanel()


def test_cards_fly_out_of_the_slot_when_the_count_rises():
    async def main() -> None:
        app = PanelApp()
        async with app.run_test(size=(40, 8)) as pilot:
            panel = app.query_one(LauncherPanel)

            async def shown(out: int, left: int, at: float, **more) -> str:
                panel.show(Reading(out, left, **more), at, EN)
                await pilot.pause()
                return screen_text(app)

            assert "▭" not in await shown(0, 54, 0.0)
            start = await shown(3, 51, 1.0, motor=1.0)
            later = await shown(3, 51, 1.0 + FLIGHT_TIME / 2, motor=-0.7)
            flight = next(line for line in start.splitlines() if "out" in line)
            moved = next(line for line in later.splitlines() if "out" in line)
            assert "▭▭▭" in flight and "▭▭▭" in moved
            assert moved.index("▭") > flight.index("▭")
            assert "motor ▶ running" in start and "motor ◀ reverse" in later
            done = await shown(3, 51, 1.0 + FLIGHT_TIME)
            assert "▭" not in done and "out     3 ⊐" in done
            assert "hopper ▮▮▮▮▮▮▮▮▮▮▮▮  51" in done and "motor ■ stopped" in done
            jammed = await shown(3, 51, 3.0, jammed=True, owed=2, chiming=True)
            assert "launcher · ♪ chime · 2 owed" in jammed and "motor ■ stopped · JAM" in jammed

    asyncio.run(main())


def test_a_reading_comes_from_the_launcher_model_and_the_game():
    async def main() -> None:
        async with SimTable(seed=1) as table:
            assert reading(table) == Reading(out=0, left=54)
            table.jam()
            taken = table.empty_hopper()
            table.refill(10)
            assert taken == 54
            assert reading(table) == Reading(out=0, left=10, jammed=True)

    asyncio.run(main())


# -- fingers and logs ----------------------------------------------------------------------


def edges(table: SimTable, name: str, start: float) -> list[tuple[float, str]]:
    """Presses and releases of `name` as the game got them: (edge time since start, kind)."""
    return [
        (round(e.time - start, 3), type(e).__name__)
        for _, e in table.daemon.game_log
        if isinstance(e, Press | Release) and e.input == name
    ]


def test_fingers_let_go_in_game_time_and_press_again_when_asked_twice():
    async def main() -> None:
        async with SimTable(seed=1) as table:
            start = table.now
            fingers = Fingers(table)
            await fingers.tap("seat1", hold=LONG_PRESS)
            await fingers.tap("seat2")
            await fingers.tap("seat2")  # pressed again while still down
            assert fingers.is_down("seat1") and fingers.is_down("seat2")
            await fingers.advance(3.0)
            assert not fingers.is_down("seat1") and not fingers.is_down("seat2")
            assert table.now == pytest.approx(start + 3.0 + REPRESS_GAP)
            assert edges(table, "seat1", start) == [(0.0, "Press"), (LONG_PRESS, "Release")]
            assert edges(table, "seat2", start) == [
                (0.0, "Press"),
                (0.0, "Release"),
                (REPRESS_GAP, "Press"),
                (REPRESS_GAP + TAP_TIME, "Release"),
            ]

    asyncio.run(main())


def test_a_mouse_press_lasts_at_least_a_tap():
    async def main() -> None:
        async with SimTable(seed=1) as table:
            start = table.now
            fingers = Fingers(table)
            await fingers.down("slap")
            await fingers.up("slap")
            assert fingers.is_down("slap")
            await fingers.advance(1.0)
            assert edges(table, "slap", start) == [(0.0, "Press"), (TAP_TIME, "Release")]

    asyncio.run(main())


def test_event_lines_are_compact_and_stable():
    event = GameEvent(7, "paused", {"seat": 3, "left": 4.880000000000001, "seats": [1, 3]})
    line = event_line(12.3456, event)
    assert line == "   7   12.346 paused           seat=3 left=4.88 seats=[1,3]"
    assert value_text("table") == "table"
    assert value_text("two words") == '"two words"'
    assert value_text(None) == "null"


def test_log_route_takes_records_off_the_terminal_and_gives_the_loggers_back(capsys):
    before = {name: logging.getLogger(name).propagate for name in ROUTED_LOGGERS}
    with LogRoute() as route:
        logging.getLogger("controller.shell.daemon").info("quiet")
        logging.getLogger("hardware.board").error("closing failed")
        try:
            raise OSError("pin busy")
        except OSError:
            logging.getLogger("controller.shell.daemon").exception("handling failed")
        assert route.take() == [
            "error hardware.board: closing failed",
            "error controller.shell.daemon: handling failed (OSError: pin busy)",
        ]
    assert {name: logging.getLogger(name).propagate for name in ROUTED_LOGGERS} == before
    assert all(route not in logging.getLogger(name).handlers for name in ROUTED_LOGGERS)
    assert capsys.readouterr().err == ""


def test_every_event_type_starts_its_data_in_the_same_column():
    import ast
    from pathlib import Path

    import controller.game
    from controller.shell.publish import GameEvent
    from controller.tui.eventlog import DATA_COLUMN, event_line

    kinds = set()
    for path in Path(controller.game.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Announce":
                kinds.add(node.args[0].value)
    assert {"launcher_resumed", "settings_changed"} <= kinds
    for kind in kinds:
        assert event_line(1.0, GameEvent(1, kind, {"x": 1})).index("x=1") == DATA_COLUMN, kind
