"""The daemon with `[launcher] link = "serial"`: it drives the firmware through a real
pseudo-terminal, and the game's cards owed follow the cards the firmware's beam counted."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import termios
import tty

import pytest

from controller.config import Config, LauncherConfig
from controller.game.events import ExactDraw
from controller.shell import launcher_link
from controller.shell.daemon import Daemon
from controller.shell.renderer import LINK_DOWN, OFFLINE_LINE, OFFLINE_TURN
from controller.shell.wiring import Wiring
from controller.storage.owed import OwedFile
from hardware.clock import LoopClock
from hardware.display import fit
from hardware.serial_ejector import HALT_WITHIN, SerialEjector
from hardware.sim.firmware import FirmwareSim
from hardware.sim.hd44780 import simulated_display
from hardware.sim.launcher_model import FULL_SPEED_CYCLES
from hardware.sim.machine import PWRON_RESET
from hardware.sim.pins import SimFactory
from tests import virtual_loop


def on_glass(lines):
    """A notice's lines as the 16 columns of the glass hold them."""
    return tuple(fit(line) for line in lines)


@pytest.fixture(autouse=True)
def records_written_at_once(monkeypatch):
    """The record of the cards owed is written at once here, as in game time (a write takes
    no time): on the virtual loop, the real moment a writer thread's write takes would be
    seconds of virtual time, and the controller waits for each count to be kept."""
    monkeypatch.setattr(launcher_link, "VirtualClock", LoopClock)


def serial_daemon(
    port: str, state_dir, clock: LoopClock, display=None, baud: int = LauncherConfig.baud
) -> Daemon:
    """A daemon on the simulated pins whose launcher is the controller at `port`."""
    config = Config(launcher=LauncherConfig(link="serial", port=port, baud=baud))
    display = simulated_display()[0] if display is None else display
    wiring = Wiring(config.pinmap(simulated=False), SimFactory(clock), display, clock)
    return Daemon(config, wiring, rng=random.Random(2), state_dir=state_dir, grace=0.0)


def test_the_daemon_dispenses_through_the_firmware_on_a_serial_port(tmp_path):
    async def main() -> None:
        loop = asyncio.get_running_loop()
        clock = LoopClock(loop)
        master, slave = os.openpty()
        tty.setraw(slave)
        firmware = FirmwareSim(master, clock=clock, rng=random.Random(1))
        port = tmp_path / "ttyACM-launcher"
        port.symlink_to(os.ttyname(slave))
        display, lcd = simulated_display()
        daemon = serial_daemon(str(port), tmp_path, clock, display)
        assert isinstance(daemon.launcher.ejector, SerialEjector)
        assert daemon.launcher.wired
        running = asyncio.create_task(daemon.run())
        while not daemon.launcher.ejector.link_up:
            await asyncio.sleep(0.05)
        daemon.feed(ExactDraw(5, "quick", clock.now()))
        assert daemon.table.launcher.owed == 5
        for _ in range(200):
            if daemon.table.launcher.owed == 0:
                break
            await asyncio.sleep(0.05)
        assert daemon.table.launcher.owed == 0
        assert firmware.model.cards_out == 5
        firmware.close()  # the controller goes away: the LCD says so
        os.close(master)
        for _ in range(100):
            if lcd.lines == on_glass(LINK_DOWN):
                break
            await asyncio.sleep(0.05)
        assert lcd.lines == on_glass(LINK_DOWN)
        daemon.stop()
        await running
        os.close(slave)

    virtual_loop.run(main())


def test_a_controller_silent_from_the_start_is_shown_offline_with_no_word_of_a_loss(tmp_path):
    async def main() -> None:
        clock = LoopClock(asyncio.get_running_loop())
        master, slave = os.openpty()  # nothing answers at the other end
        tty.setraw(slave)
        port = tmp_path / "ttyACM-launcher"
        port.symlink_to(os.ttyname(slave))
        display, lcd = simulated_display()
        daemon = serial_daemon(str(port), tmp_path, clock, display)
        running = asyncio.create_task(daemon.run())
        seen = []
        for _ in range(round(4 * OFFLINE_TURN / 0.25)):
            await asyncio.sleep(0.25)
            seen.append(lcd.lines)
        daemon.stop()
        await running
        os.close(master)
        os.close(slave)
        assert not daemon.launcher.ejector.link_up
        assert fit(OFFLINE_LINE) in {first for first, _ in seen}  # in turns with the game's
        assert on_glass(LINK_DOWN) not in seen  # never up, so never lost

    virtual_loop.run(main())


def test_the_controllers_port_is_opened_at_the_baud_rate_the_config_names(tmp_path):
    async def main() -> None:
        clock = LoopClock(asyncio.get_running_loop())
        master, slave = os.openpty()
        tty.setraw(slave)
        ispeed, ospeed = termios.tcgetattr(slave)[4:6]
        assert termios.B57600 not in (ispeed, ospeed)
        daemon = serial_daemon(os.ttyname(slave), tmp_path, clock, baud=57600)
        running = asyncio.create_task(daemon.run())
        for _ in range(100):  # until the port is open
            if daemon.launcher.ejector.session.connected:
                break
            await asyncio.sleep(0.05)
        ispeed, ospeed = termios.tcgetattr(slave)[4:6]
        daemon.stop()
        await running
        os.close(master)
        os.close(slave)
        assert (ispeed, ospeed) == (termios.B57600, termios.B57600)

    virtual_loop.run(main())


class Table:
    """A daemon whose launcher is the firmware on a real pseudo-terminal, on the loop's
    clock (virtual in these tests)."""

    def __init__(self, tmp_path) -> None:
        loop = asyncio.get_running_loop()
        self.clock = LoopClock(loop)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.firmware = FirmwareSim(self.master, clock=self.clock, rng=random.Random(1))
        self.state_dir = tmp_path
        self.start()

    def start(self) -> None:
        """A daemon on the state directory and the controller's port."""
        self.daemon = serial_daemon(os.ttyname(self.slave), self.state_dir, self.clock)
        self.running = asyncio.create_task(self.daemon.run())

    async def kill(self) -> None:
        """As at SIGKILL: no STOP for the controller, and the state directory stays as it
        was at that instant (this daemon's shutdown writes nothing that survives)."""
        disk = {}
        for path in self.state_dir.iterdir():
            # A write's temporary file may be renamed over its target between the listing
            # and the read: it was never the truth (the daemon's start sweeps them).
            with contextlib.suppress(FileNotFoundError):
                if path.is_file():
                    disk[path] = path.read_bytes()
        self.daemon.launcher.ejector.close()  # the port is let go: nothing more is sent
        self.daemon.stop()
        await self.running
        for path in self.state_dir.iterdir():
            if path.is_file() and path not in disk:
                path.unlink()
        for path, data in disk.items():
            path.write_bytes(data)

    async def until(self, done, within: float) -> None:
        start = self.clock.now()
        while not done():
            assert self.clock.now() - start < within, "not in time"
            await asyncio.sleep(0.01)

    async def owes_nothing(self, within: float) -> None:
        """Until this daemon has taken up what it owed at its start and dealt it: linked to
        the controller (what the record held asked again, the controller's reset judged) and
        nothing owed, by the game or the ejector. A game resumed from a snapshot written
        before the dispense owes nothing until the daemon's first steps run."""
        ejector = self.daemon.launcher.ejector
        await self.until(
            lambda: ejector.link_up and ejector.owed == 0 and self.daemon.table.launcher.owed == 0,
            within,
        )

    def close(self) -> None:
        self.firmware.close()
        os.close(self.master)
        os.close(self.slave)


def test_shutdown_stops_the_motor_by_the_hosts_word_and_counts_its_last_cards(tmp_path):
    async def main() -> None:
        table = Table(tmp_path)
        ejector = table.daemon.launcher.ejector
        await table.until(lambda: ejector.link_up, within=2.0)
        table.daemon.feed(ExactDraw(20, "quick", table.clock.now()))
        model = table.firmware.model
        await table.until(lambda: model.cards_out >= 3 and model.motor_speed > 0, within=5.0)
        stopping = table.clock.now()
        table.daemon.stop()
        await table.running
        # Stopped when the daemon is done: by its STOP, not by the firmware's host watchdog
        # (2 s of silence), and within the half second the shutdown waits for the answer.
        assert model.motor_speed <= 0 and not table.firmware.launcher.host_lost
        assert table.clock.now() - stopping < 0.5
        out = model.cards_out
        await asyncio.sleep(3.0)  # the firmware's watchdog time passes: nothing more moves
        assert model.cards_out == out
        # The cards owed kept on disk are exactly those the beam has not counted, and no
        # dispense is left in play: once STOP was sent, nothing more was asked for.
        record = OwedFile(table.state_dir, on_kept=lambda: None, background=False)
        assert record.at_start == (20 - out, None)
        assert record.sent_at_start is None
        record.close()
        table.close()

    virtual_loop.run(main())


def test_shutdown_waits_half_a_second_at_most_for_a_silent_controller(tmp_path, caplog):
    async def main() -> None:
        table = Table(tmp_path)
        ejector = table.daemon.launcher.ejector
        await table.until(lambda: ejector.link_up, within=2.0)
        table.firmware.close()  # it hears nothing more
        stopping = table.clock.now()
        table.daemon.stop()
        await table.running
        waited = table.clock.now() - stopping
        assert HALT_WITHIN <= waited < HALT_WITHIN + 0.1
        assert "launcher controller did not confirm STOP within 0.5 s" in caplog.messages
        table.close()

    virtual_loop.run(main())


def test_shutdown_with_no_controller_linked_waits_for_none_and_leaves_it_its_watchdog(
    tmp_path, caplog
):
    async def main() -> None:
        clock = LoopClock(asyncio.get_running_loop())
        daemon = serial_daemon(str(tmp_path / "ttyACM-unplugged"), tmp_path, clock)
        running = asyncio.create_task(daemon.run())
        await asyncio.sleep(1.0)  # the port is looked for, and is not there
        stopping = clock.now()
        daemon.stop()
        await running
        assert clock.now() - stopping < 0.1  # nothing to hear out: no STOP waited for
        said = "launcher controller not linked at shutdown: its watchdog stops it"
        assert said in caplog.messages

    virtual_loop.run(main())


def test_a_restart_after_a_kill_mid_dispense_deals_no_card_twice(tmp_path):
    async def main() -> None:
        table = Table(tmp_path)
        await table.until(lambda: table.daemon.launcher.ejector.link_up, within=2.0)
        table.daemon.feed(ExactDraw(20, "quick", table.clock.now()))
        model, launcher = table.firmware.model, table.firmware.launcher
        await table.until(lambda: model.cards_out >= 3, within=5.0)
        await table.kill()
        heard = model.cards_out
        # The controller lets go at most the card after the last count the record kept, then
        # waits with the motor off until its host-lost watchdog ends the dispense.
        await table.until(lambda: launcher.host_lost, within=3.0)
        assert model.motor_speed <= 0 and model.cards_out <= heard + 1
        table.start()  # the same state directory, the same controller
        await table.owes_nothing(within=10.0)
        await asyncio.sleep(3.0)  # nothing more moves
        assert model.cards_out == 20
        table.daemon.stop()
        await table.running
        table.close()

    virtual_loop.run(main())


def test_a_power_cut_of_the_whole_table_mid_dispense_never_deals_a_card_twice(tmp_path):
    """The daemon killed and the controller switched off and on together, once after a
    dispense of 20 ended and 29 times at a random moment in its middle: the restarted daemon
    finds the dispense in its record, the controller has forgotten it, and the table deals
    20, or 19 when the card after the last count the record held had not left
    (docs/state.md). The moments are set by the cards out, not by the clock: how long a
    dispense lasts on the virtual loop follows the real pseudo-terminal's pace."""

    async def main() -> None:
        rng = random.Random(4)
        dealt = []
        for trial in range(30):
            state_dir = tmp_path / str(trial)
            state_dir.mkdir()
            table = Table(state_dir)
            model = table.firmware.model
            await table.until(lambda t=table: t.daemon.launcher.ejector.link_up, within=2.0)
            table.daemon.feed(ExactDraw(20, "quick", table.clock.now()))
            if trial == 0:  # between dispenses: every card counted and kept
                await table.until(lambda t=table: t.daemon.table.launcher.owed == 0, within=30.0)
            else:
                cards = rng.randint(1, 19)
                await table.until(lambda m=model, n=cards: m.cards_out >= n, within=30.0)
                await asyncio.sleep(rng.uniform(0.0, 1.0 / FULL_SPEED_CYCLES))  # to the next card
            await table.kill()
            table.firmware.reset(PWRON_RESET)
            table.start()
            await table.owes_nothing(within=30.0)
            await asyncio.sleep(3.0)  # nothing more moves
            dealt.append(model.cards_out)
            table.daemon.stop()
            await table.running
            table.close()
        assert dealt[0] == 20, dealt
        assert set(dealt) <= {19, 20}, dealt
        assert 19 in dealt  # the card after the last count kept: most cuts cost it

    virtual_loop.run(main())
