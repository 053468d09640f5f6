"""The LCD menu, driven with the encoder alone on the simulated table (SPEC §3)."""

import asyncio
import logging
import math

import pytest

from controller.catalogs import lcd_translation
from controller.config import Config
from controller.game.holds import WIN_HOLD
from controller.game.lcd_glyphs import readable
from controller.requests import ChangeSettings, NameSeat, RereadSettings
from controller.settings import Settings
from controller.shell.panel import HOLD_BACK, IDLE_CLOSE, info_lines
from controller.simulation.table import SimTable
from hardware.debounce import Change

TOP = [
    "Start",
    "Mode",
    "Turn timer",
    "Surprise min",
    "Surprise max",
    "Handicaps",
    "Timeout penalty",
    "Slap window",
    "Slap penalty",
    "Turn picker",
    "Jump-In",
    "Finish",
    "Score to win",
    "Standings",
    "Launcher",
    "Custom launcher",
    "Hit ends turn",
    "Burst cap",
    "Jam time",
    "Quick dispense",
    "Volume",
    "Brightness",
    "Language",
    "Sleep time",
    "Hardware test",
    "Info",
    "Reset settings",
]


def lcd(table: SimTable) -> tuple[str, str]:
    first, second = (readable(line).strip() for line in table.lcd)
    return first, second


def label(table: SimTable) -> str:
    return lcd(table)[0].removeprefix("→")


async def push(table: SimTable) -> None:
    await table.tap("encoder.push")


async def back(table: SimTable) -> None:
    await table.hold("encoder.push", 1.2)


async def goto(table: SimTable, wanted: str) -> None:
    """Turn the encoder until the menu's first line shows `wanted` (opening it if needed)."""
    if not table.daemon.panel.is_open:
        await table.turn(1)
    for _ in range(60):
        if label(table) == wanted:
            return
        await table.turn(1)
    raise AssertionError(f"{wanted!r} is not in this menu")


async def seat_and_start(table: SimTable, *seats: int) -> None:
    for seat in seats:
        await table.tap(f"seat{seat}")
    await table.tap("play_pause")


@pytest.fixture
def config() -> Config:
    return Config(settings=Settings({"turn_timer": 4, "sleep_time": "off"}))


async def test_a_turn_opens_the_menu_and_every_top_entry_is_there_in_order(config):
    async with SimTable(config) as table:
        await table.turn(1)
        assert lcd(table) == ("→Start", "need 2+ players")  # nobody is seated yet
        seen = []
        for _ in TOP:
            seen.append(label(table))
            await table.turn(1)
        assert seen == TOP
        assert label(table) == "Start"  # the list goes round
        await table.turn(-1)
        assert label(table) == "Reset settings"


async def second_lines(table: SimTable) -> dict[str, str]:
    """Each entry's second line, for the list showing and for each submenu in it."""
    shown: dict[str, str] = {}
    while (entry := label(table)) not in shown:
        shown[entry] = lcd(table)[1]
        assert len(table.lcd[1]) == 16
        if shown[entry] == "push to open":
            await push(table)
            below = await second_lines(table)
            shown.update({f"{entry}/{child}": line for child, line in below.items()})
            await back(table)
        await table.turn(1)
    return shown


async def test_every_entry_of_the_menu_says_something_on_its_second_line(config):
    """A setting its value, a submenu "push to open", an action what a push does."""
    async with SimTable(config, seed=2) as table:
        await table.tap("seat1")
        await table.turn(1)
        assert lcd(table) == ("→Start", "need 2+ players")
        await table.tap("seat2")
        seating = await second_lines(table)
        assert seating["Start"] == "push to start"
        assert seating["Turn timer"] == "4 s" and seating["Mode"] == "table"
        assert seating["Quick dispense/2 cards"] == "push to deal"
        assert seating["Hardware test/Buzzer"] == "push to beep"
        assert seating["Hardware test/Beam sensor"] == "push to start"
        assert seating["Reset settings"] == "to the defaults"
        await goto(table, "Start")
        await push(table)
        await table.turn(1)  # the menu opens over the turn, and pauses it
        paused = await second_lines(table)
        assert paused["Resume"] == "push to resume"
        assert paused["New round"] == "same seats"
        assert paused["Change seats"] == "players rejoin"
        for screens in (seating, paused):
            assert [entry for entry, line in screens.items() if not line] == []


async def test_the_turn_timer_set_to_6s_shows_and_times_the_next_turn(config):
    async with SimTable(config, seed=3) as table:
        await goto(table, "Turn timer")
        assert lcd(table)[1] == "4 s"
        await push(table)
        assert lcd(table)[1] == "←     4 s      →"
        await table.turn(2)
        assert lcd(table)[1] == "←     6 s      →"
        assert table.daemon.table.settings.turn_timer == 6  # at once, while turning
        await push(table)
        assert lcd(table) == ("→Turn timer", "6 s")
        await back(table)
        assert not table.daemon.panel.is_open
        assert lcd(table) == ("Table   timer 6s", "Press to join")  # the new setting shows

        await seat_and_start(table, 1, 2)
        assert lcd(table)[0] == "Table   timer 6s"
        [lit] = table.lit()
        assert lcd(table)[1] == f"Seat {lit} turn   6s"
        await table.advance(5.8)
        assert table.events_of("timeout") == []
        await table.advance(0.1)
        assert table.events_of("timeout")[0].data["seat"] == lit


async def test_the_launcher_profile_changes_from_the_menu(config):
    async with SimTable(config) as table:
        await goto(table, "Launcher")
        assert lcd(table)[1] == "classic"
        await push(table)
        await table.turn(2)
        assert lcd(table)[1] == "←     wild     →"
        await push(table)
        assert table.daemon.table.settings.launcher_profile == "wild"
        await table.turn(1)
        assert label(table) == "Custom launcher"
        await push(table)
        assert label(table) == "Custom chance"
        await push(table)
        await table.turn(-3)
        await back(table)  # a hold leaves the value as it is now
        assert table.daemon.table.settings.custom_chance == 30
        await table.turn(1)
        assert label(table) == "Custom min"
        await table.turn(1)
        assert lcd(table) == ("→Custom max", "8 cards")
        await back(table)
        assert label(table) == "Custom launcher"


async def test_values_stop_at_the_ends_of_their_range(config):
    async with SimTable(config) as table:
        await goto(table, "Timeout penalty")
        await push(table)
        await table.turn(10)
        assert table.daemon.table.settings.timeout_penalty == 4
        assert lcd(table)[1] == "←   4 cards"  # no arrow where a turn does nothing
        await table.turn(-10)
        assert table.daemon.table.settings.timeout_penalty == 0
        assert lcd(table)[1] == "0 cards    →"  # stripped: the arrow on the left is gone
        await table.turn(1)
        assert lcd(table)[1] == "←    1 card    →"


@pytest.mark.parametrize(
    ("entry", "key", "steps", "shown", "value"),
    [
        ("Mode", "mode", -1, "extreme", "extreme"),
        ("Surprise min", "surprise_min", 2, "5 s", 5),
        ("Surprise max", "surprise_max", 1, "9 s", 9),
        ("Slap window", "slap_window", 1, "4 s", 4),
        ("Slap penalty", "slap_penalty", 1, "3 cards", 3),
        ("Turn picker", "picker", 1, "fair", "fair"),
        ("Jump-In", "jump_in", 1, "on", "on"),
        ("Finish", "finish", 1, "places", "places"),
        ("Burst cap", "burst_cap", -2, "10 cards", 10),
        ("Jam time", "jam_time", 2, "1000 ms", 1000),
        ("Volume", "volume", -1, "low", "low"),
        ("Brightness", "brightness", -5, "50 %", 50),
        ("Sleep time", "sleep_time", 5, "5 min", 5),
    ],
)
async def test_every_setting_changes_from_the_menu(config, entry, key, steps, shown, value):
    async with SimTable(config) as table:
        await goto(table, entry)
        await push(table)
        await table.turn(steps)
        await push(table)
        assert lcd(table)[1] == shown
        assert table.daemon.table.settings[key] == value


async def test_turning_a_bound_past_the_other_moves_it_along_in_one_change_naming_both(config):
    async with SimTable(config) as table:
        await goto(table, "Surprise min")
        await push(table)
        await table.turn(7)  # 3 s up to 10 s, past the 8 s of Surprise max
        settings = table.daemon.table.settings
        assert (settings.surprise_min, settings.surprise_max) == (10, 10)
        changes = [e.data["changes"] for e in table.events_of("settings_changed")]
        assert changes[-2:] == [
            {"surprise_min": 9, "surprise_max": 9},
            {"surprise_min": 10, "surprise_max": 10},
        ]


async def test_volume_and_brightness_reach_the_buzzer_and_the_lights(config):
    async with SimTable(config) as table:
        await goto(table, "Brightness")
        await push(table)
        await table.turn(-5)
        await back(table)
        await goto(table, "Volume")
        await push(table)
        await table.turn(-2)
        await back(table)
        await back(table)
        board = table.daemon.board
        assert board.buzzer.volume == "off"
        await table.tap("seat1")
        assert board.lights[1].pin.state == pytest.approx(0.5)


async def test_seat_handicaps_follow_the_seats_fitted():
    config = Config(seats=3, settings=Settings({"sleep_time": "off"}))
    async with SimTable(config) as table:
        await goto(table, "Handicaps")
        assert lcd(table)[1] == "push to open"
        await push(table)
        labels = []
        for _ in range(3):
            labels.append(label(table))
            await table.turn(1)
        assert labels == ["Seat 1 handicap", "Seat 2 handicap", "Seat 3 handicap"]
        assert label(table) == "Seat 1 handicap"
        await push(table)
        await table.turn(3)
        await push(table)
        assert table.daemon.table.settings.handicap_seat1 == 3


async def test_start_pause_resume_new_round_and_change_seats_from_the_menu(config):
    async with SimTable(config, seed=2) as table:
        await table.tap("seat1")
        await table.tap("seat2")
        await goto(table, "Start")
        await push(table)
        assert not table.daemon.panel.is_open
        assert len(table.lit()) == 1
        # The menu closed first: the first turn runs at once, never paused under it.
        assert [e.type for e in table.events][-2:] == ["round_started", "turn_started"]
        await goto(table, "Resume")  # the menu paused the turn as it opened
        await push(table)
        assert not table.daemon.panel.is_open
        assert len(table.lit()) == 1
        await table.tap("play_pause")
        await table.advance(0.5)
        assert lcd(table)[0] == "Paused"
        await goto(table, "Resume")
        await push(table)
        assert len(table.lit()) == 1
        await goto(table, "New round")
        await push(table)
        await push(table)  # yes: the round ends with its summary
        assert table.events_of("round_over")[-1].data["winner"] is None
        await goto(table, "New round")  # after the summary it starts at once
        await push(table)
        assert len(table.events_of("round_started")) == 2
        await goto(table, "Change seats")
        await push(table)
        await push(table)
        assert lcd(table) == ("Table   timer 4s", "Seats 1 2")
        await table.tap("seat3")
        assert lcd(table)[1] == "Seats 1 2 3"


async def test_card_points_are_entered_a_hand_at_a_time_a_digit_at_a_time(config):
    async with SimTable(config, seed=2) as table:
        await seat_and_start(table, 1, 2, 3)
        [winner] = table.lit()
        a, b = (seat for seat in (1, 2, 3) if seat != winner)
        table.daemon.handle(NameSeat(a, "Anna"))
        await table.hold(f"seat{winner}", WIN_HOLD + 0.1)  # out: the round is won
        await table.turn(1)
        assert lcd(table) == ("→Card points", "push to open")  # what the round waits for
        await push(table)
        assert lcd(table) == ("→Anna", "push to enter")
        await push(table)
        assert lcd(table) == ("→Anna", "[0]00  push=next")
        await table.turn(-1)  # a digit goes round: 0 back to 9
        await push(table)
        await table.turn(2)
        await push(table)
        await table.turn(5)
        assert lcd(table) == ("→Anna", "92[5] push=enter")
        await push(table)
        assert lcd(table) == ("→Anna", "925 points")
        assert table.daemon.table.score.open.points == {a: 925}
        await push(table)  # a correction starts from what was entered
        assert lcd(table)[1] == "[9]25  push=next"
        await table.turn(1)
        await push(table)
        await push(table)
        await push(table)
        assert table.daemon.table.score.open.points == {a: 25}
        await table.turn(1)
        assert lcd(table) == (f"→Seat {b}", "push to enter")
        await push(table)
        await table.turn(4)
        await back(table)  # held: nothing entered
        assert lcd(table) == (f"→Seat {b}", "push to enter")
        assert table.daemon.table.score.open.points == {a: 25}
        assert [e.data["total"] for e in table.events_of("points_entered")] == [925, 25]


async def test_opening_the_menu_pauses_the_turn_and_closing_it_resumes_with_the_time_left(
    config,
):
    async with SimTable(config, seed=2) as table:
        await seat_and_start(table, 1, 2)
        [lit] = table.lit()
        await table.advance(1.0)  # 1.12 s of the 4 s turn gone
        await table.turn(1)
        assert table.events_of("paused")[-1].data["seat"] == lit
        left = table.events_of("paused")[-1].data["left"]
        assert left == pytest.approx(4.0 - 1.12, abs=0.01)
        assert label(table) == "Resume"
        await goto(table, "Turn timer")
        await push(table)
        await table.advance(20.0)  # the operator takes their time: nobody times out
        await push(table)
        assert table.events_of("timeout") == []
        assert table.cards_out == 0
        assert table.lit() == []
        await back(table)  # closed: the same turn goes on with the time it had
        assert not table.daemon.panel.is_open
        assert table.events_of("resumed")[-1].data == {"seat": lit, "left": left}
        assert table.lit() == [lit]
        # The turn went on from the moment the hold went back, 0.2 s before its release.
        await table.advance(left - (1.2 - HOLD_BACK) - 0.01)
        assert table.events_of("timeout") == []
        await table.advance(0.02)
        assert table.events_of("timeout")[-1].data["seat"] == lit


async def test_a_turn_that_comes_up_while_the_menu_is_open_waits_for_it_to_close(config):
    async with SimTable(config, seed=3) as table:
        await seat_and_start(table, 1, 2)
        await table.advance(4.1)  # a timeout: its screen shows, then the next pick comes
        await table.turn(1)
        await table.advance(10.0)
        assert len(table.events_of("timeout")) == 1
        [nxt] = [e.data["seat"] for e in table.events_of("turn_started")[1:]]
        assert table.events_of("paused")[-1].data == {"seat": nxt, "left": 4.0}
        await back(table)
        assert table.lit() == [nxt]
        assert table.events_of("resumed")[-1].data == {"seat": nxt, "left": 4.0}


async def test_a_pause_from_play_pause_stays_when_the_menu_closes(config):
    async with SimTable(config, seed=2) as table:
        await seat_and_start(table, 1, 2)
        await table.tap("play_pause")
        await table.turn(1)
        await back(table)
        assert lcd(table)[0] == "Paused"
        assert table.events_of("resumed") == []


async def test_new_round_asks_first_and_shows_the_summary_of_the_round_it_ends(config):
    async with SimTable(config, seed=2) as table:
        await seat_and_start(table, 1, 2)
        [lit] = table.lit()
        await table.tap(f"seat{lit}")  # one turn played
        await goto(table, "New round")
        await push(table)
        assert lcd(table) == ("End the round?", "push=yes hold=no")
        await back(table)  # no: the round goes on
        assert table.events_of("round_over") == []
        assert label(table) == "New round"
        await push(table)
        await push(table)
        assert not table.daemon.panel.is_open
        [over] = table.events_of("round_over")
        assert over.data["winner"] is None
        assert {s["seat"]: s["turns"] for s in over.data["seats"]} == {lit: 1, 3 - lit: 0}
        assert lcd(table) == ("Round ended", "no winner")
        await table.advance(3.0)  # the summary's next screen: seat 1's turns
        assert lcd(table)[0] == "Seat 1" + ("1 turn" if lit == 1 else "0 turns").rjust(10)
        assert len(table.events_of("round_started")) == 1
        await table.tap("play_pause")  # the next round, the same seats
        assert len(table.events_of("round_started")) == 2


async def test_quick_dispense_deals_exact_cards(config):
    async with SimTable(config) as table:
        await goto(table, "Quick dispense")
        await push(table)
        for wanted in ("1 card", "2 cards", "4 cards", "6 cards"):
            assert label(table) == wanted
            await table.turn(1)
        await table.turn(1)  # round to "2 cards"
        await push(table)
        await table.advance(2.0)
        assert table.cards_out == 2
        assert table.events_of("dispense")[0].data == {"seat": None, "cards": 2, "reason": "quick"}


async def test_hardware_test_lights_buttons_buzzer_eject_and_beam(config):
    async with SimTable(config) as table:
        await goto(table, "Hardware test")
        await push(table)
        assert label(table) == "Lights"
        await push(table)
        assert lcd(table) == ("Test: lights", "Seat 1 lit, turn")
        assert [s for s, p in table.lights.items() if p == "on"] == [1]
        await table.turn(1)
        assert [s for s, p in table.lights.items() if p == "on"] == [2]
        last = table.daemon.table.stations
        await table.turn(last - 2)
        assert [s for s, p in table.lights.items() if p == "on"] == [last]
        await push(table)
        assert set(table.lights.values()) == {"off"}

        await table.turn(1)
        assert label(table) == "Buttons"
        await push(table)
        assert lcd(table) == ("Test: buttons", "press any")
        await table.tap("slap")
        assert lcd(table) == ("Test: buttons", "slap")
        await table.tap("seat4")
        assert lcd(table)[1] == "seat4"
        assert table.events_of("seat_claimed") == []  # the game never saw it
        await push(table)

        await table.turn(1)
        assert label(table) == "Buzzer"
        await push(table)
        assert table.daemon.board.buzzer.playing == "start"

        await table.turn(1)
        assert label(table) == "Eject 1 card"
        await push(table)
        await table.advance(1.0)
        assert table.cards_out == 1
        assert table.events_of("dispense")[-1].data == {"seat": None, "cards": 1, "reason": "test"}

        await table.turn(1)
        assert label(table) == "Beam sensor"
        await push(table)
        assert lcd(table) == ("Test: beam", "clear")
        table.jam()
        await table.tap("launcher")  # not a hit: the test has the table's attention
        await push(table)
        await back(table)
        assert label(table) == "Hardware test"


async def test_the_beam_test_follows_the_beam_as_it_changes(config):
    async with SimTable(config) as table:
        await goto(table, "Hardware test")
        await push(table)
        await goto(table, "Beam sensor")
        await push(table)
        assert lcd(table) == ("Test: beam", "clear")
        beam = table.daemon.board.beam
        assert beam is not None
        for drive, shown in ((beam.pin.drive_high, "BLOCKED"), (beam.pin.drive_low, "clear")):
            drive()  # a hand in the slot, and out again: nothing else happens meanwhile
            await table.settle()
            assert lcd(table) == ("Test: beam", shown)


async def test_the_button_test_starts_each_time_with_no_button_shown(config):
    async with SimTable(config) as table:
        await goto(table, "Hardware test")
        await push(table)
        await goto(table, "Buttons")
        for leave in (push, back, push):  # the test ends on a push or a hold
            await push(table)
            assert lcd(table) == ("Test: buttons", "press any")
            await table.tap("slap")
            await table.turn(1)  # the knob is no button: the readout stays
            assert lcd(table) == ("Test: buttons", "slap")
            await leave(table)
            assert label(table) == "Buttons"


async def test_a_change_the_table_refuses_from_the_menu_is_logged_and_the_menu_goes_on(
    config, monkeypatch, caplog
):
    async with SimTable(config) as table:
        handle = table.daemon.handle

        def refusing(request, **how):
            if isinstance(request, ChangeSettings):
                raise ValueError("turn_timer refused here")
            return handle(request, **how)

        monkeypatch.setattr(table.daemon, "handle", refusing)
        await goto(table, "Turn timer")
        await push(table)
        await table.turn(1)
        await push(table)
        assert table.daemon.panel.is_open
        assert table.daemon.table.settings.turn_timer == 4
        said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert said == ["menu request refused: turn_timer refused here"]


async def test_info_shows_version_ip_mqtt_cards_and_jams(config):
    async with SimTable(config) as table:
        await goto(table, "Info")
        await push(table)
        screens = {}
        for _ in range(8):
            first, second = lcd(table)
            screens.setdefault(first, second)
            await table.turn(1)
        assert screens["Version"] == "0.1.0"
        assert "IP address" in screens
        assert screens["MQTT"] == "not set up"
        assert screens["Cards dispensed"] == "0"
        assert screens["Jams"] == "0"


@pytest.mark.parametrize(
    ("language", "addresses", "expected"),
    [
        (
            "en",
            ["192.168.1.20", "10.0.0.2"],
            [("IP address", "192.168.1.20"), ("IP address 2", "10.0.0.2"), ("MQTT", "connected")],
        ),
        ("en", [], [("IP address", "no network"), ("MQTT", "connected")]),
        ("de", [], [("IP-Adresse", "kein Netz"), ("MQTT", "verbunden")]),
        (
            "de",
            ["192.168.1.20", "10.0.0.2"],
            [("IP-Adresse", "192.168.1.20"), ("IP-Adresse 2", "10.0.0.2"), ("MQTT", "verbunden")],
        ),
    ],
)
def test_the_info_screens_name_every_address_or_none_in_the_tables_language(
    language, addresses, expected
):
    t = lcd_translation(language)
    lines = info_lines(t, mqtt="connected", cards_out=3, jams=1, ip=lambda: addresses)
    assert lines[1:-2] == tuple(expected)


async def test_reset_settings_asks_first(config):
    async with SimTable(config) as table:
        await goto(table, "Turn timer")
        await push(table)
        await table.turn(5)
        await push(table)
        await goto(table, "Reset settings")
        await push(table)
        assert lcd(table) == ("Reset settings?", "push=yes hold=no")
        await back(table)
        assert table.daemon.table.settings.turn_timer == 9
        await push(table)
        await push(table)
        assert table.daemon.table.settings.turn_timer == 4  # the config's value


async def test_the_menu_closes_by_itself_when_left_alone(config, caplog):
    caplog.set_level(logging.INFO, logger="controller.shell.panel")
    async with SimTable(config) as table:
        await table.turn(1)
        await table.advance(IDLE_CLOSE - 1)
        assert table.daemon.panel.is_open
        await table.advance(1.5)
        assert not table.daemon.panel.is_open
        assert lcd(table) == ("Table   timer 4s", "Press to join")
    said = [r.getMessage() for r in caplog.records]
    assert said == ["menu opened", "menu closed after 30 s untouched"]


async def test_a_menu_that_cannot_draw_itself_is_closed_and_logged_and_play_goes_on(
    config, caplog, monkeypatch
):
    async with SimTable(config) as table:
        panel = table.daemon.panel
        lines = panel.lines

        def broken() -> tuple[str, str] | None:
            if panel.is_open:
                raise IndexError("a page that is not there")
            return lines()

        await table.turn(1)
        monkeypatch.setattr(panel, "lines", broken)
        await table.turn(1)
        assert not panel.is_open
        assert lcd(table) == ("Table   timer 4s", "Press to join")
        await seat_and_start(table, 1, 2)
        assert len(table.lit()) == 1
    [failed] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert failed.getMessage() == "the menu failed to draw; closed"
    assert failed.exc_info is not None and failed.exc_info[0] is IndexError


async def test_a_launcher_jam_takes_the_lcd_from_the_menu(config):
    async with SimTable(config) as table:
        table.jam()
        await goto(table, "Quick dispense")
        await push(table)
        await table.turn(1)
        await push(table)  # 2 cards, into a jammed slot
        await table.advance(2.0)
        assert not table.daemon.panel.is_open
        assert lcd(table) == ("JAM: clear slot", "press OK  2 owed")
        await table.turn(1)  # the encoder is for OK now, not the menu
        assert not table.daemon.panel.is_open
        table.clear_jam()
        await push(table)
        await table.advance(2.0)
        assert table.cards_out == 2


async def test_a_change_from_the_menu_survives_a_restart(config, tmp_path):
    async with SimTable(config, state_dir=tmp_path) as table:
        await goto(table, "Turn timer")
        await push(table)
        await table.turn(3)
        await push(table)
    async with SimTable(config, state_dir=tmp_path) as table:
        assert table.daemon.table.settings.turn_timer == 7
        await goto(table, "Turn timer")
        assert lcd(table)[1] == "7 s"


async def test_a_damaged_settings_file_is_kept_aside_and_the_lcd_says_so_once(config, tmp_path):
    (tmp_path / "settings.json").write_bytes(b"\x00\x17garbage")
    async with SimTable(config, state_dir=tmp_path) as table:
        assert lcd(table) == ("Settings damaged", "defaults in use")
        assert (tmp_path / "settings.json.bad").read_bytes() == b"\x00\x17garbage"
        assert table.daemon.table.settings.turn_timer == 4
        await table.advance(6.0)
        assert lcd(table) == ("Table   timer 4s", "Press to join")


async def test_a_notice_is_said_in_the_tables_language(tmp_path):
    (tmp_path / "settings.json").write_bytes(b"\x00\x17garbage")
    config = Config(settings=Settings({"language": "de"}))
    async with SimTable(config, state_dir=tmp_path) as table:
        assert lcd(table) == ("Einst. kaputt", "Standard gilt")


async def test_a_settings_file_edited_by_hand_reaches_a_running_table_on_reload(
    config, tmp_path, caplog
):
    caplog.set_level(logging.INFO, logger="controller.shell.settings_keeper")
    async with SimTable(config, state_dir=tmp_path) as table:
        shown = lcd(table)
        (tmp_path / "settings.json").write_text('{"picker": "fair"}\n')
        assert table.daemon.table.settings.picker == "classic"
        table.daemon.submit(RereadSettings())  # what SIGHUP does
        await table.settle()
        assert table.daemon.table.settings.picker == "fair"
        assert lcd(table) == shown  # a file read whole: nothing to say
    said = [r.getMessage() for r in caplog.records]
    assert said == [f"settings reread from {tmp_path / 'settings.json'}"]


async def test_a_settings_file_damaged_by_hand_is_said_on_reload(config, tmp_path):
    async with SimTable(config, state_dir=tmp_path) as table:
        (tmp_path / "settings.json").write_text('{"picker": "fair", "turn_timer": 99}\n')
        table.daemon.submit(RereadSettings())
        await table.settle()
        assert table.daemon.table.settings.picker == "fair"
        assert lcd(table) == ("Bad setting kept", "at its old value")
        assert table.daemon.table.settings.turn_timer == 4


@pytest.mark.parametrize(
    "where", ["Handicaps", "Quick dispense", "Hardware test", "Info", "Slap window", "Lights"]
)
async def test_play_pause_deep_in_the_menu_closes_it_and_starts_the_round_in_sight(config, where):
    # Someone starts the round on the button while the operator is in a submenu, changing a
    # value, or running the lights test: the menu gives way, nothing of it is left running.
    async with SimTable(config, seed=2) as table:
        await table.tap("seat1")
        await table.tap("seat2")
        if where == "Lights":
            await goto(table, "Hardware test")
            await push(table)
        await goto(table, where)
        await push(table)
        await table.tap("play_pause")
        assert not table.daemon.panel.is_open and table.daemon.panel.light_test is None
        [lit] = table.lit()
        assert lcd(table)[1] == f"Seat {lit} turn   4s"
        await table.advance(3.7)  # of its 4 s, the tap took 0.12
        assert table.events_of("timeout") == []  # its whole time, in sight


async def test_using_the_menu_keeps_the_table_awake():
    config = Config(settings=Settings({"sleep_time": 1}))
    async with SimTable(config) as table:
        await goto(table, "Volume")
        for _ in range(6):
            await table.advance(15.0)
            await table.turn(1)
        assert table.events_of("asleep") == []
        assert table.daemon.panel.is_open
        await back(table)
        await table.advance(61.0)
        assert table.events_of("asleep")
        assert table.lcd_model.backlight is False


async def test_a_turn_of_the_knob_that_wakes_the_table_only_wakes_it():
    config = Config(settings=Settings({"sleep_time": 1}))
    async with SimTable(config) as table:
        await table.advance(61.0)
        assert table.events_of("asleep")
        await table.turn(1)
        assert not table.daemon.table.asleep
        assert not table.daemon.panel.is_open
        await table.turn(1)  # the next opens the menu
        assert table.daemon.panel.is_open


async def test_a_change_from_a_remote_is_not_someone_at_the_table():
    config = Config(settings=Settings({"sleep_time": 1}))
    async with SimTable(config) as table:
        await table.advance(50.0)
        await asyncio.wrap_future(table.daemon.submit(ChangeSettings({"volume": "low"})))
        await table.advance(11.0)
        assert table.events_of("asleep")


async def test_a_quick_dispense_from_the_menu_is_someone_at_the_table():
    config = Config(settings=Settings({"sleep_time": 1}))
    async with SimTable(config) as table:
        await goto(table, "Quick dispense")
        await push(table)
        await table.advance(IDLE_CLOSE - 1)  # the last touch before the push
        await push(table)  # 1 card: the minute to sleep starts over
        await table.advance(58.0)
        assert table.cards_out == 1
        assert table.events_of("asleep") == []
        await table.advance(3.0)
        assert table.events_of("asleep")


@pytest.mark.parametrize("test", ["Lights", "Buttons", "Beam sensor"])
async def test_a_jam_during_a_hardware_test_closes_the_menu_and_ok_still_works(config, test):
    async with SimTable(config) as table:
        await seat_and_start(table, 1, 2)
        table.jam()
        await table.advance(4.0)  # the turn times out: its penalty starts to fly
        await goto(table, "Hardware test")
        await push(table)
        await goto(table, test)
        await push(table)
        await table.advance(2.0)  # the penalty jams while the test shows
        assert not table.daemon.panel.is_open
        assert lcd(table) == ("JAM: clear slot", "press OK  2 owed")
        assert table.daemon.panel.light_test is None
        table.clear_jam()
        await push(table)
        await table.advance(2.0)
        assert table.cards_out == 2


async def test_the_button_test_keeps_the_table_awake():
    config = Config(settings=Settings({"sleep_time": 1}))
    async with SimTable(config) as table:
        await goto(table, "Hardware test")
        await push(table)
        await goto(table, "Buttons")
        await push(table)
        for _ in range(6):
            await table.advance(15.0)
            await table.tap("slap")
        assert table.events_of("asleep") == []
        assert lcd(table) == ("Test: buttons", "slap")


async def test_a_disk_that_refuses_writes_still_lets_the_table_reset(config, tmp_path, monkeypatch):
    import controller.storage.settings_store

    async with SimTable(config, state_dir=tmp_path) as table:
        await goto(table, "Turn timer")
        await push(table)
        await table.turn(5)
        await push(table)

        def full(path, value):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(controller.storage.settings_store, "write_json", full)
        await goto(table, "Reset settings")
        await push(table)
        await push(table)
        assert table.daemon.table.settings.turn_timer == 4
        assert table.daemon.panel.is_open  # the table goes on; the log says why


async def test_the_info_screen_stays_put_while_its_value_changes():
    # Extreme's launcher answers with no round going, so cards fly while the Info shows.
    config = Config(settings=Settings({"mode": "extreme", "sleep_time": "off"}))
    async with SimTable(config, seed=3) as table:
        await goto(table, "Info")
        await push(table)
        await goto(table, "Cards dispensed")
        assert lcd(table) == ("Cards dispensed", "0")
        for _ in range(20):
            await table.tap("launcher")
            await table.advance(3.0)
            if table.cards_out:
                break
        assert table.cards_out > 0
        assert lcd(table) == ("Cards dispensed", str(table.cards_out))


async def test_no_pause_is_offered_while_a_penalty_screen_runs(config):
    async with SimTable(config, seed=3) as table:
        await seat_and_start(table, 1, 2)
        await table.advance(4.1)  # the timeout's screen
        await table.turn(1)
        assert label(table) == "New round"


async def test_a_setting_the_disk_refuses_says_so_over_the_menu(config, tmp_path, monkeypatch):
    import errno

    async with SimTable(config, seed=1, state_dir=tmp_path) as table:
        await goto(table, "Turn timer")

        def full(settings):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(table.daemon.settings_keeper.store, "save", full)
        before = table.daemon.table.settings.turn_timer
        await push(table)
        await table.turn(1)  # the value changes: the table uses it, the disk refuses it
        assert table.daemon.table.settings.turn_timer == before + 1
        assert lcd(table)[0] == "Not saving:"
        await table.advance(6.0)
        assert label(table) == "Turn timer"  # then the menu again, where it was


@pytest.mark.parametrize("held", [1.2, HOLD_BACK], ids=["1.2 s", "exactly the hold's time"])
async def test_a_hold_whose_release_is_handled_before_its_mark_still_goes_back(config, held):
    # On a loaded machine the release of a hold can be handed to the panel before the hold's
    # own timer has fired: its edge time says it was a hold, not a push on the entry.
    async with SimTable(config, seed=2) as table:
        await goto(table, "Handicaps")
        await push(table)
        assert label(table) == "Seat 1 handicap"
        pushed = float(math.ceil(table.now))  # a whole second: the hold's time is exact
        table.daemon.panel.claims("encoder.push", Change(True, pushed))
        table.daemon.panel.claims("encoder.push", Change(False, pushed + held))
        await table.advance(0.0)
        assert lcd(table) == ("→Handicaps", "push to open")  # back at the top, not editing


@pytest.mark.parametrize("before", ["running", "paused"])
async def test_play_pause_with_the_menu_open_closes_it_and_the_turn_runs_in_sight(config, before):
    async with SimTable(config, seed=2) as table:
        await seat_and_start(table, 1, 2, 3)
        [lit] = table.lit()
        if before == "paused":
            await table.tap("play_pause")
        await table.turn(1)  # the menu opens: no turn runs under it
        assert table.daemon.panel.is_open
        await table.tap("play_pause")
        assert not table.daemon.panel.is_open
        assert table.daemon.table.phase.value == "turn"
        assert lcd(table)[1].startswith(f"Seat {lit} turn")  # the game, not the menu
        await table.advance(1.0)
        assert table.daemon.table.phase.value == "turn" and table.events_of("timeout") == []


async def test_play_pause_with_the_menu_open_between_rounds_closes_it_and_starts(config):
    async with SimTable(config, seed=2) as table:
        for seat in (1, 2):
            await table.tap(f"seat{seat}")
        await goto(table, "Volume")
        await table.tap("play_pause")
        assert not table.daemon.panel.is_open
        assert [e.type for e in table.events if e.type == "round_started"] == ["round_started"]
        [lit] = table.lit()
        assert lcd(table)[1].startswith(f"Seat {lit} turn")
