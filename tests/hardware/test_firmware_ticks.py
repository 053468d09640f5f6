"""The firmware's tick stamps hold on a port whose ticks run far past 32 bits: MicroPython's
`ticks_us` wraps at 2**30 on the RP2040, and on a 64-bit port at 2**62, so after 36 minutes
(2**31 microseconds) it no longer fits a 32-bit word."""

from __future__ import annotations

import asyncio

from tests import virtual_loop
from tests.hardware.firmware_and_host import FirmwareAndHost

LATE = 2**31 / 1e6 + 60  # seconds since the port started: a minute past 2**31 microseconds


def test_a_64_bit_port_36_minutes_after_its_start_still_counts_every_card():
    async def main() -> None:
        asyncio.get_running_loop().virtual = LATE  # type: ignore[attr-defined]
        async with FirmwareAndHost(3, ticks_bits=62) as rig:
            rig.ejector.dispense(12)
            await rig.until(rig.halts, look=0.05)
            assert rig.halts() == ["done"]
            assert rig.model.cards_out == 12

    virtual_loop.run(main())
