"""The launcher firmware in the simulated table's loop (`flashtable sim --launcher serial`).

The firmware (firmware/, as `flashtable firmware-sim` runs it) works one end of a fresh
pseudo-terminal and the daemon's serial ejector the other, over the real protocol. It runs in
the table's own process and event loop, on the table's virtual clock, not as a child process:
game time is virtual (a script plays a minute of game in a moment, the same every time), and
a firmware on a wall clock of its own would see the host fall silent at every jump of game
time. So game time moves on only once both ends have heard everything sent (`settle_line`).
The firmware's log goes where the table's does, so nothing of it reaches the terminal view,
and it stops with the table however the table stops.
"""

from __future__ import annotations

import asyncio
import logging

from hardware.clock import Clock
from hardware.serial_ejector import SerialEjector
from hardware.sim.firmware_port import FirmwarePort, until_quiet
from hardware.sim.launcher_model import LauncherModel

from ..errors import FirmwareNotLinked
from ..shell.daemon import Daemon

log = logging.getLogger(__name__)

OPEN_WITHIN = 10.0  # real seconds for the daemon to open the pseudo-terminal
OPEN_LOOK = 0.01


def ejector_of(daemon: Daemon) -> SerialEjector:
    ejector = daemon.launcher.ejector
    if not isinstance(ejector, SerialEjector):
        raise FirmwareNotLinked("the daemon's launcher is not on a serial link")
    return ejector


async def power_on(port: FirmwarePort, daemon: Daemon, clock: Clock, seed: int) -> LauncherModel:
    """Start the firmware once the daemon has the port open (it hears the boot, as from a
    Pico plugged in), and wait until the link is up; returns the launcher's mechanics."""
    ejector = ejector_of(daemon)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + OPEN_WITHIN
    while not ejector.session.connected:
        if loop.time() > deadline:
            raise FirmwareNotLinked(f"the daemon did not open the firmware's port {port.port}")
        await asyncio.sleep(OPEN_LOOK)
    firmware = port.start(clock=clock, seed=seed)
    await settle_line(port, daemon)
    if not ejector.link_up:
        raise FirmwareNotLinked(f"the launcher firmware did not answer on {port.port}")
    log.info("launcher firmware in the loop on %s", port.port)
    return firmware.model


async def settle_line(port: FirmwarePort, daemon: Daemon) -> None:
    """Let the daemon handle everything so far, and each end of the line hear what the other
    sent: nothing waits for an acknowledgement from an end that is there to give it."""
    ejector = ejector_of(daemon)

    def quiet() -> bool:
        host_done = ejector.session.quiet or not port.running
        firmware_done = port.quiet or not ejector.session.connected
        return host_done and firmware_done

    def moved() -> tuple[int, int]:
        return ejector.session.heard, port.received

    if not await until_quiet(quiet, daemon.idle, moved):
        log.warning("the launcher's serial line did not settle: game time moves on")
