"""The real firmware, through its own main.py, under MicroPython's unix port, on a board double
(tests/firmware/pico_double.py), talking to the host's serial ejector: stalled 100 to 300 ms
at random moments of its dispenses, its main loop or its whole process, with power cuts
among them, no card leaves past the host's count.

This runs in real time (the interpreter keeps the machine's clock), so it deals a share of
what bench/stalls.py deals (1,000 dispenses): enough for stalls of both kinds and cuts to
land at every moment of a card's way. Waits are bounded by progress: a loaded machine makes
it slower, not flaky; the mechanics apply what an interrupt does at its edge's time, and
what the main loop writes at the moment it was written (pico_double.py).

The mechanics' own thread is starved now and then besides (`starved`), as a loaded machine
does: they fall behind the machine's clock, and the firmware's clock, which is theirs, with
them (board_double/ticks.py), so the run shows what a Pico would, not what the load does.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from hardware.clock import LoopClock, Timer
from tests.firmware.pico_double import PicoDouble
from tests.hardware.stalled_dealing import run_dealing

# Its tests take long in all: the file starts first (tests/conftest.py).
pytestmark = pytest.mark.long

DISPENSES = 40
CUT_RATE = 0.15
STARVED = (0.02, 0.15)  # seconds the mechanics' thread goes without the processor
STARVED_EVERY = 0.3  # seconds between two starvings, on average


def deal(
    dispenses: int, seed: int, log: Path, cut_rate: float = CUT_RATE, *, starved: bool = True
) -> list[str]:
    """Runs the dispenses on the firmware under MicroPython; returns the tally's lines and
    problems."""

    async def main() -> list[str]:
        pico = PicoDouble(seed, log)
        clock = LoopClock(asyncio.get_running_loop())
        rng = random.Random(seed)
        starving: list[Timer] = []

        def starve() -> None:
            pico.starve(rng.uniform(*STARVED))
            starving[:] = [clock.call_at(clock.now() + rng.expovariate(1 / STARVED_EVERY), starve)]

        if starved:
            starve()
        try:
            lines = await run_dealing(pico, clock, seed, dispenses, cut_rate)
        finally:
            for timer in starving:
                timer.cancel()
            pico.close()
        assert pico.failed is None, pico.failed
        return lines

    return asyncio.run(main())


def test_the_firmware_under_micropython_stalled_at_random_moments_never_lets_a_card_past(
    tmp_path,
):
    lines = deal(DISPENSES, seed=3, log=tmp_path / "firmware.log")
    numbers = [int(word.strip(",")) for word in lines[0].split() if word.strip(",").isdigit()]
    assert numbers[0] == DISPENSES and min(numbers[1:]) > 0, lines  # stalls of each kind, cuts
    assert lines[3:] == [], "\n".join(lines)
    assert " past the count 0, jams 0" in lines[1], lines
