"""The launcher firmware as `flashtable firmware-sim` runs it, stalled 100 to 300 ms at random
moments of its dispenses, with power cuts among them: no card leaves past the host's count.

The firmware's gate (firmware/gate.py) stops the motor from the beam's interrupt and its
timer, so a main loop that stalls while the host's KEPT is late holds the next card at the
beam, and the mechanics, on their own clock (hardware/sim/physics_clock.py), turn on through
a stall as a real roller does. Virtual time (tests/virtual_loop.py): a stall is exactly as
long as drawn, and a loaded machine cannot make the run flaky. bench/stalls.py runs the same
for 1,000 dispenses, here and on the real firmware under MicroPython, and prints the counts.
"""

from __future__ import annotations

import asyncio

from hardware.clock import LoopClock
from hardware.sim.firmware_port import FirmwarePort
from hardware.sim.machine import PWRON_RESET
from tests import virtual_loop
from tests.hardware.stalled_dealing import run_dealing
from tests.virtual_loop import VirtualTimeLoop

DISPENSES = 1000
CUT_RATE = 0.1


class SimulatedLauncher:
    """`flashtable firmware-sim`'s firmware and model on a pseudo-terminal, in this loop."""

    def __init__(self, loop: VirtualTimeLoop, seed: int) -> None:
        self._loop = loop
        self._port = FirmwarePort()
        self.port = self._port.port
        self.firmware = self._port.start(clock=LoopClock(loop), seed=seed, cards=1_000_000)
        self._stops = 0  # the gate's stops in the firmware's starts before this one

    @property
    def cards_out(self) -> int:
        # The mechanics' clock is caught up to now first: a card may have left since it ran.
        self.firmware.physics.catch_up()
        return self.firmware.model.cards_out

    failed = None  # CPython raises in the test's own loop

    @property
    def gate_stops(self) -> int:
        return self._stops + self.firmware.board.gate.stops

    def stall(self, seconds: float) -> None:
        self.firmware.stall(seconds)

    def freeze(self, seconds: float) -> None:
        # The loop runs nothing for `seconds`: every timer that fell due meanwhile runs late.
        self._loop.virtual += seconds

    def power_cut(self) -> None:
        self._stops = self.gate_stops
        self.firmware.reset(PWRON_RESET)

    def close(self) -> None:
        self._port.close()


def deal(dispenses: int, seed: int, cut_rate: float = CUT_RATE) -> list[str]:
    """Runs the dispenses on firmware-sim in virtual time; returns the tally's lines and
    problems."""

    async def main() -> list[str]:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, VirtualTimeLoop)
        launcher = SimulatedLauncher(loop, seed)
        try:
            return await run_dealing(launcher, LoopClock(loop), seed, dispenses, cut_rate)
        finally:
            launcher.close()

    result: list[str] = virtual_loop.run(main())
    return result


def test_firmware_sim_stalled_at_random_moments_never_lets_a_card_past_the_hosts_count():
    """1,000 dispenses of 1 to 8 cards, each with a stall of the firmware's main loop or of its
    whole process at a random moment, a power cut in one of ten: every dispense deals what the
    host counts, or one card fewer where a cut came before the KEPT of a card that had not
    left; and the gate did stop the motor itself, where a stall hid the main loop's stop."""
    lines = deal(DISPENSES, seed=7)
    numbers = [int(word.strip(",")) for word in lines[0].split() if word.strip(",").isdigit()]
    assert numbers[0] == DISPENSES and min(numbers[1:]) > DISPENSES // 20, lines  # each kind
    problems = lines[3:]
    assert problems == [], "\n".join(lines)
    assert " past the count 0, jams 0" in lines[1], lines
    assert int(lines[2].split()[-2]) > DISPENSES // 20, lines
