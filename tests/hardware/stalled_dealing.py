"""Dispenses through the host's serial ejector to a launcher firmware that stalls, with power
cuts among them, counted card by card: the run behind the stall tests and bench/stalls.py.

The host (hardware.serial_ejector) asks for 1 to LONGEST cards at a time and keeps each count
on a record that now and then lags (as a slow disk does), so the firmware often waits for a
KEPT. At a random moment of each dispense the firmware stalls for 100 to 300 ms: its main
loop (`stall`), or its whole process (`freeze`: the model of the launcher catches up after,
edge by edge). Now and then the power is cut at a random moment instead. Each dispense is
checked as it ends: the cards out of the beam equal the host's count of them, or fall one
short where a cut came while the card after the last one kept may have left (the host counts
it as dealt, whether it left or not: firmware/PROTOCOL.md, RESET).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Protocol

from hardware import serial_ejector
from hardware.clock import Clock, Timer
from hardware.ejector import CardCounted, Halted, Report
from hardware.serial_dispense import Sent, SerialDispense
from hardware.serial_ejector import SerialEjector

LONGEST = 8  # cards asked for at most
CARD_TIME = 0.14  # seconds a card takes at most at full speed
STALLS = (0.1, 0.3)  # seconds a stall lasts, at least and at most
SLOW_RECORD = 0.3  # of the counts, those whose record lags
RECORD_LAG = 0.4  # seconds a lagging record takes at most


class StallingLauncher(Protocol):
    """A launcher firmware on a port, with the mechanics behind it."""

    port: str

    @property
    def cards_out(self) -> int: ...

    @property
    def gate_stops(self) -> int:
        """How often the firmware's gate stopped the motor itself, in all its starts."""

    def stall(self, seconds: float) -> None:
        """The firmware's main loop stops for `seconds`; the mechanics go on."""

    def freeze(self, seconds: float) -> None:
        """The firmware's whole process stops for `seconds`."""

    def power_cut(self) -> None:
        """The power goes (now, or a moment later on the mechanics' own thread)."""

    @property
    def failed(self) -> str | None:
        """What went wrong in the firmware, if something did (an interrupt handler raised)."""


@dataclass
class Cut:
    """How the host judged the dispense running at a power cut."""

    let_past: int | None  # the most the controller had been let past
    counted: int  # what it took as dealt


@dataclass
class Tally:
    dispenses: int = 0
    host_counted: int = 0  # cards the host counted as dealt
    out: int = 0  # cards that left the beam
    stalls: int = 0
    freezes: int = 0
    cuts: int = 0  # power cuts during a dispense
    short: int = 0  # cards the host counted that never left: one at a cut, at most
    past: int = 0  # cards that left past the host's count
    jams: int = 0  # jams the firmware reported (resumed at once, as a person's OK)
    problems: list[str] = field(default_factory=list)  # dispenses that broke the rule

    def lines(self, gate_stops: int) -> list[str]:
        return [
            f"dispenses {self.dispenses}, stalls {self.stalls} of the main loop and "
            f"{self.freezes} of the whole process, power cuts {self.cuts}",
            f"cards the host counted {self.host_counted}, out of the beam {self.out}, "
            f"short by one at a cut {self.short}, past the count {self.past}, jams {self.jams}",
            f"the gate stopped the motor itself {gate_stops} times",
        ]


@contextmanager
def judged_cuts() -> Iterator[list[Cut]]:
    """Every reset the host judged during a dispense, while in the block."""
    judged: list[Cut] = []
    judge = serial_ejector.counted_at_reset

    def recorded(during: SerialDispense | None, kept_id: int, kept_counted: int) -> int | None:
        counted = judge(during, kept_id, kept_counted)
        if during is not None and counted is not None:
            judged.append(Cut(during.let_past, counted))
        return counted

    serial_ejector.counted_at_reset = recorded
    try:
        yield judged
    finally:
        serial_ejector.counted_at_reset = judge


class LaggingRecord:
    """The host's record of the cards owed: some counts reach it only a while later."""

    def __init__(self, clock: Clock, rng: random.Random) -> None:
        self._clock = clock
        self._rng = rng
        self._ready: dict[Sent, float] = {}
        self.ejector: SerialEjector | None = None

    def kept(self, sent: Sent) -> bool:
        now = self._clock.now()
        ready = self._ready.get(sent)
        if ready is None:
            lag = self._rng.uniform(0, RECORD_LAG) if self._rng.random() < SLOW_RECORD else 0
            ready = self._ready[sent] = now + lag
            if lag and self.ejector is not None:
                self._clock.call_at(ready, self.ejector.recheck)
        return now >= ready


class StalledDealing:
    """The host on `launcher.port`; `deal` runs the dispenses. Create it inside the loop."""

    def __init__(self, launcher: StallingLauncher, clock: Clock, seed: int) -> None:
        self.launcher = launcher
        self.clock = clock
        self.rng = random.Random(seed)
        self.record = LaggingRecord(clock, random.Random(~seed))
        self.reports: list[Report] = []
        self.news = asyncio.Event()
        self.tally = Tally()
        self.ejector = SerialEjector(
            launcher.port, clock=clock, on_report=self._heard, kept=self.record.kept
        )
        self.record.ejector = self.ejector

    def _heard(self, report: Report) -> None:
        self.reports.append(report)
        if isinstance(report, Halted) and report.reason == "jam":
            # No card sticks here: a jam is counted (the tests want none), and the firmware
            # told to go on, as a person would after a look at the slot.
            self.tally.jams += 1
            self.clock.call_at(self.clock.now(), self.ejector.resume)
        self.news.set()

    async def until(self, done: Callable[[], bool], within: float) -> None:
        start = self.clock.now()
        while not done():
            if self.launcher.failed is not None:
                raise AssertionError(self.launcher.failed)
            if self.clock.now() - start > within:
                raise AssertionError(f"not within {within} s: {self.tally}")
            self.news.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(self.news.wait(), 0.05)

    async def deal(self, dispenses: int, cut_rate: float, cuts: list[Cut]) -> Tally:
        await self.until(lambda: self.ejector.link_up, within=10.0)
        for _ in range(dispenses):
            await self._one(cut_rate, cuts)
        return self.tally

    async def _one(self, cut_rate: float, cuts: list[Cut]) -> None:
        rng, tally, launcher = self.rng, self.tally, self.launcher
        asked = rng.randint(1, LONGEST)
        before, heard, judged = launcher.cards_out, len(self.reports), len(cuts)
        resets = self.ejector.resets
        span = asked * (CARD_TIME + RECORD_LAG * SLOW_RECORD)
        cut_asked: list[bool] = []
        timers: list[Timer] = []

        def stall() -> None:
            seconds = rng.uniform(*STALLS)
            if rng.random() < 0.5:
                tally.stalls += 1
                launcher.stall(seconds)
            else:
                tally.freezes += 1
                launcher.freeze(seconds)

        def cut() -> None:
            cut_asked.append(True)
            launcher.power_cut()

        timers.append(self.clock.call_at(self.clock.now() + rng.uniform(0, span), stall))
        cutting = rng.random() < cut_rate
        if cutting:
            timers.append(self.clock.call_at(self.clock.now() + rng.uniform(0, span), cut))
        self.ejector.dispense(asked)

        def over() -> bool:
            ended = not self.ejector.busy and self.ejector.owed == 0
            return ended and (not cut_asked or self.ejector.resets > resets)

        await self.until(over, within=60.0)
        for timer in timers:
            timer.cancel()
        out = launcher.cards_out - before
        counted = sum(isinstance(r, CardCounted) for r in self.reports[heard:])
        halts = [r.reason for r in self.reports[heard:] if isinstance(r, Halted)]
        assert halts[-1:] == ["done"] and set(halts[:-1]) <= {"jam"}, halts
        assert counted == asked, (counted, asked)
        tally.dispenses += 1
        tally.host_counted += counted
        tally.out += out
        tally.past += max(0, out - counted)
        may_be_short = 0
        if len(cuts) > judged:
            tally.cuts += 1
            judgement = cuts[judged]
            # The card after the last one kept may have left before the power went, or not:
            # the host counts it as dealt, so the cards out may be one fewer than its count.
            if judgement.let_past is not None and judgement.counted == judgement.let_past + 1:
                may_be_short = 1
        if not 0 <= counted - out <= may_be_short:
            cut = cuts[judged:]
            tally.problems.append(f"{asked} asked, {counted} counted, {out} out, cut {cut}")
        tally.short += counted - out

    def close(self) -> None:
        self.ejector.close()


async def run_dealing(
    launcher: StallingLauncher, clock: Clock, seed: int, dispenses: int, cut_rate: float
) -> list[str]:
    """Deal on `launcher` and close the host; returns the tally's lines, then its problems."""
    dealing = StalledDealing(launcher, clock, seed)
    try:
        with judged_cuts() as cuts:
            tally = await dealing.deal(dispenses, cut_rate, cuts)
    finally:
        dealing.close()
        await asyncio.sleep(0)
    return [*tally.lines(launcher.gate_stops), *tally.problems]
