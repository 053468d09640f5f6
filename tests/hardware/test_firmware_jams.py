"""firmware-sim's stuck cards (`--jam`): a hand pulls the card out a second after the motor
stopped for it, as the command's help says, and it counts for the jammed dispense."""

from __future__ import annotations

import asyncio
import os
import random
import tty

from hardware.clock import LoopClock
from hardware.ejector import CardCounted, Halted, Report
from hardware.serial_ejector import SerialEjector
from hardware.sim.firmware import UNJAM_TIME, FirmwareSim
from tests import virtual_loop


def test_a_stuck_card_is_pulled_out_a_second_after_the_motor_stops_and_counts_for_its_dispense():
    async def main() -> None:
        loop = asyncio.get_running_loop()
        clock = LoopClock(loop)
        master, slave = os.openpty()
        tty.setraw(slave)
        firmware = FirmwareSim(master, clock=clock, rng=random.Random(5), jam_rate=1.0)
        model = firmware.model
        reports: list[Report] = []
        ejector = SerialEjector(os.ttyname(slave), clock=clock, on_report=reports.append)
        try:
            while not ejector.link_up:
                await asyncio.sleep(0.05)
            ejector.dispense(3)
            while not any(isinstance(r, Halted) for r in reports):
                await asyncio.sleep(0.01)
            assert [r.reason for r in reports if isinstance(r, Halted)] == ["jam"]
            stopped = model.stop_times[-1]
            assert model.card_in_beam and model.cards_out == 0
            while model.card_in_beam and clock.now() - stopped < 10:
                await asyncio.sleep(0.01)
            assert clock.now() - stopped < UNJAM_TIME + 0.05
            assert model.cards_out == 1
            while sum(isinstance(r, CardCounted) for r in reports) < 1:
                await asyncio.sleep(0.01)
            assert ejector.owed == 2  # the card pulled out counted for the jammed dispense
        finally:
            ejector.close()
            await asyncio.sleep(0)
            firmware.close()
            os.close(master)
            os.close(slave)

    virtual_loop.run(main())
