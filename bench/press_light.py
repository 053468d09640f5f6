"""Press → light: from a button's edge to a light changing, in real time, beside its floors.

The daemon is built by `flashtable run --sim`'s own code, on its own loop (simulated pins,
the loop's real clock, its state directory, its log at info level, written here to
/dev/null); a driver thread presses the buttons as a GPIO backend's thread would. A press is
answered at the moment a seat light's pin changes level for a new pattern, as a player sees
it (ending a turn: the pressed light dims or the next one starts its pulse, whichever pin
moves first).

The baselines are taken between the presses, on the same loop, so that both see the same
moments of a shared machine: with each press, just before or just after it at random, the
driver takes one sample of a floor, in turn a bare thread → event-loop hand-off
(`call_soon_threadsafe` to a callback: the floor for any asyncio daemon) and a gpiozero
button whose callback hands the press to the loop, where a callback lights an LED (the
least an asyncio daemon on gpiozero can do); and a bare gpiozero callback lighting an LED
on the pin's own thread (no loop at all). Each sample, floor or press, comes once the
daemon has handled all it was handed (and worked out its answers to the next press,
controller.shell.answers), 1-2 ms later at a random moment, so that the loop is asleep again, as
it is when a player presses.

A timeout is timed from the moment the daemon is due to decide it (the turn's deadline
plus the grace that lets an earlier edge cross the thread border first) to the timed-out
seat's flash; its floor is a bare loop timer's lateness, sampled with the hand-off all
through the turns that run out. Quiet, then with two CPU hogs.
Usage: python bench/press_light.py [presses to claim a seat] [timeouts] [turns ended]
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from figures import hogs, ms_line, spread
from gpiozero import PWMLED, Button

from controller.commands.run import build_daemon, run_on_table_loop
from controller.config import Config
from controller.game import Phase
from controller.settings import Settings
from controller.shell.daemon import REAL_TIME_GRACE, Daemon
from hardware.animator import SEEN  # the least step of a light's level a player sees
from hardware.clock import LoopClock
from hardware.debounce import DEBOUNCE_WINDOW
from hardware.patterns import Pattern
from hardware.sim.pins import SimFactory, SimPin

SEATS = 8
# A tap this short (the driver lets go once the light shows) is a press and a release inside
# the 15 ms lockout: the daemon counts the release once the window has passed, plus the
# grace for edges still crossing. A seat's next press comes after that, with room, as any
# finger's would, so that it finds its answer worked out (controller.shell.answers).
SAME_SEAT_GAP = DEBOUNCE_WINDOW + REAL_TIME_GRACE + 0.005
GAP = (0.001, 0.002)  # seconds from one answer to the next sample: the loop asleep again
WAIT = 2.0  # longest wait for a light before the press counts as lost
TIMER_AHEAD = (0.002, 0.005)  # how far ahead a floor timer is set
QUIET_BEFORE = 0.05  # no floor samples this close to a timeout: the driver watches for it


def pause() -> None:
    time.sleep(random.uniform(*GAP))


class Floors:
    """The baselines, each sample taken by the driver thread between the daemon's samples."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.hand_off: list[float] = []
        self.via_loop: list[float] = []  # gpiozero -> loop -> LED
        self.bare: list[float] = []  # gpiozero -> LED on the pin's thread
        self.timer: list[float] = []  # a loop timer's lateness
        self._done = threading.Event()
        self._stamp = 0.0
        self._turn = 0
        # Pins of their own (the daemon's factory keeps its pins), on the loop's clock.
        self._factory = SimFactory(LoopClock(loop))
        self._bare_button = Button(2, pin_factory=self._factory)
        self._bare_led = PWMLED(3, pin_factory=self._factory)
        self._bare_button.when_pressed = self._bare_led.on
        self._bare_button.when_released = self._bare_led.off
        self._loop_button = Button(14, pin_factory=self._factory)
        self._loop_led = PWMLED(15, pin_factory=self._factory)
        self._loop_button.when_pressed = lambda: loop.call_soon_threadsafe(self._loop_led.on)
        self._loop_button.when_released = lambda: loop.call_soon_threadsafe(self._loop_led.off)
        for led in (self._bare_led, self._loop_led):
            led.pin.listeners.append(self._answered)

    def _answered(self, level: float = 0.0) -> None:
        self._stamp = time.monotonic()
        self._done.set()

    def _timed(self, start: Callable[[], None]) -> float:
        self._done.clear()
        begin = time.monotonic()
        start()
        if not self._done.wait(WAIT):
            raise RuntimeError("a floor sample was never answered")
        return self._stamp - begin

    def take(self) -> None:
        """One sample of the bare callback, and one of the two loop floors in turn."""
        pin = self._bare_button.pin
        self.bare.append(self._timed(pin.drive_low))
        pin.drive_high()
        self._turn += 1
        if self._turn % 2:
            self.hand_off.append(
                self._timed(lambda: self.loop.call_soon_threadsafe(self._answered))
            )
            return
        pin = self._loop_button.pin
        self.via_loop.append(self._timed(pin.drive_low))
        self._done.clear()
        pin.drive_high()  # its LED goes off on the loop, before the next sample is taken
        if not self._done.wait(WAIT):
            raise RuntimeError("a floor sample was never answered")

    def take_timer(self) -> None:
        """A loop timer set a few ms ahead: how late its callback runs."""
        ahead = random.uniform(*TIMER_AHEAD)
        fired = threading.Event()
        late = [0.0]

        def set_timer() -> None:
            due = self.loop.time() + ahead

            def run() -> None:
                late[0] = self.loop.time() - due
                fired.set()

            self.loop.call_at(due, run)

        self.loop.call_soon_threadsafe(set_timer)
        if not fired.wait(WAIT + ahead):
            raise RuntimeError("a floor timer never ran")
        self.timer.append(late[0])

    def close(self) -> None:
        self._factory.close()


class Bench:
    """The daemon on the loop, and a driver thread's view of it."""

    def __init__(self, daemon: Daemon, floors: Floors | None = None):
        self.daemon = daemon
        self.loop = asyncio.get_running_loop()  # made on the daemon's loop
        self.floors = floors  # sampled beside each press, if given
        self.changed = threading.Event()
        self.watching = False
        self.before: dict[int, Pattern] = {}
        self.stamp = 0.0
        self.last_edge = {seat: 0.0 for seat in range(1, SEATS + 1)}
        self.lost = 0  # presses whose light never changed
        self.restarts = 0  # rounds started again after a press the daemon saw as a hold
        self.level: dict[int, float] = {}
        for seat, light in daemon.board.lights.items():
            pin: SimPin = light.pin
            self.level[seat] = pin.state
            pin.listeners.append(lambda level, seat=seat: self._pin_changed(seat, level))

    def _pin_changed(self, seat: int, level: float) -> None:
        # On the loop, as a light's pin changes level. It counts when the step is one a player
        # sees and the light shows a new pattern (an old pattern's blinks and pulse frames
        # before the answer do not).
        seen = abs(level - self.level[seat]) >= SEEN
        self.level[seat] = level
        if seen and self.watching and self.daemon.board.lights[seat].pattern != self.before[seat]:
            self.stamp = time.monotonic()
            self.watching = False
            self.changed.set()

    def watch(self) -> None:
        """From now, stamp the first light pin that changes for a new pattern."""
        self.changed.clear()
        self.before = {seat: light.pattern for seat, light in self.daemon.board.lights.items()}
        self.watching = True

    def button(self, name: str) -> SimPin:
        return self.daemon.board.inputs[name].pin

    def tap(self, name: str) -> None:
        pin = self.button(name)
        pin.drive_low()
        time.sleep(0.02)
        pin.drive_high()
        time.sleep(0.02)

    def settle(self) -> None:
        """Until the daemon has handled all it was handed and worked out its answers to the
        next press (a player's comes long after), then a pause: the loop asleep."""
        asyncio.run_coroutine_threadsafe(self._settled(), self.loop).result(WAIT)
        pause()

    async def _settled(self) -> None:
        await self.daemon.idle()
        await self.daemon.answers.ready()

    def floor(self) -> None:
        """A floor sample, if the bench takes them."""
        if self.floors is not None:
            self.settle()
            self.floors.take()

    def press_and_time(self, seat: int) -> float | None:
        """A press of `seat`'s button, with a floor sample before or after it at random (so
        that neither follows the other's work more often): seconds until its light shows a
        new pattern, None if never."""
        floor_first = random.random() < 0.5
        if floor_first:
            self.floor()
        time.sleep(max(0.0, self.last_edge[seat] + SAME_SEAT_GAP - time.monotonic()))
        self.settle()
        self.watch()
        pin = self.button(f"seat{seat}")
        start = time.monotonic()
        pin.drive_low()
        changed = self.changed.wait(WAIT)
        pin.drive_high()
        self.last_edge[seat] = time.monotonic()
        if not floor_first:
            self.floor()
        if not changed:
            self.lost += 1
            return None
        return self.stamp - start

    def lit(self) -> int | None:
        """The seat whose turn it is, once its light shows it (pulse; a blink for a seat lit
        again; a fast blink in the last seconds)."""
        table = self.daemon.table
        if table.phase is not Phase.TURN or table.turn is None:
            return None
        seat = table.turn.seat
        moving = (Pattern.PULSE, Pattern.BLINK, Pattern.BLINK_FAST)
        return seat if self.daemon.board.lights[seat].pattern in moving else None

    def wait_lit(self, between: Callable[[], None] = lambda: time.sleep(0.001)) -> int:
        """The seat lit next; `between` runs while the driver waits for it."""
        deadline = time.monotonic() + 10
        while (seat := self.lit()) is None:
            if time.monotonic() > deadline:
                raise RuntimeError("no seat is lit")
            if self.daemon.table.phase in (Phase.ROUND_OVER, Phase.PAUSED):
                # A release the daemon never saw made a press a hold: the round ended.
                self.restarts += 1
                time.sleep(SAME_SEAT_GAP)
                self.tap("play_pause")
            between()
        return seat


def kept(samples: Iterable[float | None]) -> list[float]:
    return [s for s in samples if s is not None]


def claim(bench: Bench, presses: int) -> list[float]:
    """Seating: each press claims a seat (or releases it again), in turn round the table."""
    return kept(bench.press_and_time(1 + n % SEATS) for n in range(presses))


def start_round(bench: Bench) -> None:
    """Every seat claimed, Play/Pause: a round of 8 begins."""
    for seat in range(1, SEATS + 1):
        bench.press_and_time(seat)
    time.sleep(SAME_SEAT_GAP)
    bench.tap("play_pause")


def end_turn(bench: Bench, presses: int) -> list[float]:
    """The lit player ends their turn, the next is lit at once."""
    start_round(bench)
    return kept(bench.press_and_time(bench.wait_lit()) for _ in range(presses))


def timeouts(bench: Bench, count: int) -> list[float]:
    """The lit player never presses: from the moment the timeout is due to the flash. The
    floors are sampled all the while, up to a moment before each timeout is due."""
    start_round(bench)
    floors = bench.floors
    assert floors is not None

    def sample() -> None:
        bench.settle()
        floors.take_timer()
        bench.settle()
        floors.take()

    samples = []
    for _ in range(count):
        bench.wait_lit(sample)
        turn = bench.daemon.table.turn
        assert turn is not None and turn.deadline is not None
        due = turn.deadline + REAL_TIME_GRACE
        bench.watch()
        while time.monotonic() < due - QUIET_BEFORE:
            sample()
        if not bench.changed.wait(due - time.monotonic() + WAIT):
            raise RuntimeError("the timeout never showed")
        samples.append(bench.stamp - due)  # the notice follows: `wait_lit` samples through it
    return samples


async def build(settings: dict[str, object], state_dir: Path) -> tuple[Daemon, asyncio.Task]:
    config = Config(seats=SEATS, settings=Settings(settings))
    daemon = build_daemon(config, state_dir, simulated=True, seed=1)
    task = asyncio.create_task(daemon.run())
    await asyncio.sleep(0.05)
    return daemon, task


async def scenario(
    settings: dict[str, object], run: Callable[[Bench], list[float]]
) -> tuple[list[float], Floors]:
    """The daemon's figures from `run`, and the floors taken in the same moments."""
    loop = asyncio.get_running_loop()
    floors = Floors(loop)
    with tempfile.TemporaryDirectory() as state_dir:
        daemon, task = await build(settings, Path(state_dir))
        try:
            bench = Bench(daemon, floors)
            start = time.monotonic()
            figures = await asyncio.to_thread(run, bench)
            took = time.monotonic() - start
        finally:
            daemon.stop()
            await task
            floors.close()
    if bench.lost or bench.restarts:
        print(
            f"  ({bench.lost} presses whose light never changed within {WAIT:.0f} s; "
            f"{bench.restarts} rounds ended by a press seen as a hold)"
        )
    print(f"  ({took:.0f} s)", flush=True)
    return figures, floors


def ratios(figures: list[float], floor: list[float]) -> str:
    (p50, p99, _), (f50, f99, _) = spread(figures), spread(floor)
    return f"p50 {p50 / f50:.1f}x, p99 {p99 / f99:.2f}x"


def report(load: str, name: str, figures: list[float], floors: Floors) -> None:
    print(f"[{load}] {ms_line(name, figures)}")
    if name == "timeout":
        print(f"[{load}]   {ms_line('loop timer lateness', floors.timer)}")
    print(f"[{load}]   {ms_line('thread -> loop hand-off', floors.hand_off)}")
    print(f"[{load}]   {ms_line('gpiozero -> loop -> LED', floors.via_loop)}")
    print(f"[{load}]   {ms_line('bare gpiozero callback', floors.bare)}")
    print(f"[{load}]   against the hand-off: {ratios(figures, floors.hand_off)}")
    print(f"[{load}]   against gpiozero -> loop -> LED: {ratios(figures, floors.via_loop)}")
    if name == "timeout":
        print(f"[{load}]   against the loop timer: {ratios(figures, floors.timer)}")


async def measure(presses: int, count: int, turns: int) -> None:
    # The fair picker: a seat lit twice in a row is rare (its press waits out the debounce).
    quiet = {"mode": "flash", "sleep_time": "off", "turn_timer": "off", "picker": "fair"}
    timed = {**quiet, "turn_timer": 2, "timeout_penalty": 0}
    cases = [
        (presses, "claim a seat", quiet, lambda b: claim(b, presses)),
        (turns, "end a turn", quiet, lambda b: end_turn(b, turns)),
        (count, "timeout", timed, lambda b: timeouts(b, count)),
    ]
    for load, hogging in (("quiet", 0), ("two CPU hogs", 2)):
        with hogs(hogging):
            for samples, name, settings, run in cases:
                if not samples:
                    continue
                figures, floors = await scenario(settings, run)
                report(load, name, figures, floors)


def main() -> None:
    # As `flashtable run` logs: every game event at info level, formatted and written.
    logging.basicConfig(
        level=logging.INFO,
        stream=open(os.devnull, "w"),  # noqa: SIM115 - open for the whole run
        format="%(levelname)s %(name)s: %(message)s",
    )
    presses = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    turns = int(sys.argv[3]) if len(sys.argv) > 3 else presses
    run_on_table_loop(measure(presses, count, turns))


if __name__ == "__main__":
    main()
