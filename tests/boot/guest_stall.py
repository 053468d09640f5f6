"""A dispense by the table's own launcher on the guest's GPIO chip, its event loop stalled near
the end: run in the guest by the installed table's Python (its `hardware` package and
gpiozero), the daemon stopped, beside the launcher's model (tests/boot/guest_pins.py
`launcher`), which turns the motor's line into beam edges through the kernel. The input, the
ejector and its lease are wired as the daemon wires them (controller/shell/launcher_link.py),
the loop's side of the beam's edges as its inbox does.

    guest_stall.py SPEC   (JSON) `cards` asked; the loop stalled `stall` s once `at_card`
                          cards are counted; prints the cards counted (one past the count
                          too) and the halts
"""

import asyncio
import json
import sys
import time

from gpiozero import Motor

from hardware.clock import LoopClock
from hardware.ejector import CardCounted, Halted
from hardware.gpio_ejector import LEASE, GpioEjector
from hardware.gpiod_pins import GpiodFactory
from hardware.inputs import EdgeInput
from hardware.motor_lease import MotorLease


async def dispense(spec: dict) -> dict:
    loop = asyncio.get_running_loop()
    factory = GpiodFactory(spec["chip"])
    motor = Motor(spec["forward"], spec["backward"], pwm=True, pin_factory=factory)
    reports: list = []
    finished = asyncio.Event()
    stalled: list[float] = []

    def reported(report) -> None:
        reports.append(report)
        counted = sum(isinstance(r, CardCounted) for r in reports)
        if isinstance(report, CardCounted) and counted == spec["at_card"] and not stalled:
            loop.call_soon(stall)
        if isinstance(report, Halted):
            loop.call_later(LEASE * 4, finished.set)  # cards past the count come after

    def stall() -> None:
        stalled.append(time.monotonic())
        time.sleep(spec["stall"])  # the loop does nothing else meanwhile

    def edge(role: str, active: bool, at: float) -> None:
        loop.call_soon_threadsafe(ejector.edge, role, active, at)

    beam = EdgeInput(spec["beam"], role="launcher.beam", on_edge=edge, pin_factory=factory)
    ejector = GpioEjector(
        motor,
        clock=LoopClock(loop),
        on_report=reported,
        beam_clear=lambda: bool(beam.is_active),
        lease=MotorLease(motor.stop),
    )
    beam.on_pin_thread = ejector.beam_edge_now
    # gpio-sim takes the bias the input asks for as the line's level until the model, a pass
    # later, drives it back: a blink of the beam, whose edges reach the ejector before the
    # dispense (no wait on a clear beam: a card the gate stopped stays in it).
    await asyncio.sleep(1.0)
    try:
        ejector.dispense(spec["cards"])
        await asyncio.wait_for(finished.wait(), 300)
    finally:
        ejector.close()
        beam.close()
        motor.close()
        factory.close()
    return {
        "counted": sum(isinstance(r, CardCounted) for r in reports),  # a card past, too
        "halts": [r.reason for r in reports if isinstance(r, Halted)],
        "stalled": bool(stalled),
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(dispense(json.loads(sys.argv[1])))))
