"""The launcher firmware on a fresh pseudo-terminal, where a host finds it as it finds a Pico.

`FirmwarePort` opens a pseudo-terminal pair: a host opens `port` (/dev/pts/N) and the
firmware (`FirmwareSim`, started with `start`) works the other end. Both ends stay open here,
so a host that closes the port and opens it again finds it. With line faults, a relay between
the port and a second pseudo-terminal damages the bytes on their way.
"""

from __future__ import annotations

import asyncio
import os
import random
import tty
from collections.abc import Awaitable, Callable

from ..clock import Clock
from .firmware import FirmwareSim
from .relay import LineFaults, Relay

# Real seconds without a byte moving on the line before a wait for it to fall quiet gives up:
# an end waiting for an answer that will not come (a frame a faulty line dropped), not bytes
# slow to cross, which count as progress however long a busy machine takes to move them.
QUIET_WITHIN = 5.0
QUIET_LOOK = 0.001  # real seconds between looks while bytes are on their way


class FirmwarePort:
    """A pseudo-terminal for the firmware. `start` it inside the running loop; `close` it."""

    def __init__(self, faults: LineFaults | None = None) -> None:
        self.faults = faults or LineFaults()
        master, slave = os.openpty()
        tty.setraw(slave)
        self._fds = [master, slave]
        self.port = os.ttyname(slave)
        self.firmware: FirmwareSim | None = None
        self.relay: Relay | None = None

    def start(
        self, *, clock: Clock, seed: int, cards: int = 54, jam_rate: float = 0.0
    ) -> FirmwareSim:
        """Power the firmware on (a host may already have the port open: it hears the boot)."""
        firmware_fd = self._fds[0]
        if self.faults.any:
            inner_master, inner_slave = os.openpty()
            tty.setraw(inner_slave)
            self._fds += [inner_master, inner_slave]
            relay_rng = random.Random(~seed)
            self.relay = Relay(firmware_fd, inner_master, self.faults, clock=clock, rng=relay_rng)
            firmware_fd = inner_slave
        self.firmware = FirmwareSim(
            firmware_fd, clock=clock, cards=cards, rng=random.Random(seed), jam_rate=jam_rate
        )
        return self.firmware

    @property
    def running(self) -> bool:
        return self.firmware is not None and not self.firmware.closed

    @property
    def quiet(self) -> bool:
        """The firmware has nothing unacknowledged on the line (true while it is off)."""
        return self.firmware is None or self.firmware.quiet

    @property
    def received(self) -> int:
        """The bytes the firmware has read from the line, ever."""
        return 0 if self.firmware is None else self.firmware.received

    def close(self) -> None:
        """Stop the firmware and the relay and let go of every descriptor (again: nothing)."""
        if self.relay is not None:
            self.relay.close()
        if self.firmware is not None:
            self.firmware.close()
        for fd in self._fds:
            os.close(fd)
        self._fds = []


async def until_quiet(
    quiet: Callable[[], bool],
    settle: Callable[[], Awaitable[None]],
    moved: Callable[[], object],
    within: float = QUIET_WITHIN,
) -> bool:
    """Let the event loop run until `quiet()` holds right after `settle()`; returns whether
    it did. It gives up only once `moved()` (what the ends have read, ever) has not changed
    for `within` real seconds: the wait is bounded by the line's progress, not the clock.

    A pseudo-terminal hands bytes to its other end in a kernel worker, a moment after the
    write (much longer on a busy machine): game time may only move on once both ends have
    heard everything, or the link's timeouts would fire on bytes still in the kernel, and
    the same game would go otherwise on a loaded machine."""
    loop = asyncio.get_running_loop()
    deadline, progress = loop.time() + within, moved()
    while True:
        await settle()
        if quiet():
            return True
        if moved() != progress:
            deadline, progress = loop.time() + within, moved()
        elif loop.time() > deadline:
            return False
        await asyncio.sleep(QUIET_LOOK)
