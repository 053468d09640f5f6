"""A stalled event loop cannot keep the launcher's motor running, nor let a card past the count
asked: the beam's edges reach the ejector's gate on the pin's own thread, which stops the
motor at a card beyond the count allowed, and the motor's lease stops it within LEASE of the
loop's last attention. Every card that came out is counted, and they are the cards asked for.

This runs in real time, as a stall is real: the launcher's mechanics run in a thread of their
own (as the real roller turns whatever the daemon does), feeding cards while the motor drives
forwards and driving the beam's pin with each edge's own time, so that the beam's input calls
back on that thread, as gpiozero's backend does on a Pi; the input is wired as the daemon
wires it (controller/shell/launcher_link.py). The loop is stalled by a callback that blocks
it, at a random card of each dispense.
"""

import asyncio
import random
import threading
import time

import pytest
from gpiozero import Motor

from hardware.clock import LoopClock
from hardware.ejector import CardCounted, Halted
from hardware.gpio_ejector import HEARTBEAT, LEASE, GpioEjector
from hardware.inputs import EdgeInput
from hardware.motor_lease import MotorLease
from hardware.sim.pins import SimFactory, SimPin

# Its tests take long in all: the file starts first (tests/conftest.py).
pytestmark = pytest.mark.long

CARD_CYCLE = 0.125  # seconds per card at full drive: 8 cards a second
IN_BEAM = 0.25  # the part of a cycle a card blocks the beam
STEP = 0.001  # the mechanics' time step
# A thread's wake-up on a loaded machine may be this late; the lease's own bound is LEASE.
SCHEDULING = 0.15


BEAM = 26


class Roller(threading.Thread):
    """Cards out of the hopper while the motor drives forwards; the beam's pin driven (from
    this thread) at each edge's own time: low while the beam is clear."""

    def __init__(self, motor: Motor, beam: SimPin) -> None:
        super().__init__(daemon=True)
        self.motor = motor
        self.beam = beam
        beam.drive_low()
        self.phase = 0.0  # of the card on its way: 1.0 is out of the slot
        self.out = 0
        self.beam_clear = True
        self.stops: list[float] = []  # when the motor stopped driving forwards
        self.done = threading.Event()
        # The time up to which the mechanics have moved and their beam edges are handed on.
        # A real launcher moves whatever its threads do and the kernel stamps its edges; this
        # thread, kept from the CPU on a loaded machine, is behind the clock instead, and the
        # edges of that time are "on their way", as they are in the kernel's buffer on a Pi.
        self.moved_until = time.monotonic()

    def run(self) -> None:
        forward, value, last = False, 0.0, time.monotonic()
        while not self.done.is_set():
            time.sleep(STEP)
            now = time.monotonic()
            # The roller turns in real time however late this thread wakes (a loaded
            # machine): the drive since the last look moves the card on, in steps of STEP,
            # and each beam edge crossed meanwhile is handed on with the time it came at. An
            # edge may stop the motor there and then (the ejector's gate, on this thread):
            # the steps after it turn with the drive it left.
            steps = max(1, round((now - last) / STEP))
            for step in range(1, steps + 1):
                before = self.motor.value
                self._turn(value * (now - last) / steps, last + (now - last) * step / steps)
                if self.motor.value != before:
                    value = self.motor.value
            value, last = self.motor.value, now
            self.moved_until = now
            if forward and value <= 0:
                self.stops.append(now)
            forward = value > 0

    def _turn(self, drive_seconds: float, at: float) -> None:
        self.phase = max(0.0, self.phase + drive_seconds / CARD_CYCLE)
        in_beam = self.phase >= 1.0 - IN_BEAM
        if self.phase >= 1.0:
            self.phase, in_beam = 0.0, False
            self.out += 1
        if in_beam != (not self.beam_clear):
            self.beam_clear = not in_beam
            (self.beam.drive_low if self.beam_clear else self.beam.drive_high)(at)


async def dispense_with_a_stall(cards: int, stall: float, at_card: int) -> dict:
    loop = asyncio.get_running_loop()
    clock = LoopClock(loop)
    factory = SimFactory(clock)  # its pins' edge times: the monotonic clock, as the loop's
    motor = Motor(5, 6, pin_factory=factory)
    reports: list = []
    finished = asyncio.Event()
    stalled: list[float] = []

    def reported(report) -> None:
        reports.append(report)
        counted = [r for r in reports if isinstance(r, CardCounted) and r.owed >= 0]
        if isinstance(report, CardCounted) and len(counted) == at_card and not stalled:
            loop.call_soon(stall_now)
        if isinstance(report, Halted):
            loop.call_later(LEASE * 2, finished.set)  # cards past the count come after

    def stall_now() -> None:
        stalled.append(time.monotonic())
        time.sleep(stall)  # the loop does nothing else meanwhile

    def edge(role: str, active: bool, t: float) -> None:
        loop.call_soon_threadsafe(ejector.edge, role, active, t)  # the daemon's inbox

    roller = Roller(motor, factory.pin(BEAM))  # the beam clear to begin with
    beam = EdgeInput(BEAM, role="launcher.beam", on_edge=edge, pin_factory=factory)
    ejector = GpioEjector(
        motor,
        clock=clock,
        on_report=reported,
        beam_clear=lambda: bool(beam.is_active),
        lease=MotorLease(motor.stop),
        edges_waiting=lambda: roller.moved_until < clock.now(),
    )
    beam.on_pin_thread = ejector.beam_edge_now
    roller.start()
    try:
        ejector.dispense(cards)
        await asyncio.wait_for(finished.wait(), 60)
    finally:
        ejector.close()
        roller.done.set()
        roller.join()
        beam.close()
        motor.close()
    return {
        "asked": cards,
        "out": roller.out,
        "counted": sum(isinstance(r, CardCounted) for r in reports),
        "halts": [r.reason for r in reports if isinstance(r, Halted)],
        "stalled": stalled[0] if stalled else None,  # none if it halted first
        "stops": roller.stops,
    }


@pytest.mark.parametrize("stall", [0.1, 0.5, 2.0])
def test_a_stalled_loop_lets_no_card_past_the_count_and_stops_the_motor_within_its_lease(stall):
    rng = random.Random(int(stall * 10))
    for _ in range(3):
        cards = rng.randint(3, 8)
        result = asyncio.run(dispense_with_a_stall(cards, stall, rng.randint(1, cards - 1)))
        assert result["halts"] == ["done"], result
        assert result["counted"] == result["out"] == cards, result
        if stall > LEASE + HEARTBEAT + SCHEDULING:
            # The loop's last attention came before the stall: the motor stopped within the
            # lease from there, while the loop was still stalled.
            during = [t for t in result["stops"] if t >= result["stalled"]]
            assert during and during[0] - result["stalled"] <= LEASE + SCHEDULING, result
