"""The board double (pico_double.py) lets out only the cards a Pico would: the real firmware
under MicroPython, its mechanics on their own clock, at the moments where a double can go
wrong. Real time; every wait is bounded by progress."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

from hardware.clock import LoopClock
from hardware.ejector import CardCounted, Report
from hardware.serial_ejector import SerialEjector
from tests.firmware.pico_double import PicoDouble

FROZEN = 0.5  # seconds the firmware's process stands frozen
CUT_AFTER = 0.3  # seconds into the freeze the power goes


async def _until(done: Callable[[], bool], pico: PicoDouble, within: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while not done():
        assert pico.failed is None, pico.failed
        assert loop.time() < end, f"not within {within} s"
        await asyncio.sleep(0.02)


def test_a_power_cut_while_the_main_loop_has_interrupts_off_lets_no_card_past(tmp_path: Path):
    """The firmware's process is frozen just as its main loop disables interrupts to stop the
    roller (the host has not kept the first card), and the power goes while it is frozen.
    On a board interrupts are off for microseconds: the main loop's stop takes effect, or
    the gate's stop at the next card's front does. The host counts the one card it let go;
    the next dispense, asked after the reset, deals one more and waits for its KEPT."""

    async def main() -> tuple[int, int]:
        pico = PicoDouble(seed=5, log=tmp_path / "firmware.log")
        reports: list[Report] = []
        clock = LoopClock(asyncio.get_running_loop())
        # The record never keeps a card: the firmware lets one go, then waits at the next.
        host = SerialEjector(pico.port, clock=clock, on_report=reports.append, kept=lambda _: False)
        frozen: list[bool] = []

        def on_hold() -> None:
            driving = pico.model.motor_speed > 0.99
            if frozen or not driving or pico.model.cards_out < 1:
                return
            frozen.append(True)
            pico.freeze(FROZEN)
            threading.Timer(CUT_AFTER, pico.power_cut).start()

        try:
            await _until(lambda: host.link_up, pico)
            pico.on_hold = on_hold
            host.dispense(3)
            await _until(lambda: host.resets > 0, pico)

            def counted() -> int:
                return sum(isinstance(r, CardCounted) for r in reports)

            await _until(lambda: counted() >= 2, pico)
            return counted(), pico.cards_out
        finally:
            host.close()
            pico.close()

    counted, out = asyncio.run(main())
    assert (counted, out) == (2, 2)
