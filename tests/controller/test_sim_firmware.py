"""`flashtable sim --launcher serial`: the simulated table with the launcher firmware in the
loop, on a real pseudo-terminal, over the serial protocol, in game time."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.config import Config, LauncherConfig
from controller.requests import DealCards
from controller.settings import Settings
from controller.shell.renderer import LINK_BACK, LINK_DOWN, OFFLINE_LINE, OFFLINE_TURN
from controller.simulation.table import SimTable
from hardware.display import fit
from hardware.serial_ejector import SerialEjector
from hardware.sim.firmware import FirmwareSim

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "full-round.txt"
HEADLESS_ROUND = ("--headless", "--script", str(EXAMPLE), "--seed", "1")
EVENT_LINE = re.compile(r"^ {0,3}\d+ +\d+\.\d{3} (?P<type>[a-z_]+)(?P<data> .*)?$")


def on_glass(lines):
    """A notice's lines as the 16 columns of the glass hold them."""
    return tuple(fit(line) for line in lines)


def sim(*options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "controller", "sim", *options]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)


def events(out: str) -> list[tuple[str, str]]:
    """The event log's events without their times: (type, data)."""
    found = [EVENT_LINE.match(line) for line in out.splitlines()]
    return [(m["type"], (m["data"] or "").strip()) for m in found if m]


def test_the_full_round_deals_the_same_cards_through_the_firmware_as_on_gpio():
    gpio = sim(*HEADLESS_ROUND)
    serial = sim("--launcher", "serial", *HEADLESS_ROUND)
    assert (gpio.returncode, gpio.stderr) == (0, "")
    assert (serial.returncode, serial.stderr) == (0, "")
    played = events(serial.stdout)
    # The script's own `expect cards_out 10` held in both (the beam's count); the game, event
    # by event, is the same: the same dispenses, the same cards out, the same jam.
    assert sum(kind == "card_out" for kind, _ in played) == 10
    assert played == events(gpio.stdout)
    assert ("launcher_fault", "fault=jam owed=2") in played
    # The firmware's own doings are not the player's business: no warning of its boot.
    assert "restarted" not in serial.stdout


def test_game_time_waits_for_bytes_the_kernel_is_slow_to_pass_on(monkeypatch):
    """On a busy machine a pseudo-terminal hands bytes over late: game time must not run on
    meanwhile, or the host would think the controller gone. Here every read by the firmware
    comes 5 ms (real) late, and the table plays as ever."""
    hand_on = FirmwareSim._readable

    def late(self: FirmwareSim) -> None:
        loop = asyncio.get_running_loop()
        loop.remove_reader(self._fd)

        def now() -> None:
            if not self.closed:
                loop.add_reader(self._fd, self._readable)
                hand_on(self)

        loop.call_later(0.005, now)

    monkeypatch.setattr(FirmwareSim, "_readable", late)

    async def main() -> None:
        async with SimTable(seed=1, firmware=True) as table:
            for name in ("seat1", "seat3", "play_pause"):
                await table.tap(name)
            await table.advance(8.0)  # the 6 s timer runs out: 2 cards
            assert table.cards_out == 2
            assert table.lcd[1] != LINK_DOWN[1]
            assert [e.type for e in table.events].count("card_out") == 2

    asyncio.run(main())


def as_in_a_terminal() -> None:
    """In the child, before it runs: Ctrl-C's signal does what it does to a program started
    in a terminal. A test run started in the background by a script (a shell without job
    control ignores SIGINT in what it starts so) would hand on SIGINT ignored, and Python
    keeps a signal ignored that it was started with: the table would never hear Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_headless_script_with_the_firmware_stops_cleanly_on_ctrl_c(tmp_path):
    script = tmp_path / "long.txt"
    script.write_text("tap seat1\nwait 900000\n", encoding="utf-8")  # days of game time
    command = [sys.executable, "-m", "controller", "sim", "--launcher", "serial", "--headless"]
    proc = subprocess.Popen(
        [*command, "--script", str(script)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=as_in_a_terminal,
    )
    try:
        assert proc.stdout is not None
        assert "seat_claimed" in proc.stdout.readline()  # the long wait has begun
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert (proc.returncode, err) == (130, "flashtable: interrupted\n")


def open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def test_the_firmware_ends_with_the_table_also_on_an_error():
    async def main() -> None:
        before = open_fds()
        with pytest.raises(RuntimeError, match="a bug in a script"):
            async with SimTable(seed=1, firmware=True) as table:
                port = table.firmware_port
                assert port is not None and os.path.exists(port.port)
                ejector = table.daemon.launcher.ejector
                assert isinstance(ejector, SerialEjector) and ejector.link_up
                raise RuntimeError("a bug in a script")
        assert port.firmware is not None and port.firmware.closed
        assert not os.path.exists(port.port)  # the pseudo-terminal is gone
        # The table's end closes in a worker thread: the table has waited for it.
        assert open_fds() <= before

    asyncio.run(main())


def test_jam_and_empty_on_demand_reach_the_launcher_behind_the_firmware():
    async def main() -> None:
        async with SimTable(seed=1, firmware=True) as table:
            model = table.launcher
            assert model is not None and table.firmware_port is not None
            assert model is table.firmware_port.firmware.model
            table.daemon.handle(DealCards(3))
            await table.advance(0.2)
            table.jam()
            await table.advance(2.0)
            assert table.daemon.table.launcher.fault == "jam"
            out = table.cards_out
            assert 0 < out < 3 and table.lcd == ("JAM: clear slot ", f"press OK  {3 - out} owed")
            table.clear_jam()
            await table.tap("encoder.push")
            await table.advance(2.0)
            assert table.cards_out == 3
            table.empty_hopper()
            table.daemon.handle(DealCards(2))
            await table.advance(1.0)
            assert table.lcd == ("Refill cards    ", "press OK  2 owed")
            table.refill(10)
            await table.tap("encoder.push")
            await table.advance(2.0)
            assert (table.cards_out, table.cards_left) == (5, 8)

    asyncio.run(main())


def test_the_lcd_says_the_launcher_is_offline_for_as_long_as_its_link_is_down():
    async def lines_over(table: SimTable, seconds: float) -> list[tuple[str, str]]:
        seen = []
        for _ in range(round(seconds / 0.25)):
            await table.advance(0.25)
            seen.append(table.lcd)
        return seen

    async def main() -> None:
        config = Config(settings=Settings({"turn_timer": "off"}))
        async with SimTable(config, seed=1, firmware=True) as table:
            port = table.firmware_port
            assert port is not None and port.firmware is not None
            for name in ("seat1", "seat3", "play_pause"):
                await table.tap(name)
            game = table.lcd
            assert OFFLINE_LINE not in game
            port.firmware.close()  # the controller falls silent
            await table.advance(1.5)
            assert table.lcd == on_glass(LINK_DOWN)
            table.daemon.handle(DealCards(2))  # cards asked for meanwhile wait as owed
            await table.advance(5.0)  # the notice is over; the LCD still says so
            seen = await lines_over(table, 12.0)
            assert {first for first, _ in seen} == {OFFLINE_LINE, game[0]}
            assert all(second == game[1] for _, second in seen)  # whose turn: always there
            turns = OFFLINE_TURN / 0.25
            assert all(
                OFFLINE_LINE in [f for f, _ in seen[i : i + 2 * round(turns)]]
                for i in range(len(seen) - 2 * round(turns))
            )
            assert table.daemon.table.launcher.owed == 2
            back = port.start(clock=table.clock, seed=2)  # the board is back
            await table.advance(0.5)
            assert table.lcd == on_glass(LINK_BACK)
            seen = await lines_over(table, 12.0)
            assert all(OFFLINE_LINE not in lines for lines in seen)
            assert seen[-1] == game
            assert back.model.cards_out == 2 and table.daemon.table.launcher.owed == 0

    asyncio.run(main())


@pytest.fixture
def pico():
    """A stand-in for a Pico on USB: `flashtable firmware-sim`, on the wall clock, in its own
    process; yields its port. Its log (the cards it dealt) is in `pico.err` once stopped."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", "firmware-sim", "--seed", "5"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    port = proc.stdout.readline().split()[-1]

    class Pico:
        def stop(self) -> str:
            proc.send_signal(signal.SIGTERM)
            return proc.communicate(timeout=30)[1]

    pico = Pico()
    pico.port = port
    try:
        yield pico
    finally:
        proc.kill()
        proc.wait()


def test_the_view_plays_with_a_real_controller_named_in_the_config(pico):
    """What a developer with a Pico does: `flashtable sim --config` naming its port. The
    board keeps real time, so this test does too, for the moment a dispense takes."""
    from controller.tui.app import TableApp

    async def until(done, within: float) -> None:
        for _ in range(round(within / 0.05)):
            if done():
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"not within {within} s")

    async def main() -> None:
        config = Config(launcher=LauncherConfig(link="serial", port=pico.port))
        app = TableApp(config, seed=1)
        async with app.run_test() as pilot:
            await pilot.pause()
            table = app.table
            assert table is not None and table.launcher is None  # the board's, not a model
            ejector = table.daemon.launcher.ejector
            assert isinstance(ejector, SerialEjector)
            await until(lambda: ejector.link_up, within=10.0)
            table.daemon.handle(DealCards(3))
            await until(lambda: table.daemon.table.launcher.owed == 0, within=10.0)
            assert [e.type for e in table.events].count("card_out") == 3
            await pilot.press("j")  # nothing to jam here: the board is at hand
            await pilot.pause()
            assert "do it by hand" in "\n".join(app.log_view.plain)
        # The stand-in's own count: at least the 3 its beam reported. (Its beam's edges carry
        # their own times, so a late process miscounts nothing; but its roller keeps the wall
        # clock, and if this machine stalls that process for longer than a card takes to
        # come out, over a tenth of a second, just as the last card counts, the next may slip
        # out before the firmware can stop the motor, which a Pico, running on its own, never
        # lets happen. Stalls of 100 ms deal exactly: tests/hardware/test_firmware_sim_stalls.)
        dealt = re.search(r"cards out: (\d+),", pico.stop())
        assert dealt is not None and int(dealt[1]) >= 3

    asyncio.run(main())


def test_a_real_controller_keeps_real_time_so_scripts_and_time_scales_are_refused(tmp_path):
    config = tmp_path / "pico.toml"
    config.write_text('[launcher]\nlink = "serial"\nport = "/dev/ttyACM0"\n', encoding="utf-8")
    headless = sim("--config", str(config), "--headless", "--script", str(EXAMPLE))
    assert headless.returncode == 2
    assert "/dev/ttyACM0 runs in real time: --headless plays in game time" in headless.stderr
    slow = sim("--config", str(config), "--time-scale", "0.5")
    assert slow.returncode == 2 and "--time-scale must be 1" in slow.stderr
    # --launcher plays without the board: the simulated launcher, on pins or the firmware's.
    for launcher in ("gpio", "serial"):
        played = sim("--config", str(config), "--launcher", launcher, *HEADLESS_ROUND)
        assert played.returncode == 0, played.stderr
