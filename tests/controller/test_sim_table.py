"""A simulated table plays: seating, start, turns ended by the lit seat, timeouts."""

import pytest

from controller.config import Config
from controller.requests import ChangeSettings
from controller.settings import Settings
from controller.shell import daemon as daemon_module
from controller.simulation.table import SimTable


def config(**settings) -> Config:
    return Config(settings=Settings(settings))


async def seat(table: SimTable, *seats: int) -> None:
    for n in seats:
        await table.tap(f"seat{n}")


async def test_three_seats_play_turns_and_a_4s_timeout_names_the_seat():
    async with SimTable(config(turn_timer=4), seed=7) as table:
        assert table.lcd == ("Table   timer 4s", "Press to join   ")
        await seat(table, 1, 3, 6)
        assert table.lcd[1].rstrip() == "Seats 1 3 6"
        assert {s for s, p in table.lights.items() if p == "on"} == {1, 3, 6}

        await table.tap("play_pause")
        [first] = table.lit()
        assert first in (1, 3, 6)
        assert table.lcd == ("Table   timer 4s", f"Seat {first} turn   4s")
        assert table.light(first) == "pulse"
        assert {s for s, p in table.lights.items() if p == "dim"} == {1, 3, 6} - {first}

        # Another seat's press does nothing; the lit seat's own press ends the turn.
        other = next(s for s in (1, 3, 6) if s != first)
        await table.tap(f"seat{other}")
        assert table.lit() == [first]
        started = len(table.events_of("turn_started"))
        await table.tap(f"seat{first}")
        assert table.events_of("turn_ended")[-1].data["seat"] == first
        assert len(table.events_of("turn_started")) == started + 1
        [second] = table.lit()

        # Nobody presses: the 4 s timer runs out in virtual time.
        turn_start = table.now - 0.12  # the turn began at the press edge of the tap
        await table.advance(2.5)
        assert table.lcd[1] == f"Seat {second} turn   2s"
        assert table.light(second) == "blink_fast"
        await table.advance(4.0 - 2.5 - 0.12 - 0.01)
        assert table.events_of("timeout") == []
        await table.advance(0.02)
        [timeout] = table.events_of("timeout")
        assert timeout.data == {"seat": second, "penalty": 2}
        assert table.now - turn_start >= 4.0
        assert table.lcd == (f"Seat {second} timeout!".ljust(16), "Draw 2 cards    ")
        assert table.light(second) == "flash"

        # Then the unit picks the next player.
        await table.advance(3.0)
        assert len(table.lit()) == 1
        assert table.events_of("turn_started")[-1].data["seat"] in (1, 3, 6)


async def test_start_needs_two_players():
    async with SimTable(seed=1) as table:
        await seat(table, 2)
        await table.tap("play_pause")
        assert table.lcd[0].rstrip() == "Need 2+ players"
        assert table.lit() == []
        await table.advance(3.5)
        assert table.lcd == ("Table   timer 6s", "Seats 2         ")


async def test_pressing_again_releases_a_seat():
    async with SimTable(seed=1) as table:
        await seat(table, 4, 4)
        assert table.light(4) == "off"
        assert table.lcd[1].rstrip() == "Press to join"


async def test_a_button_held_at_power_on_is_stuck_and_not_seated():
    table = SimTable(seed=1)
    table.factory.pin(table.pinmap["seat5.button"]).drive_low()
    async with table:
        assert table.events_of("button_stuck")[0].data == {"input": "seat5"}
        assert table.lcd == ("Seat 5 button   ", "stuck: check it ")
        await table.release("seat5")
        await table.tap("seat5")
        assert table.events_of("seat_claimed")[0].data == {"seat": 5}


async def test_a_button_held_while_seating_is_reported_stuck():
    async with SimTable(seed=1) as table:
        await table.press("seat2")
        assert table.light(2) == "on"
        await table.advance(8.5)
        assert table.events_of("button_stuck")[0].data == {"input": "seat2"}
        assert table.light(2) == "off"


async def test_no_timer_means_the_turn_waits():
    async with SimTable(config(turn_timer="off", sleep_time="off"), seed=3) as table:
        await seat(table, 1, 2)
        await table.tap("encoder.push")
        [lit] = table.lit()
        assert table.lcd[0] == "Table   no timer"
        await table.advance(600)
        assert table.lit() == [lit]
        assert table.events_of("timeout") == []


async def test_the_countdown_rewrites_only_the_changing_digit():
    async with SimTable(config(turn_timer=9, sleep_time="off"), seed=1) as table:
        await seat(table, 1, 2)
        await table.tap("play_pause")
        await table.advance(0.5)
        model = table.lcd_model
        writes = model.ddram_writes
        for left in range(8, 2, -1):
            await table.advance(1.0)
            assert table.lcd[1].endswith(f"{left}s")
        # One character a second: the digit; nothing else on the glass is written again.
        assert model.ddram_writes - writes == 6


@pytest.mark.parametrize(
    ("settings", "idle"),
    [
        ({}, ("Table   timer 6s", "Press to join")),
        ({"mode": "flash", "turn_timer": 4}, ("Flash   timer 4s", "Press to join")),
        ({"turn_timer": "off"}, ("Table   no timer", "Press to join")),
        ({"turn_timer": "surprise"}, ("Table   surprise", "Press to join")),
        ({"mode": "extreme"}, ("Extreme  classic", "Press launcher")),
    ],
)
async def test_the_idle_screen_shows_the_mode_and_the_timer_setting(settings, idle):
    async with SimTable(config(**settings), seed=1) as table:
        assert tuple(line.rstrip() for line in table.lcd) == idle


async def test_the_idle_screen_follows_a_setting_changed_before_anyone_joins():
    async with SimTable(seed=1) as table:
        table.daemon.submit(ChangeSettings({"turn_timer": 12}))
        await table.settle()
        await table.settle()
        assert table.lcd[0] == "Table  timer 12s"
        await seat(table, 2, 5)
        assert table.lcd == ("Table  timer 12s", "Seats 2 5       ")


async def test_the_same_seat_picked_again_is_named_sounds_and_blinks():
    async with SimTable(config(turn_timer="off", sleep_time="off"), seed=5) as table:
        await seat(table, 1, 2)
        await table.tap("play_pause")
        # Two players, the classic picker: a repeat comes soon; every other pick is plain.
        for _ in range(40):
            [before] = table.lit()
            await table.tap(f"seat{before}")
            [now] = table.lit()
            if now == before:
                break
            assert table.lcd[0] == "Table   no timer"
            assert table.light(now) == "pulse"
        else:
            raise AssertionError("no seat was picked twice running")
        assert table.lcd == (f"Seat {now} again!".ljust(16), f"Seat {now} turn".ljust(16))
        assert table.light(now) == "blink"
        assert table.daemon.board.buzzer.playing == "again"
        await table.advance(2.0)
        assert table.lcd[0] == "Table   no timer"
        assert table.light(now) == "pulse"


@pytest.mark.parametrize("firmware", [False, True], ids=["gpio", "firmware in the loop"])
async def test_a_daemon_that_fails_on_its_way_up_fails_the_simulated_table_with_its_error(
    monkeypatch, firmware
):
    """It never serves, so nothing the table waits for comes: the error is raised at once,
    not after a test's time has run out."""

    def failing(daemon, *args):
        raise LookupError("a screen that is not there")

    monkeypatch.setattr(daemon_module, "first_steps", failing)
    with pytest.raises(LookupError, match=r"^a screen that is not there$"):
        async with SimTable(config(), seed=7, firmware=firmware):
            pass
