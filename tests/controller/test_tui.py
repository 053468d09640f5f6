"""The simulated table on screen, driven headless with Textual's pilot.

Every test runs the real daemon on simulated pins with the view's clock stopped: game time
moves only when a test advances it, so no test waits for a game timer.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager

import pytest
from textual.pilot import Pilot

from controller.config import Config
from controller.game import Press, Release
from controller.game.launch import CHIME_TIME, NO_CARDS, RESULT_TIME
from controller.game.lcd_glyphs import ARROW_LEFT, ARROW_RIGHT
from controller.settings import Settings
from controller.shell.renderer import OFFLINE_LINE, OFFLINE_TURN
from controller.simulation.table import TAP_TIME
from controller.tui.app import FRAME, TableApp
from controller.tui.fingers import BACK_HOLD, LONG_PRESS
from controller.tui.help import HelpScreen
from controller.tui.launcher_panel import hopper_text
from controller.tui.options_screen import OptionsScreen
from controller.tui.screen_text import screen_text

# Its tests take long in all: the file starts first (tests/conftest.py).
pytestmark = pytest.mark.long

Scenario = Callable[[TableApp, Pilot], Awaitable[None]]

FULL = 54  # cards in the simulated launcher's hopper at the start
FIRING_SEED = 4  # the classic profile fires on the first press of the launcher with it
# A launcher profile that fires every time, five cards.
FIVE_EVERY_HIT = {
    "launcher_profile": "custom",
    "custom_chance": 100,
    "custom_min": 5,
    "custom_max": 5,
}


@asynccontextmanager
async def running(
    seats: int = 6,
    size: tuple[int, int] = (80, 24),
    settings: dict | None = None,
    **options,
):
    options.setdefault("run_clock", False)
    config = Config(seats=seats, settings=Settings(settings or {}))
    app = TableApp(config, seed=options.pop("seed", 1), **options)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.table is not None, "the table did not start"
        yield app, pilot


def play(scenario: Scenario, **options) -> None:
    async def main() -> None:
        async with running(**options) as (app, pilot):
            await scenario(app, pilot)

    asyncio.run(main())


async def keys(app: TableApp, pilot: Pilot, *names: str, gap: float = 0.2) -> None:
    """Press keys one after another, `gap` game seconds apart, and let the screen catch up."""
    for name in names:
        await pilot.press(name)
        await pilot.pause()
        await app.advance(gap)
    await pilot.pause()


def screen(app: TableApp) -> str:
    return screen_text(app)


def lcd_rows(app: TableApp) -> list[str]:
    """The two LCD lines as they appear inside the display's frame on screen."""
    return [line for line in screen(app).splitlines() if "│ " in line and line.count("│") >= 2]


def seat_box(app: TableApp, seat: int) -> str:
    """The text inside a seat's box as drawn on screen, e.g. "<3>"."""
    region = app.query_one(f"#seat{seat}").region
    row = screen(app).splitlines()[region.y + 1]
    return row[region.x + 1 : region.x + region.width - 1].strip()


def log_lines(app: TableApp) -> list[str]:
    return app.log_view.plain


def log_text(app: TableApp) -> str:
    return "\n".join(log_lines(app))


def panel(app: TableApp) -> str:
    """The launcher panel as drawn on screen, its frame included."""
    region = app.query_one("#launcher_panel").region
    rows = screen(app).splitlines()[region.y : region.y + region.height]
    return "\n".join(row[region.x : region.right] for row in rows)


def lcd(app: TableApp) -> tuple[str, str]:
    return app.query_one("#lcd").lines


async def frames_until(app: TableApp, pilot: Pilot, done: Callable[[], bool], limit: float = 5.0):
    """Let game time pass a frame at a time until `done`; returns each frame's panel."""
    shown = []
    for _ in range(round(limit / FRAME)):
        if done():
            return shown
        await app.advance(FRAME)
        await pilot.pause()
        shown.append(panel(app))
    pytest.fail(f"not done after {limit} s of game time; the panel:\n{panel(app)}")


def visible_log(app: TableApp) -> str:
    region = app.log_view.region
    rows = screen(app).splitlines()[region.y : region.y + region.height]
    return "\n".join(rows)


def lit_seat(app: TableApp) -> int:
    """The seat the screen shows pulsing (its turn); there must be exactly one."""
    seats = [s for s in range(1, app.config.seats + 1) if seat_box(app, s).startswith("<")]
    assert len(seats) == 1, f"lit seats on screen: {seats}"
    return seats[0]


async def seat_and_start(app: TableApp, pilot: Pilot) -> int:
    await keys(app, pilot, "1", "3", "5", "p")
    return lit_seat(app)


def presses(app: TableApp, name: str) -> list[tuple[float, type]]:
    """The presses and releases of `name` the engine got: (edge time, Press or Release)."""
    assert app.table is not None
    return [
        (e.time, type(e))
        for _, e in app.table.daemon.game_log
        if isinstance(e, Press | Release) and e.input == name
    ]


# -- the round, step by step ---------------------------------------------------------------


def test_seating_three_players_lights_their_seats():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await keys(app, pilot, "1", "3", "5")
        assert [seat_box(app, s) for s in range(1, 7)] == ["(1)", "2", "(3)", "4", "(5)", "6"]
        assert app.query_one("#lcd").lines == ("Table   timer 6s", "Seats 1 3 5     ")
        text = screen(app)
        assert "Table   timer 6s" in text and "Seats 1 3 5" in text
        log = visible_log(app)
        for seat in (1, 3, 5):
            assert re.search(rf"seat_claimed +seat={seat}\b", log)
            assert f"> seat{seat}" in log

    play(scenario)


def test_start_pulses_the_first_players_light_and_shows_the_turn():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        seat = await seat_and_start(app, pilot)
        assert seat in (1, 3, 5)
        others = {1, 3, 5} - {seat}
        assert all(seat_box(app, s) == f"·{s}·" for s in others)
        assert seat_box(app, 2) == "2"
        text = screen(app)
        assert "Table   timer 6s" in text
        assert f"Seat {seat} turn   6s" in text
        log = visible_log(app)
        assert re.search(r"round_started +seats=\[1,3,5\] mode=table", log)
        assert re.search(rf"turn_started +seat={seat} limit=6.0", log)

    play(scenario)


def test_lit_player_ends_the_turn_with_their_own_key():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        first = await seat_and_start(app, pilot)
        await app.advance(1.0)
        await keys(app, pilot, str(first))
        log = "\n".join(log_lines(app))
        assert re.search(rf"turn_ended +seat={first} seconds=1\.2\b", log)
        second = lit_seat(app)
        assert re.search(rf"turn_started +seat={second} limit=6.0\n?$", log)
        assert f"Seat {second} turn   6s" in screen(app)

    play(scenario)


def test_a_key_of_a_player_who_is_not_lit_changes_nothing():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        seat = await seat_and_start(app, pilot)
        other = min({1, 3, 5} - {seat})
        await keys(app, pilot, str(other))
        assert lit_seat(app) == seat
        assert log_lines(app)[-1].endswith(f"> seat{other}")

    play(scenario)


def test_timeout_comes_in_scaled_real_time():
    real = [100.0]

    async def scenario(app: TableApp, pilot: Pilot) -> None:
        seat = await seat_and_start(app, pilot)
        real[0] += 4.0  # at half speed: 2 s of game time
        await app.frame()
        await pilot.pause()
        assert f"Seat {seat} turn   4s" in screen(app)
        real[0] += 8.5  # 4.25 s more: past the 6 s limit
        await app.frame()
        await pilot.pause()
        text = screen(app)
        assert f"Seat {seat} timeout!" in text
        assert "Draw 2 cards" in text
        assert seat_box(app, seat) == f"#{seat}#"
        assert re.search(rf"timeout +seat={seat} penalty=2", visible_log(app))
        assert "x0.5" in text
        real[0] += 6.0  # the notice holds the table 2.5 s, then the next player is picked
        await app.frame()
        await pilot.pause()
        assert re.search(r"Seat \d turn", screen(app))
        assert re.search(r"turn_started +seat=\d", log_lines(app)[-1])

    play(scenario, run_clock=True, time_scale=0.5, real_time=lambda: real[0])


def test_slap_race_shows_the_racers_and_names_the_slowest():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        slapper = await seat_and_start(app, pilot)
        await pilot.press("space")
        await pilot.pause()
        # The button is drawn held down (a heavy frame) until the tap's time has passed.
        assert app.query_one("#slap").has_class("-down")
        assert "┏" in screen(app)
        first, last = sorted({1, 3, 5} - {slapper})
        assert "SLAP!" in screen(app) and "Hit your button!" in screen(app)
        assert seat_box(app, first) == f"*{first}*" and seat_box(app, last) == f"*{last}*"
        await keys(app, pilot, str(first), gap=0.05)
        await keys(app, pilot, str(last), gap=0.15)
        assert seat_box(app, first) == f"({first})"
        assert not app.query_one("#slap").has_class("-down")
        await app.advance(3.0)  # the race window closes
        await pilot.pause()
        text = screen(app)
        assert f"Slowest: Seat {last}" in text and "Draw 2 cards" in text
        assert seat_box(app, last) == f"#{last}#"
        log = "\n".join(log_lines(app))
        assert "> slap\n" in log
        assert re.search(rf"slap_started +seat={slapper} .*racers=\[{first},{last}\]", log)
        assert re.search(rf"slap_result +slapper={slapper} .*slowest=\[{last}\]", log)

    play(scenario)


def test_launcher_key_is_a_hit_that_chimes_and_a_miss_says_so():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        seat = await seat_and_start(app, pilot)
        await pilot.press("l")
        await pilot.pause()
        assert app.query_one("#launcher").has_class("-down")
        assert "launcher · ♪ chime" in panel(app)
        await app.advance(CHIME_TIME)
        await pilot.pause()
        assert [kind for _, kind in presses(app, "launcher")] == [Press, Release]
        assert log_lines(app)[-2].endswith("> launcher")
        assert re.search(rf"hit +seat={seat} cards=0 drawn=0$", log_lines(app)[-1])
        # the cards (none) have landed: the timer goes on, and asks for the seat's button
        assert lcd(app)[0] == f"{NO_CARDS:<16}" and lcd(app)[1].startswith(f"Seat {seat} press")
        text = panel(app)
        assert "♪" not in text
        assert hopper_text(FULL) in text and re.search(r"out +0 ⊐", text)
        assert "motor ■ stopped" in text
        assert app.table.cards_out == 0 and app.table.cards_left == FULL
        await app.advance(RESULT_TIME)
        await pilot.pause()
        assert lcd(app)[0] == "Table   timer 6s"

    play(scenario)


def test_a_hit_that_fires_flies_the_cards_out_and_lowers_the_hopper():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        seat = await seat_and_start(app, pilot)
        await pilot.press("l")
        await pilot.pause()
        cards = app.table.events_of("hit")[-1].data["cards"]
        assert cards > 0, f"seed {FIRING_SEED} no longer fires on the first press"
        await app.advance(CHIME_TIME)
        await pilot.pause()
        assert lcd(app)[0].rstrip() == f"Launcher: {cards}!"
        assert re.search(rf"dispense +seat={seat} cards={cards} reason=hit", log_text(app))
        # Frame by frame, as the view draws it when it runs: each frame's counter is the beam's.
        frames = []
        for _ in range(round(1.5 / FRAME)):
            await app.advance(FRAME)
            await pilot.pause()
            frames.append(panel(app))
            assert re.search(rf"out +{app.table.cards_out} ⊐", frames[-1])
            assert hopper_text(app.table.cards_left) in frames[-1]
        assert app.table.cards_out == cards and app.table.cards_left == FULL - cards
        assert any("▭" in frame for frame in frames), "no card was drawn flying"
        assert any("motor ▶ running" in frame for frame in frames)
        assert any(f"launcher · {cards - 1} owed" in frame for frame in frames)
        text = panel(app)
        assert hopper_text(FULL - cards) in text and "▯" in text
        assert "▭" not in text and "motor ■ stopped" in text and "owed" not in text
        assert len(re.findall(rf"card_out +seat={seat} owed=\d", log_text(app))) == cards

    play(scenario, seed=FIRING_SEED)


def test_a_jam_mid_burst_waits_for_ok_then_sends_only_the_cards_owed():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        seat = await seat_and_start(app, pilot)
        await keys(app, pilot, "l", gap=CHIME_TIME)
        await frames_until(app, pilot, lambda: app.table.cards_out >= 2)
        await keys(app, pilot, "j", gap=1.0)  # longer than the jam time
        out = app.table.cards_out
        owed = 5 - out
        assert 0 < owed < 5
        assert lcd(app) == ("JAM: clear slot ", f"press OK  {owed} owed")
        text = panel(app)
        assert f"launcher · {owed} owed" in text and "motor ■ stopped · JAM" in text
        assert re.search(rf"out +{out} ⊐", text)
        assert seat_box(app, seat) == f"·{seat}·"  # the turn waits meanwhile
        log = log_text(app)
        assert "! launcher jammed" in log
        assert re.search(rf"launcher_fault +fault=jam owed={owed}\n.*paused +seat={seat}", log)
        assert "warning hardware.gpio_ejector: launcher stopped: jam" in log
        await app.advance(5.0)
        assert app.table.cards_out == out
        await keys(app, pilot, "enter", gap=1.0)
        lines = log_lines(app)
        cleared = lines.index("   ! slot cleared")
        assert lines[cleared + 1].endswith("> encoder.push")
        assert re.search(rf"launcher_resumed +owed={owed}", lines[cleared + 2])
        assert re.search(rf"resumed +seat={seat}", lines[cleared + 3])
        assert app.table.cards_out == 5 and not app.table.launcher.jammed
        # landed: the seat blinks for its button press
        assert seat_box(app, seat) == f"*{seat}*" and f"Seat {seat} press" in lcd(app)[1]
        text = panel(app)
        assert "owed" not in text and "motor ■ stopped ─" in text and re.search(r"out +5 ⊐", text)
        await app.advance(3.0)
        assert app.table.cards_out == 5

    play(scenario, settings=FIVE_EVERY_HIT)


def test_a_timeout_penalty_into_a_jammed_slot_is_dealt_out_after_ok():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        seat = await seat_and_start(app, pilot)
        await keys(app, pilot, "j")
        assert "motor ■ stopped · JAM" in panel(app)
        assert lcd(app)[0] == "Table   timer 6s"  # nothing owed: nothing to clear yet
        await app.advance(6.0 + 1.0)  # the turn times out, the launcher starts and stalls
        await pilot.pause()
        assert lcd(app) == ("JAM: clear slot ", "press OK  2 owed")
        assert app.table.cards_out == 0
        log = log_text(app)
        assert re.search(rf"timeout +seat={seat} penalty=2", log)
        assert re.search(rf"dispense +seat={seat} cards=2 reason=timeout", log)
        assert re.search(r"launcher_fault +fault=jam owed=2", log)
        await app.advance(5.0)  # the next turn is picked but waits, its time intact
        await pilot.pause()
        assert lcd(app)[0] == "JAM: clear slot "
        assert re.search(r"paused +seat=(\d) left=6.0$", log_lines(app)[-1])
        nxt = int(re.search(r"seat=(\d)", log_lines(app)[-1]).group(1))
        assert seat_box(app, nxt) == f"·{nxt}·"
        await pilot.click("#encoder_push")  # the mouse on OK frees the card too
        await app.advance(1.0)
        await pilot.pause()
        assert "   ! slot cleared" in log_lines(app)
        assert app.table.cards_out == 2 and app.table.cards_left == FULL - 2
        assert re.search(r"card_out +seat=\d owed=0", log_text(app))
        assert lit_seat(app) == nxt and lcd(app)[1] == f"Seat {nxt} turn   5s"

    play(scenario)


def test_an_empty_hopper_asks_for_a_refill_and_ok_finishes_the_cards_owed():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        seat = await seat_and_start(app, pilot)
        await keys(app, pilot, "e")
        assert hopper_text(0) in panel(app)
        assert log_lines(app)[-1] == f"   ! hopper emptied ({FULL} cards taken out)"
        assert f"Seat {seat} turn" in lcd(app)[1]  # nothing owed: nothing to refill yet
        await keys(app, pilot, "l", gap=CHIME_TIME + 0.5)
        assert lcd(app) == ("Refill cards    ", "press OK  5 owed")
        assert re.search(r"launcher_fault +fault=empty owed=5", log_text(app))
        assert "launcher · 5 owed" in panel(app) and app.table.cards_out == 0
        await keys(app, pilot, "r")
        assert log_lines(app)[-1] == f"   ! hopper refilled (+{FULL}, {FULL} in it)"
        assert hopper_text(FULL) in panel(app)
        assert lcd(app)[0] == "Refill cards    "  # it waits for OK
        await keys(app, pilot, "enter", gap=1.5)
        assert "slot cleared" not in log_text(app)
        assert re.search(r"launcher_resumed +owed=5", log_text(app))
        assert app.table.cards_out == 5
        assert hopper_text(FULL - 5) in panel(app)
        assert f"Seat {seat} press" in lcd(app)[1]

    play(scenario, settings=FIVE_EVERY_HIT)


def test_c_frees_the_slot_and_enter_frees_it_only_while_the_table_shows_the_jam():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await seat_and_start(app, pilot)
        await keys(app, pilot, "j", "enter")
        # Nothing owed, no jam shown: the push is the encoder's Play/Pause, as ever.
        assert lcd(app)[0] == "Paused          "
        assert app.table.launcher.jammed and "· JAM" in panel(app)
        await keys(app, pilot, "c")
        assert log_lines(app)[-1] == "   ! slot cleared"
        assert not app.table.launcher.jammed and "· JAM" not in panel(app)
        await keys(app, pilot, "c")
        assert log_lines(app)[-1] == "   ! slot was clear: no card stuck"

    play(scenario)


def test_extreme_mode_has_no_turns_and_the_seats_blink_while_the_launcher_chimes():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await keys(app, pilot, "1", "3", "p")
        assert lcd(app) == ("Extreme  classic", "Press launcher  ")
        assert [seat_box(app, s) for s in (1, 2, 3)] == ["(1)", "2", "(3)"]
        await keys(app, pilot, "l", gap=CHIME_TIME / 2)
        assert [seat_box(app, s) for s in (1, 2, 3)] == ["*1*", "2", "*3*"]
        assert "♪ chime" in panel(app)
        await app.advance(CHIME_TIME)
        await pilot.pause()
        assert re.fullmatch(r"Launcher: (miss|\d+!) *", lcd(app)[1])
        assert [seat_box(app, s) for s in (1, 3)] == ["(1)", "(3)"]
        assert re.search(r"hit +seat=null cards=\d+ drawn=\d+", log_text(app))

    play(scenario, settings={"mode": "extreme"})


def test_pause_dims_the_lights_and_freezes_the_timer():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        seat = await seat_and_start(app, pilot)
        await keys(app, pilot, "p")
        await app.advance(30)
        await pilot.pause()
        assert "Paused" in screen(app)
        assert seat_box(app, seat) == f"·{seat}·"
        await keys(app, pilot, "p")
        assert lit_seat(app) == seat
        assert re.search(rf"Seat {seat} turn   6s", screen(app))

    play(scenario)


# -- keys, mouse and help ------------------------------------------------------------------


def test_shift_with_a_digit_is_a_long_press():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await keys(app, pilot, "exclamation_mark", gap=LONG_PRESS + 0.5)
        (pressed, _), (released, _) = presses(app, "seat1")
        assert released - pressed == pytest.approx(LONG_PRESS)

    play(scenario)


def test_the_key_of_a_seat_the_table_lacks_says_so_and_presses_nothing():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await keys(app, pilot, "7", "ampersand")
        notes = [line for line in log_lines(app) if "no seat7" in line]
        assert notes == ["   ! no seat7: 6 seats here (--seats for up to 8)"] * 2
        assert "> seat" not in log_text(app)

    play(scenario)


def test_h_then_any_key_is_a_long_press():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await pilot.press("h")
        await pilot.pause()
        assert "HOLD armed" in screen(app)
        await keys(app, pilot, "2", gap=LONG_PRESS + 0.5)
        (pressed, _), (released, _) = presses(app, "seat2")
        assert released - pressed == pytest.approx(LONG_PRESS)
        assert "HOLD armed" not in screen(app)
        await keys(app, pilot, "4")
        (pressed, _), (released, _) = presses(app, "seat4")
        assert released - pressed == pytest.approx(TAP_TIME)

    play(scenario)


def test_a_key_pressed_again_while_its_button_is_down_presses_twice():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await pilot.press("2")
        await pilot.press("2")
        await app.advance(0.5)
        kinds = [kind for _, kind in presses(app, "seat2")]
        assert kinds == [Press, Release, Press, Release]
        assert "seat_released" in log_lines(app)[-1]

    play(scenario)


def test_encoder_keys_turn_the_menu_and_push_chooses():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await keys(app, pilot, "right_square_bracket")  # a turn opens the menu
        assert lcd(app)[0].rstrip() == "→Start"
        await keys(app, pilot, "right")
        assert (lcd(app)[0].rstrip(), lcd(app)[1].strip()) == ("→Mode", "table")
        await keys(app, pilot, "left_square_bracket")
        assert lcd(app)[0].rstrip() == "→Start"
        assert "pos +1" in screen(app)
        await keys(app, pilot, "2", "4")  # the seats still claim while the menu is up
        await keys(app, pilot, "enter")  # push: choose Start
        assert re.search(r"round_started +seats=\[2,4\]", log_text(app))
        assert re.search(r"Seat [24] turn", lcd(app)[1])
        assert presses(app, "encoder.push") == []  # the menu took that push, not the game
        await keys(app, pilot, "backspace", gap=BACK_HOLD + 0.5)
        (pressed, _), (released, _) = presses(app, "encoder.push")
        assert released - pressed == pytest.approx(BACK_HOLD)
        assert lcd(app)[0].rstrip() == "Paused"  # with the menu closed a push is Play/Pause

    play(scenario)


def test_a_backspace_repeated_while_the_push_is_held_holds_on_and_never_pauses_after():
    # A terminal repeats a key kept down: the repeats come while the hold is still on.
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await keys(app, pilot, "1", "2", "p")
        await keys(app, pilot, "right")  # the menu opens, the turn waits
        assert app.table.daemon.panel.is_open
        for _ in range(4):
            await pilot.press("backspace")
            await pilot.pause()
            await app.advance(0.3)
        await app.advance(BACK_HOLD + 1.0)
        await pilot.pause()
        assert not app.table.daemon.panel.is_open
        assert [e.type for e in app.table.events if e.type in ("paused", "resumed")][-1] == (
            "resumed"
        )
        # one hold: its press was the menu's, its release after the menu closed, no press more
        assert [kind for _, kind in presses(app, "encoder.push")] == [Release]
        assert re.search(r"Seat [12] turn", lcd(app)[1])

    play(scenario)


def test_mouse_click_on_a_seat_presses_its_button():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await pilot.click("#seat2")
        await app.advance(0.5)
        await pilot.click("#seat4")
        await app.advance(0.5)
        await pilot.pause()
        assert seat_box(app, 2) == "(2)" and seat_box(app, 4) == "(4)"
        await pilot.click("#play_pause")
        await app.advance(0.5)
        await pilot.pause()
        assert re.search(r"Seat [24] turn", screen(app))

    play(scenario)


def test_mouse_held_on_a_button_holds_it_down():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await pilot.mouse_down("#seat3")
        await app.advance(9.0)  # held this long while seating, a button is reported stuck
        await pilot.pause()
        assert app.query_one("#seat3").has_class("-down")
        assert "stuck: check it" in screen(app)
        await pilot.mouse_up("#seat3")
        await app.advance(0.5)
        (pressed, _), (released, _) = presses(app, "seat3")
        assert released - pressed >= 9.0
        assert "button_freed" in "\n".join(log_lines(app))

    play(scenario)


def test_mouse_turns_and_pushes_the_encoder():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await pilot.click("#knob_right")
        await pilot.click("#knob_right")
        await pilot.click("#knob_left")
        await app.advance(0.5)
        await pilot.pause()
        assert "pos +1" in screen(app)
        assert lcd(app)[0].rstrip() == "→Start"
        await pilot.click("#encoder_push")
        await app.advance(0.5)
        await pilot.pause()
        assert lcd(app) == ("Need 2+ players ", "Press to join   ")
        assert re.search(r"start_refused +seated=0", log_text(app))

    play(scenario)


def test_o_explains_every_option_scrolls_and_lets_the_tables_keys_through():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OptionsScreen)
        text = " ".join(screen(app).split())
        assert "Mode: What the table plays." in text
        await pilot.press("pagedown")
        await pilot.pause()
        assert "Volume: How loud the buzzer sounds." in " ".join(screen(app).split())
        await pilot.press("o")
        await pilot.pause()
        assert not isinstance(app.screen, OptionsScreen)
        await pilot.press("o", "2")
        await pilot.pause()
        assert not isinstance(app.screen, OptionsScreen)
        assert [kind for _, kind in presses(app, "seat2")] == [Press]

    play(scenario)


def test_question_mark_shows_the_key_map_and_the_light_legend():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen(app)
        for line in ("space        SLAP", "(3)  steady: seated", "<3>  pulsing: their turn"):
            assert line in text
        for mark in ("·3·", "*3*", "!3!", "#3#"):
            assert mark in text
        # How a round ends, how a seat is released, what each long press does, all on screen.
        for line in (
            "seat button    before a round: join; press again to leave",
            "hold it 2 s    hand empty: round over (finish = places: you are out)",
            "SLAP           played SLAP? press it; others race, the slowest draws",
            "hold it 0.6 s  not your turn: jump in (if Jump-In is on)",
            "Play/Pause     start, pause, resume; held down, still one press",
            "push held 1 s  in the menu: back; from its top, close it, play on",
        ):
            assert line in text, text
        lines = text.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        assert presses(app, "seat1") == []
        # a key of the table closes the help and plays: none is lost behind it
        await pilot.press("question_mark")
        await pilot.press("1")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        assert [kind for _, kind in presses(app, "seat1")] == [Press]

    play(scenario)


def test_q_quits_with_status_zero():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0

    play(scenario)


def test_with_the_firmware_in_the_loop_the_keys_and_faults_play_as_on_gpio():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        assert app.table is not None and app.table.firmware_port is not None
        await seat_and_start(app, pilot)
        await keys(app, pilot, "e", "l", gap=CHIME_TIME + 0.5)
        assert lcd(app) == ("Refill cards    ", "press OK  5 owed")
        await keys(app, pilot, "r")
        await keys(app, pilot, "enter", gap=1.5)
        assert app.table.cards_out == 5 and hopper_text(FULL - 5) in panel(app)
        assert "launcher firmware" not in screen(app)  # its log is the table's, kept quiet
        app.table.firmware_port.firmware.close()  # the controller falls silent
        await app.advance(1.5 + 5.0)  # the link is lost, its notice shown and gone
        seen = set()
        for _ in range(round(2 * OFFLINE_TURN / 0.25) + 1):
            await app.advance(0.25)
            await pilot.pause()
            seen.add(lcd_rows(app)[0])
        assert any(OFFLINE_LINE in row for row in seen), seen

    play(scenario, settings=FIVE_EVERY_HIT, firmware=True)


# -- what the view takes care of -----------------------------------------------------------


def test_daemon_warnings_go_to_the_event_log_not_the_terminal(capsys):
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        import logging

        logging.getLogger("controller.shell.daemon").warning("beam blocked at start")
        await app.advance(0.1)
        assert log_lines(app)[-1].endswith("warning controller.shell.daemon: beam blocked at start")

    play(scenario)
    out = capsys.readouterr()
    assert "beam blocked" not in out.out + out.err


def test_lcd_draws_the_displays_custom_characters():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        # The menu's arrows, written through the real driver into the LCD model.
        app.table.display.show((ARROW_RIGHT + " Start " + ARROW_LEFT, ARROW_LEFT + "  6 s  "))
        await app.advance(0.1)
        await pilot.pause()
        assert app.query_one("#lcd").lines == ("→ Start ←       ", "←  6 s          ")
        assert "│ → Start ←        │" in screen(app)

    play(scenario)


def test_seats_option_draws_that_many_seats():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        assert [b.id for b in app.query(".seat")] == ["seat1", "seat2", "seat3", "seat4"]
        await keys(app, pilot, "5")
        assert presses(app, "seat5") == []

    play(scenario, seats=4)


def fits(app: TableApp, size: tuple[int, int]) -> None:
    width, height = size
    table = app.query_one("#tabletop").region
    boxes = [app.query_one(f"#seat{s}").region for s in range(1, app.seats + 1)]
    boxes += [app.query_one("#slap").region, app.query_one("#play_pause").region]
    for box in boxes:
        assert table.contains_region(box), box
    for i, box in enumerate(boxes):
        for other in boxes[i + 1 :]:
            assert not box.overlaps(other), (box, other)
    for name in ("#lcd", "#launcher_panel", "#log", "#hints", "#top"):
        region = app.query_one(name).region
        assert region.right <= width and region.bottom <= height, (name, region)
        assert region.width > 0 and region.height > 0, name
    assert screen(app).splitlines()[height - 1].rstrip().endswith("q quit")


def test_the_view_fits_80x24_with_every_seat_count():
    async def main() -> None:
        for seats in range(2, 9):
            async with running(seats=seats) as (app, _):
                fits(app, (80, 24))
                assert app.log_view.region.height >= 5

    asyncio.run(main())


def test_the_view_grows_with_a_larger_terminal():
    async def main() -> None:
        async with running(seats=8, size=(132, 43)) as (app, _):
            fits(app, (132, 43))
            assert app.query_one("#tabletop").region.width > 90
            assert app.log_view.region.height >= 10

    asyncio.run(main())


def test_no_seat_touches_the_side_panels_at_any_width():
    async def main() -> None:
        for size in ((80, 24), (100, 24), (100, 30), (132, 43)):
            for seats in (6, 8):
                async with running(seats=seats, size=size) as (app, _):
                    fits(app, size)
                    side = app.query_one("#side").region
                    for seat in range(1, seats + 1):
                        box = app.query_one(f"#seat{seat}").region
                        assert box.right < side.x, (size, seats, seat, box, side)

    asyncio.run(main())


def test_a_long_event_line_wraps_under_its_data_instead_of_being_cut():
    from controller.shell.publish import GameEvent
    from controller.tui.eventlog import DATA_COLUMN, Entry, event_line

    async def scenario(app: TableApp, pilot: Pilot) -> None:
        order = [{"seat": s, "ms": 200 + s, "tie": False} for s in (2, 3, 4)]
        data = {"slapper": 1, "order": order, "slowest": [4], "tie": False, "penalty": 2}
        line = event_line(7.5, GameEvent(9, "slap_result", data))
        assert len(line) > 80
        app.log_view.add(Entry(7.5, line))
        await app.advance(0.1)
        await pilot.pause()
        rows = screen(app).splitlines()
        [first] = [n for n, row in enumerate(rows) if "slap_result" in row]
        more = []
        for row in rows[first + 1 :]:
            if row[:DATA_COLUMN].strip():  # the hints bar, or the log's frame
                break
            more.append(row[DATA_COLUMN:])  # going on under the data
        assert more
        shown = rows[first] + "".join(more)
        assert "slowest=[4]" in shown and "penalty=2" in shown

    play(scenario, size=(80, 40))


@pytest.mark.parametrize("columns", [80, 120])
def test_a_long_event_line_breaks_only_between_its_values(columns):
    from controller.shell.publish import GameEvent
    from controller.tui.eventlog import DATA_COLUMN, Entry, event_line

    stats = {"turns": 12, "timeouts": 1, "slaps_lost": 0, "launcher_cards": 7, "average_turn": 3.4}
    seats = [{"seat": seat, **stats} for seat in (1, 3, 5)]
    line = event_line(93.25, GameEvent(40, "round_over", {"winner": 3, "seats": seats}))
    data = line[DATA_COLUMN:]

    async def scenario(app: TableApp, pilot: Pilot) -> None:
        app.log_view.add(Entry(93.25, line))
        await app.advance(0.1)
        await pilot.pause()
        region = app.log_view.region
        rows = screen(app).splitlines()[region.y : region.bottom]
        [first] = [n for n, row in enumerate(rows) if "round_over" in row]
        assert rows[first][:DATA_COLUMN] == line[:DATA_COLUMN]
        shown = [rows[first][DATA_COLUMN : region.right - 1].rstrip()]
        for row in rows[first + 1 :]:
            if row[region.x : DATA_COLUMN].strip() or not row.strip():
                break
            shown.append(row[DATA_COLUMN : region.right - 1].rstrip())
        assert len(shown) > 1
        # Row by row the data as it is, each break after a comma or at a space, and only
        # where the next value would not fit in the log's width.
        width = app.log_view.scrollable_content_region.width - DATA_COLUMN
        at = 0
        for row in shown:
            assert data.startswith(row, at), (row, data[at:])
            at += len(row)
            if at < len(data):
                assert data[at - 1] == "," or data[at] == " ", (row, data[at - 1 : at + 1])
                at += data[at] == " "
                following = re.match(r"[^ ,]*,?", data[at:]).group()
                assert len(row) + (data[at - 1] == " ") + len(following) > width, row
        assert at == len(data)

    play(scenario, size=(columns, 40))


def test_a_setting_changed_in_the_menu_is_in_the_log():
    async def scenario(app: TableApp, pilot: Pilot) -> None:
        await keys(app, pilot, "right", "right", "right", "enter", "right")
        assert app.table is not None and app.table.daemon.table.settings.turn_timer == 7
        assert re.search(r'settings_changed +changes=\{"turn_timer":7\}', log_text(app))

    play(scenario)


def test_a_terminal_too_small_for_the_table_says_so_instead_of_cropping_it():
    async def main() -> None:
        async with running(size=(60, 18)) as (app, pilot):
            text = screen(app)
            words = " ".join(text.split())
            assert "The table needs a terminal of 80x24 or more; this one is 60x18." in words
            assert "<" not in text and "SLAP" not in text  # no part of the table
            await app.advance(1.0)  # it plays on meanwhile
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            fits(app, (80, 24))
            assert "needs a terminal" not in screen(app)

    asyncio.run(main())


def test_a_restarted_table_says_in_its_log_which_game_it_resumed(tmp_path):
    async def main() -> None:
        async with running(state_dir=tmp_path) as (app, pilot):
            for seat in ("seat1", "seat2", "play_pause"):
                await app.table.tap(seat)
            [lit] = app.table.lit()
            await app.table.hold(f"seat{lit}", 2.5)
            assert app.table.daemon.table.phase.value == "round_over"
        # As the first table left it: the second writes the file again as it runs, perhaps
        # in the next minute.
        saved = time.localtime((tmp_path / "game.json").stat().st_mtime)
        async with running(state_dir=tmp_path) as (app, pilot):
            app.refresh_view()
            await pilot.pause()
            words = " ".join(screen(app).split())
            when = time.strftime("%d %b %H:%M", saved)
            assert f"resumed the game kept in {tmp_path}, saved {when} (round over)" in words

    asyncio.run(main())
