"""A stalled event loop cannot keep the launcher's motor running: the motor's lease stops it
within LEASE of the loop's last attention, and every card that came out is counted, the ones
still owed and any the stall let out past the count.

This runs in real time, as a stall is real: the launcher's mechanics run in a thread of their
own (as the real roller turns whatever the daemon does), feeding cards while the motor drives
forwards and handing each beam edge to the loop with its own time, as gpiozero's thread does.
The loop is stalled by a callback that blocks it, at a random card of each dispense.
"""

import asyncio
import random
import threading
import time

import pytest
from gpiozero import Motor
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.clock import LoopClock
from hardware.ejector import CardCounted, Halted
from hardware.gpio_ejector import HEARTBEAT, LEASE, GpioEjector
from hardware.motor_lease import MotorLease

CARD_CYCLE = 0.125  # seconds per card at full drive: 8 cards a second
IN_BEAM = 0.25  # the part of a cycle a card blocks the beam
STEP = 0.001  # the mechanics' time step
# A thread's wake-up on a loaded machine may be this late; the lease's own bound is LEASE.
SCHEDULING = 0.15


class Roller(threading.Thread):
    """Cards out of the hopper while the motor drives forwards; the beam's edges, with their
    own times, handed to `on_edge` (from this thread)."""

    def __init__(self, motor: Motor, on_edge) -> None:
        super().__init__(daemon=True)
        self.motor = motor
        self.on_edge = on_edge
        self.phase = 0.0  # of the card on its way: 1.0 is out of the slot
        self.out = 0
        self.beam_clear = True
        self.stops: list[float] = []  # when the motor stopped driving forwards
        self.done = threading.Event()

    def run(self) -> None:
        forward, value, last = False, 0.0, time.monotonic()
        while not self.done.is_set():
            time.sleep(STEP)
            now = time.monotonic()
            # The roller turns in real time however late this thread wakes (a loaded
            # machine): the drive since the last look moves the card on, in steps of STEP,
            # and each beam edge crossed meanwhile is handed on with the time it came at.
            steps = max(1, round((now - last) / STEP))
            for step in range(1, steps + 1):
                self._turn(value * (now - last) / steps, last + (now - last) * step / steps)
            value, last = self.motor.value, now
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
            self.on_edge(self.beam_clear, at)


async def dispense_with_a_stall(cards: int, stall: float, at_card: int) -> dict:
    loop = asyncio.get_running_loop()
    factory = MockFactory(pin_class=MockPWMPin)
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

    lease = MotorLease(motor.stop)
    roller = Roller(motor, lambda clear, t: loop.call_soon_threadsafe(ejector.beam, clear, t))
    ejector = GpioEjector(
        motor,
        clock=LoopClock(loop),
        on_report=reported,
        beam_clear=lambda: roller.beam_clear,
        lease=lease,
    )
    roller.start()
    try:
        ejector.dispense(cards)
        await asyncio.wait_for(finished.wait(), 60)
    finally:
        ejector.close()
        roller.done.set()
        roller.join()
        motor.close()
    return {
        "asked": cards,
        "out": roller.out,
        "counted": sum(isinstance(r, CardCounted) for r in reports),
        "halts": [r.reason for r in reports if isinstance(r, Halted)],
        "stalled": stalled[0],
        "stops": roller.stops,
    }


@pytest.mark.parametrize("stall", [0.1, 0.5, 2.0])
def test_a_stalled_loop_stops_the_motor_within_its_lease_and_no_card_goes_uncounted(stall):
    rng = random.Random(int(stall * 10))
    for _ in range(2):
        cards = rng.randint(3, 8)
        result = asyncio.run(dispense_with_a_stall(cards, stall, rng.randint(1, cards - 1)))
        assert result["halts"] == ["done"], result
        assert result["counted"] == result["out"] >= cards, result
        if stall > LEASE + HEARTBEAT + SCHEDULING:
            # The loop's last attention came before the stall: the motor stopped within the
            # lease from there, while the loop was still stalled.
            during = [t for t in result["stops"] if t >= result["stalled"]]
            assert during and during[0] - result["stalled"] <= LEASE + SCHEDULING, result
