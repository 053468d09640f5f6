"""The daemon shell: debounce, edge times, and the border between pin threads and the loop."""

import asyncio
import logging
import random
import threading
from pathlib import Path

import pytest

from controller.config import Config
from controller.game import Press, Release
from controller.settings import Settings
from controller.shell.daemon import REAL_TIME_GRACE, Daemon
from controller.shell.wiring import Wiring
from controller.simulation.table import SimTable
from hardware.clock import LoopClock
from hardware.debounce import DEBOUNCE_WINDOW
from hardware.sim.bounce import chatter
from hardware.sim.hd44780 import simulated_display
from hardware.sim.pins import SimFactory
from tests import virtual_loop


async def test_a_5ms_bounce_burst_makes_one_press():
    async with SimTable(seed=1) as table:
        await table.press("seat2", bounce=True)
        await table.advance(0.2)
        await table.release("seat2", bounce=True)
        await table.advance(0.2)
        inputs = [e for _, e in table.daemon.game_log if isinstance(e, Press | Release)]
        assert [type(e) for e in inputs] == [Press, Release]
        assert table.events_of("seat_claimed")[0].data == {"seat": 2}
        assert len(table.events_of("seat_claimed")) == 1
        assert table.events_of("seat_released") == []


async def test_a_burst_reports_the_time_of_its_first_edge():
    async with SimTable(seed=1) as table:
        start = table.now
        settled = chatter(table.pin("seat4"), table.clock, high=False, duration=0.005, edges=11)
        assert settled == start + 0.005
        await table.advance(0.1)
        presses = [e for _, e in table.daemon.game_log if isinstance(e, Press)]
        assert presses == [Press("seat4", start)]


async def test_the_edge_time_reaches_the_engine_unchanged():
    async with SimTable(seed=1) as table:
        await table.advance(0.25)
        edge = table.now
        table.pin("seat1").drive_low()
        # The daemon handles it later than the edge happened.
        table.clock.set(edge + 0.5)
        await table.settle()
        handled_at, event = table.daemon.game_log[-1]
        assert event == Press("seat1", edge)
        assert handled_at == edge + 0.5


async def test_the_thread_that_drives_a_pin_never_runs_game_logic(monkeypatch):
    import controller.game as game

    stepped_on: list[int] = []
    real_step = game.step

    def spying_step(*args):
        stepped_on.append(threading.get_ident())
        return real_step(*args)

    monkeypatch.setattr(game, "step", spying_step)
    async with SimTable(seed=1) as table:
        pin = table.pin("seat3")
        driver = threading.Thread(target=pin.drive_low)
        driver.start()
        await asyncio.to_thread(driver.join)
        await table.settle()
        assert table.events_of("seat_claimed")[0].data == {"seat": 3}
        assert stepped_on
        assert set(stepped_on) == {threading.get_ident()}  # the loop runs on this thread
        assert driver.ident not in stepped_on


async def test_stopping_leaves_lights_and_buzzer_off():
    async with SimTable(seed=1) as table:
        for seat in ("seat1", "seat2"):
            await table.tap(seat)
        await table.tap("play_pause")
        lights = table.daemon.board.lights
        assert any(light.pattern.value == "pulse" for light in lights.values())
    # Closing the devices would zero the pins anyway: the patterns show all_off ran first.
    assert {light.pattern.value for light in lights.values()} == {"off"}
    assert table.lcd == ("Flash Table     ", "stopped         ")
    assert table.lcd_model.backlight is False


async def test_a_long_round_keeps_a_bounded_log_that_still_replays_exactly(monkeypatch):
    import controller.shell.game_log
    import controller.simulation.table
    from controller.game import replay

    monkeypatch.setattr(controller.shell.game_log, "LIMIT", 100)
    monkeypatch.setattr(controller.simulation.table, "EVENTS_KEPT", 50)
    settings = Settings({"mode": "flash", "turn_timer": 4, "sleep_time": "off"})
    config = Config(seats=4, settings=settings)
    async with SimTable(config, seed=3) as table:
        for seat in ("seat1", "seat2", "seat3", "play_pause"):
            await table.tap(seat)
        daemon, longest, presses = table.daemon, 0, 0
        for _ in range(2000):  # turns ended and slap races: one round throughout
            if presses == 400:
                break
            lit = table.lit()
            if not lit:
                await table.advance(0.5)
                continue
            [seat] = lit
            if presses % 9 == 4:
                await table.tap("slap")
                for other in {1, 2, 3} - {seat}:
                    await table.tap(f"seat{other}")
            else:
                await table.tap(f"seat{seat}")
            presses += 1
            longest = max(longest, len(daemon.game_log))
            if presses % 100 == 0:  # from wherever the log starts now, it replays to now
                log = daemon.game_log
                replayed, _ = replay(log, log.start, log.start_rng())
                assert replayed == daemon.table
        assert presses == 400
        assert table.events_of("round_over") == []
        assert daemon.game_log.recorded > 1000
        assert longest <= 100  # a round of over 1,000 events, never more than 100 kept
        # The simulated table keeps the latest game events only, the newest last.
        assert len(table.events) == 50
        seqs = [e.seq for e in table.events]
        assert seqs == list(range(seqs[-1] - 49, seqs[-1] + 1)) and seqs[0] > 500


async def test_a_remote_change_with_crossed_bounds_is_refused_and_play_goes_on():
    import pytest

    from controller.errors import SettingError
    from controller.requests import ChangeSettings

    async with SimTable(seed=1) as table:
        with pytest.raises(SettingError, match=r"custom_min \(10\) cannot be above custom_max"):
            ChangeSettings({"custom_min": 10, "custom_max": 2})
        table.daemon.submit(ChangeSettings({"custom_max": 2, "custom_chance": 50}))
        asked = table.daemon.submit(ChangeSettings({"custom_min": 3}))  # past the new max
        await table.settle()
        assert table.daemon.table.settings.custom_max == 2
        with pytest.raises(SettingError, match=r"custom_min \(3\) cannot be above custom_max"):
            await asyncio.wrap_future(asked)
        settings = table.daemon.table.settings
        assert (settings.custom_min, settings.custom_max) == (1, 2)
        await table.tap("seat1")
        assert table.events_of("seat_claimed")


async def test_a_glancing_tap_and_the_next_handled_late_are_two_presses():
    # The loop gets to all three edges only after the next press: the first release, hidden
    # in its debounce window, still counts before that press, not as a button held on.
    async with SimTable(seed=1) as table:
        await table.advance(0.25)
        pin, start = table.pin("seat1"), table.now
        pin.drive_low()
        table.clock.set(start + 0.008)
        pin.drive_high()
        table.clock.set(start + 0.2)
        pin.drive_low()
        table.clock.set(start + 0.3)
        await table.settle()
        inputs = [e for _, e in table.daemon.game_log if isinstance(e, Press | Release)]
        assert inputs == [
            Press("seat1", start),
            Release("seat1", start + 0.008),
            Press("seat1", start + 0.2),
        ]
        assert len(table.events_of("seat_claimed")) == len(table.events_of("seat_released")) == 1


def late_round(**settings) -> SimTable:
    return SimTable(Config(settings=Settings({"mode": "flash", **settings})), seed=1)


async def seat_and_start(table: SimTable) -> tuple[int, int, float]:
    """Three players and a round: who is lit, a player who is not, when the turn began."""
    for name in ("seat1", "seat2", "seat3"):
        await table.tap(name)
    began = table.now
    await table.tap("play_pause")
    [lit] = table.lit()
    return lit, next(s for s in (1, 2, 3) if s != lit), began


@pytest.mark.parametrize("wakeup_first", [False, True], ids=["both-late", "behind-wakeup"])
async def test_a_tap_the_loop_gets_to_late_never_reads_as_a_jump_in(wakeup_first):
    async with late_round(turn_timer="off", jump_in="on") as table:
        lit, other, _ = await seat_and_start(table)
        pin, start = table.pin(f"seat{other}"), table.now
        pin.drive_low()
        if wakeup_first:
            await table.settle()  # the press is handled: the engine wakes at its 0.6 s mark
        table.clock.set(start + 0.1)
        pin.drive_high()  # the release crosses from its thread...
        table.clock.set(start + 0.8)  # ...and the loop gets to it only now, past the mark
        if wakeup_first:
            while table.clock.run_next(start + 0.8):  # behind the wakeup the loop queued
                pass
        await table.settle()
        await table.advance(1.0)
        assert table.events_of("jump_in") == []
        assert table.lit() == [lit]


async def test_a_press_in_time_that_waits_behind_another_is_still_in_time():
    async with late_round(turn_timer=4) as table:
        lit, other, began = await seat_and_start(table)
        deadline = began + 4.0
        table.clock.set(deadline - 0.3)
        table.pin(f"seat{other}").drive_low()  # a press that does nothing, handled first
        table.clock.set(deadline - 0.05)
        table.pin(f"seat{lit}").drive_low()  # the lit player, 50 ms before time runs out
        table.clock.set(deadline + 0.5)
        await table.settle()
        assert table.events_of("timeout") == []
        assert [e.data["seat"] for e in table.events_of("turn_ended")] == [lit]


def built(config: Config, *, simulated: bool = True, state_dir: Path | None = None) -> Daemon:
    """The daemon as it stands once made, before it runs, on the loop's clock: the pins of
    the Pi (`simulated=False`: a launcher only where the seats leave pins for one) or of
    the simulation, simulated."""
    clock = LoopClock(asyncio.get_running_loop())
    display, _ = simulated_display()
    wiring = Wiring(config.pinmap(simulated=simulated), SimFactory(clock), display, clock)
    return Daemon(config, wiring, rng=random.Random(1), state_dir=state_dir, grace=0.0)


async def test_the_lights_and_the_buzzer_follow_the_settings_before_anything_shows():
    board = built(Config(settings=Settings({"brightness": 40, "volume": "low"}))).board
    assert {light.brightness for light in board.lights.values()} == {0.4}
    assert board.buzzer.volume == "low"


@pytest.mark.parametrize(("mode", "warned"), [("extreme", True), ("table", True), ("flash", False)])
async def test_a_table_of_eight_seats_has_no_launcher_and_says_so_where_its_mode_deals(
    mode, warned, caplog
):
    daemon = built(Config(seats=8, settings=Settings({"mode": mode})), simulated=False)
    assert not daemon.launcher.wired
    said = [(r.levelno, r.getMessage()) for r in caplog.records if r.name.endswith(".daemon")]
    warning = "no launcher is wired: penalties are shown on the LCD, not dispensed"
    assert said == [(logging.WARNING, warning)] * warned


def test_a_release_bounce_hid_is_handled_a_grace_after_its_window_closes():
    """Edge time is truth, and an edge may still be crossing from its pin's thread as the
    debounce window closes: a change the bounce hid is settled a grace later (the daemon's
    own, as for its wakeups), behind every edge from inside the window; on game time."""

    async def main() -> None:
        clock = LoopClock(asyncio.get_running_loop())
        display, _ = simulated_display()
        wiring = Wiring(Config().pinmap(simulated=True), SimFactory(clock), display, clock)
        daemon = Daemon(Config(), wiring, rng=random.Random(1), state_dir=None)
        running = asyncio.create_task(daemon.run())
        await daemon.idle()
        pin = daemon.board.inputs["seat1"].pin
        pressed = clock.now()
        pin.drive_low()
        await asyncio.sleep(DEBOUNCE_WINDOW / 3)
        pin.drive_high()  # released inside the window: the bounce hides it till it closes
        await asyncio.sleep(1.0)
        daemon.stop()
        await running
        [(handled, release)] = [(now, e) for now, e in daemon.game_log if isinstance(e, Release)]
        assert release.time == pytest.approx(pressed + DEBOUNCE_WINDOW / 3)
        assert handled >= pressed + DEBOUNCE_WINDOW + REAL_TIME_GRACE

    virtual_loop.run(main())
