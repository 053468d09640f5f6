"""firmware-sim's stuck cards (`--jam`): a hand pulls the card out a second after the motor
stopped for it, as the command's help says, and it counts for the jammed dispense."""

from __future__ import annotations

import asyncio

from hardware.sim.firmware import UNJAM_TIME
from tests import virtual_loop
from tests.hardware.firmware_and_host import FirmwareAndHost


def test_a_stuck_card_is_pulled_out_a_second_after_the_motor_stops_and_counts_for_its_dispense():
    async def main() -> None:
        async with FirmwareAndHost(5, jam_rate=1.0) as rig:
            model, clock = rig.model, rig.clock
            rig.ejector.dispense(3)
            await rig.until(rig.halts)
            assert rig.halts() == ["jam"]
            stopped = model.stop_times[-1]
            assert model.card_in_beam and model.cards_out == 0
            await rig.until(lambda: not model.card_in_beam or clock.now() - stopped > 10)
            assert clock.now() - stopped < UNJAM_TIME + 0.05
            assert model.cards_out == 1
            await rig.until(lambda: rig.counted() >= 1)
            assert rig.ejector.owed == 2  # the card pulled out counted for the jammed dispense

    virtual_loop.run(main())


def test_the_rest_asked_for_as_the_stuck_card_comes_out_deals_exactly_what_was_asked():
    """The host asks for the rest under a new id just as the stuck card is pulled out (the
    person's OK and the hand cross): the card that cleared the beam counts for the jammed
    dispense, however soon the new DISPENSE comes, and the host, which asked for it once more
    before it heard of it, lets no card past what it owes. Every card that leaves is counted,
    and no more leave than were asked for."""

    async def main() -> None:
        async with FirmwareAndHost(5, jam_rate=1.0) as rig:
            firmware, clock, model = rig.firmware, rig.clock, rig.model
            pull_out = model.pull_out

            def pulled() -> None:
                pull_out()
                firmware.jam_rate = 0.0
                clock.call_at(clock.now() + 0.001, rig.ejector.resume)  # before it counts

            model.pull_out = pulled  # type: ignore[method-assign]
            rig.ejector.dispense(3)
            await rig.until(lambda: rig.halts() == ["jam", "done"])
            await asyncio.sleep(1.0)  # any card more would be out by now
            assert model.cards_out == 3
            assert rig.counted() == 3
            assert rig.ejector.owed == 0

    virtual_loop.run(main())
