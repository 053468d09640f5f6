"""The board double (pico_double.py) lets out only the cards a Pico would: the real firmware
under MicroPython, its mechanics on their own clock, at the moments where a double can go
wrong. Real time; every wait is bounded by progress."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

from hardware.clock import LoopClock
from hardware.ejector import CardCounted, Halted, Report
from hardware.serial_ejector import SerialEjector
from tests.firmware.pico_double import PicoDouble

FROZEN = 0.5  # seconds the firmware's process stands frozen
CUT_AFTER = 0.3  # seconds into the freeze the power goes
FROZEN_LONG = 1.0
STARVED_SHORT = 0.2  # the mechanics' thread goes without the processor, then the power goes
STARVED = 1.2  # seconds the mechanics' thread goes without the processor: past the jam time


async def _until(done: Callable[[], bool], pico: PicoDouble, within: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while not done():
        assert pico.failed is None, pico.failed
        assert loop.time() < end, f"not within {within} s"
        await asyncio.sleep(0.02)


def _cut_while_frozen(
    tmp_path: Path, seed: int, on_hold: Callable[[PicoDouble], bool]
) -> tuple[int, int]:
    """The host never keeps a card (the firmware lets one go, then waits at the next) and asks
    for 3; `on_hold(pico)` is told each time the main loop disables interrupts, until it
    says it has acted (it freezes the process and cuts the power). Returns the cards the
    host counted and the cards out, once it has counted one of the dispense it asks after
    the reset."""

    async def main() -> tuple[int, int]:
        pico = PicoDouble(seed=seed, log=tmp_path / "firmware.log")
        reports: list[Report] = []
        clock = LoopClock(asyncio.get_running_loop())
        host = SerialEjector(pico.port, clock=clock, on_report=reports.append, kept=lambda _: False)
        acted: list[bool] = []

        def hold() -> None:
            if not acted and on_hold(pico):
                acted.append(True)

        def counted() -> int:
            return sum(isinstance(r, CardCounted) for r in reports)

        try:
            await _until(lambda: host.link_up, pico)
            pico.on_hold = hold
            host.dispense(3)
            await _until(lambda: host.resets > 0, pico)
            await _until(lambda: counted() >= 2, pico)
            return counted(), pico.cards_out
        finally:
            host.close()
            pico.close()

    return asyncio.run(main())


def test_a_power_cut_while_the_main_loop_has_interrupts_off_lets_no_card_past(tmp_path: Path):
    """The firmware's process is frozen just as its main loop disables interrupts to stop the
    roller after the first card, and the power goes while it is frozen. On a board
    interrupts are off for microseconds: the main loop's stop takes effect, or the gate's
    stop at the next card's front does. The host counts the one card it let go, and the
    one the dispense asked after the reset deals."""

    def freeze_and_cut(pico: PicoDouble) -> bool:
        if pico.model.motor_speed < 0.99 or pico.model.cards_out < 1:
            return False
        pico.freeze(FROZEN)
        threading.Timer(CUT_AFTER, pico.power_cut).start()
        return True

    assert _cut_while_frozen(tmp_path, 5, freeze_and_cut) == (2, 2)


def test_a_power_cut_while_the_process_is_frozen_stops_the_roller_at_the_cut(tmp_path: Path):
    """A moment into the first card's way the firmware's process is frozen, and the
    mechanics' thread starved, and then the power goes: the mechanics are carried to the
    cut, each edge's handler run once the process is back (the gate stops the second card
    at the beam), and stand there while the power goes, however long that took. The host
    counts the card after the last one kept as dealt at the cut: the cards out are its
    count or one fewer."""

    def later(pico: PicoDouble) -> None:
        pico.freeze(FROZEN_LONG)
        pico.starve(STARVED_SHORT)
        pico.power_cut()

    def soon(pico: PicoDouble) -> bool:
        pico.physics.call_at(pico.physics.now() + 0.02, lambda: later(pico))
        return True

    counted, out = _cut_while_frozen(tmp_path, 6, soon)
    assert counted == 2 and counted - 1 <= out <= counted, (counted, out)


def test_a_starved_mechanics_thread_is_no_jam(tmp_path: Path):
    """The mechanics' thread gets no processor for longer than the jam time while the roller
    runs (a loaded machine): the firmware's clock is theirs and stands with them, as a Pico's
    interrupts never lag its clock; the cards go on and none is taken for a jam."""

    async def main() -> list[Report]:
        pico = PicoDouble(seed=6, log=tmp_path / "firmware.log")
        reports: list[Report] = []
        clock = LoopClock(asyncio.get_running_loop())

        def heard(report: Report) -> None:
            if not reports:  # the first card is out: the roller runs for the second
                pico.starve(STARVED)
            reports.append(report)

        host = SerialEjector(pico.port, clock=clock, on_report=heard)
        try:
            await _until(lambda: host.link_up, pico)
            host.dispense(4)
            await _until(lambda: any(isinstance(r, Halted) for r in reports), pico)
            assert pico.cards_out == 4
            return reports
        finally:
            host.close()
            pico.close()

    reports = asyncio.run(main())
    assert [r.reason for r in reports if isinstance(r, Halted)] == ["done"]
    assert sum(isinstance(r, CardCounted) for r in reports) == 4
