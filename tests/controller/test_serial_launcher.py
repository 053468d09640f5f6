"""The daemon with `[launcher] link = "serial"`: it drives the firmware through a real
pseudo-terminal, and the game's cards owed follow the cards the firmware's beam counted."""

from __future__ import annotations

import asyncio
import os
import random
import tty

from controller.config import Config, LauncherConfig
from controller.daemon import Daemon
from controller.game.events import ExactDraw
from controller.launcher_link import LINK_DOWN
from hardware.clock import LoopClock
from hardware.serial_ejector import SerialEjector
from hardware.sim.firmware import FirmwareSim
from hardware.sim.hd44780 import simulated_display
from hardware.sim.pins import SimFactory
from tests import virtual_loop


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
        daemon = Daemon(
            pinmap=Config().pinmap(simulated=False),
            pin_factory=SimFactory(clock),
            display=display,
            clock=clock,
            rng=random.Random(2),
            settings=Config().settings,
            grace=0.0,
            state_dir=tmp_path,
            launcher=LauncherConfig(link="serial", port=str(port)),
        )
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
            if lcd.lines == LINK_DOWN:
                break
            await asyncio.sleep(0.05)
        assert lcd.lines == LINK_DOWN
        daemon.stop()
        await running
        os.close(slave)

    virtual_loop.run(main())
