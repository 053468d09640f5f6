"""The launcher firmware on its pseudo-terminal (`flashtable firmware-sim`) deals exactly what
is asked however late its process runs: the beam's edges reach the firmware with the model's
time of each edge, as the Pico's interrupt stamps them."""

from __future__ import annotations

import asyncio
import random

from hardware.clock import LoopClock
from hardware.ejector import CardCounted, Halted, Report
from hardware.serial_ejector import SerialEjector
from hardware.sim.firmware_port import FirmwarePort
from tests import virtual_loop
from tests.virtual_loop import VirtualTimeLoop

DISPENSES = 300
STALL = 0.1  # seconds the loop runs nothing
STALL_EVERY = 0.5


def stall_every(loop: VirtualTimeLoop, every: float, length: float) -> list[float]:
    """From now on, every `every` seconds the loop is stuck for `length` seconds: the time
    jumps in one callback, and every timer that fell due meanwhile runs late, as on a process
    the machine did not schedule. Returns the times the stalls began."""
    began: list[float] = []

    def stuck() -> None:
        began.append(loop.time())
        loop.virtual += length
        loop.call_at(began[-1] + every, stuck)

    loop.call_at(loop.time() + every, stuck)
    return began


def test_firmware_sim_stalled_100_ms_every_half_second_deals_exactly_what_was_asked():
    """300 dispenses of 1 to 12 cards from the firmware as `flashtable firmware-sim` runs it
    (`FirmwarePort`, on the loop's clock), with its loop stalled 100 ms every 0.5 s.

    The loop's clock is virtual (tests/virtual_loop.py): a stall is the loop running no
    callback for 100 ms of the model's time while the roller keeps turning, so the firmware's
    timers, its reads and the model's own next edge all come late, and a run of edges reaches
    the firmware at once. Virtual, so the test takes seconds and a loaded machine cannot make
    it flaky: a stall is exactly 100 ms, never more. The host (the serial ejector) shares the
    loop and stalls with it; it only asks and counts, and a late host holds the roller back,
    never lets a card more go. The cards are counted by the model's beam."""

    async def main() -> None:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, VirtualTimeLoop)
        clock = LoopClock(loop)
        port = FirmwarePort()
        firmware = port.start(clock=clock, seed=7, cards=1_000_000)
        reports: list[Report] = []
        news = asyncio.Event()

        def heard(report: Report) -> None:
            reports.append(report)
            news.set()

        ejector = SerialEjector(port.port, clock=clock, on_report=heard, first_id=1)
        while not ejector.link_up:
            await asyncio.sleep(0.05)
        stalls = stall_every(loop, STALL_EVERY, STALL)
        rng = random.Random(11)
        asked_in_all = 0
        for _ in range(DISPENSES):
            asked = rng.randint(1, 12)
            asked_in_all += asked
            before, ended = firmware.model.cards_out, len(reports)
            ejector.dispense(asked)
            while not any(isinstance(r, Halted) for r in reports[ended:]):
                news.clear()
                await news.wait()
            assert [r.reason for r in reports[ended:] if isinstance(r, Halted)] == ["done"]
            assert firmware.model.cards_out - before == asked
        assert sum(isinstance(r, CardCounted) for r in reports) == asked_in_all
        # The stalls ran all along: one every half second of the dealing.
        assert len(stalls) >= asked_in_all * 0.125 / STALL_EVERY
        ejector.close()
        await asyncio.sleep(0)
        port.close()

    virtual_loop.run(main())
