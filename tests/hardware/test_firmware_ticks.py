"""The firmware's tick stamps hold on a port whose ticks run far past 32 bits: MicroPython's
`ticks_us` wraps at 2**30 on the RP2040, and on a 64-bit port at 2**62, so after 36 minutes
(2**31 microseconds) it no longer fits a 32-bit word."""

from __future__ import annotations

import asyncio
import os
import random
import tty

from hardware.clock import LoopClock
from hardware.ejector import Halted, Report
from hardware.serial_ejector import SerialEjector
from hardware.sim.firmware import FirmwareSim
from tests import virtual_loop

LATE = 2**31 / 1e6 + 60  # seconds since the port started: a minute past 2**31 microseconds


def test_a_64_bit_port_36_minutes_after_its_start_still_counts_every_card():
    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.virtual = LATE  # type: ignore[attr-defined]
        clock = LoopClock(loop)
        master, slave = os.openpty()
        tty.setraw(slave)
        firmware = FirmwareSim(master, clock=clock, rng=random.Random(3), ticks_bits=62)
        reports: list[Report] = []
        ejector = SerialEjector(os.ttyname(slave), clock=clock, on_report=reports.append)
        try:
            while not ejector.link_up:
                await asyncio.sleep(0.05)
            ejector.dispense(12)
            while not any(isinstance(r, Halted) for r in reports):
                await asyncio.sleep(0.05)
            assert [r.reason for r in reports if isinstance(r, Halted)] == ["done"]
            assert firmware.model.cards_out == 12
        finally:
            ejector.close()
            await asyncio.sleep(0)
            firmware.close()
            os.close(master)
            os.close(slave)

    virtual_loop.run(main())
