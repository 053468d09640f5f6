"""firmware-sim's firmware and the host's serial ejector on the two ends of one pseudo-terminal,
in the running loop: `async with FirmwareAndHost(...) as rig`, then `rig.until(...)`."""

from __future__ import annotations

import asyncio
import os
import random
import tty
from collections.abc import Callable
from typing import Any

from hardware.clock import LoopClock
from hardware.ejector import CardCounted, Halted, Report
from hardware.serial_ejector import SerialEjector
from hardware.sim.firmware import FirmwareSim


class FirmwareAndHost:
    def __init__(self, seed: int, **firmware: Any) -> None:
        self._seed = seed
        self._options = firmware
        self.reports: list[Report] = []

    async def __aenter__(self) -> FirmwareAndHost:
        self.clock = LoopClock(asyncio.get_running_loop())
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        rng = random.Random(self._seed)
        self.firmware = FirmwareSim(self._master, clock=self.clock, rng=rng, **self._options)
        self.model = self.firmware.model
        self.ejector = SerialEjector(
            os.ttyname(self._slave), clock=self.clock, on_report=self.reports.append
        )
        await self.until(lambda: self.ejector.link_up)
        return self

    async def __aexit__(self, *_: object) -> None:
        self.ejector.close()
        await asyncio.sleep(0)
        self.firmware.close()
        os.close(self._master)
        os.close(self._slave)

    async def until(self, done: Callable[[], bool], look: float = 0.01) -> None:
        """Wait (in virtual time) until `done()`; the test's own timeout bounds it."""
        while not done():
            await asyncio.sleep(look)

    def halts(self) -> list[str]:
        return [r.reason for r in self.reports if isinstance(r, Halted)]

    def counted(self) -> int:
        return sum(isinstance(r, CardCounted) for r in self.reports)
