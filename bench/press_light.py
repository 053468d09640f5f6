"""Press → light: from a button's edge to a light changing, in real time.

The daemon is built by `flashtable run --sim`'s own code (simulated pins, the loop's real
clock, its state directory, its log at info level, written here to /dev/null); a driver
thread presses the buttons as a GPIO backend's thread would. A press is answered at the
moment a seat light's pin changes level for a new pattern, as a player sees it (ending a
turn: the pressed light dims or the next one starts its pulse, whichever pin moves first).
Beside it, in the same run, the two baselines: a bare gpiozero callback lighting an LED (no
event loop at all), and a bare thread → event-loop hand-off (the floor for any asyncio
daemon). Quiet, then with two CPU hogs. A timeout is timed from the moment the daemon is due
to decide it (the turn's deadline plus the grace that lets an earlier edge cross the thread
border first) to the timed-out seat's flash.
Usage: python bench/press_light.py [presses to claim a seat] [timeouts] [turns ended]
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from figures import hogs, ms_line
from gpiozero import PWMLED, Button

from controller.config import Config
from controller.daemon import REAL_TIME_GRACE, Daemon
from controller.game import Phase
from controller.run import build_daemon
from controller.settings import Settings
from hardware.clock import LoopClock
from hardware.patterns import Pattern
from hardware.sim.pins import SimFactory, SimPin

SEATS = 8
SAME_SEAT_GAP = 0.04  # a seat's next edge well after its debounce lockout and settle
WAIT = 2.0  # longest wait for a light before the press counts as lost
BASELINE_SAMPLES = 2_000  # each baseline, after each case: enough for its p99
SEEN = 0.1  # the least step of a light's level that counts as an answer a player sees


class Bench:
    """The daemon on the loop, and a driver thread's view of it."""

    def __init__(self, daemon: Daemon):
        self.daemon = daemon
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

    def press_and_time(self, seat: int) -> float | None:
        """Press `seat`'s button; seconds until its light shows a new pattern, None if never."""
        time.sleep(max(0.0, self.last_edge[seat] + SAME_SEAT_GAP - time.monotonic()))
        self.watch()
        pin = self.button(f"seat{seat}")
        start = time.monotonic()
        pin.drive_low()
        changed = self.changed.wait(WAIT)
        pin.drive_high()
        self.last_edge[seat] = time.monotonic()
        if not changed:
            self.lost += 1
            return None
        return self.stamp - start

    def lit(self) -> int | None:
        """The seat whose turn it is, once its light shows it (pulse, or fast blink in the last
        seconds)."""
        table = self.daemon.table
        if table.phase is not Phase.TURN or table.turn is None:
            return None
        seat = table.turn.seat
        moving = (Pattern.PULSE, Pattern.BLINK_FAST)
        return seat if self.daemon.board.lights[seat].pattern in moving else None

    def wait_lit(self) -> int:
        deadline = time.monotonic() + 10
        while (seat := self.lit()) is None:
            if time.monotonic() > deadline:
                raise RuntimeError("no seat is lit")
            if self.daemon.table.phase in (Phase.ROUND_OVER, Phase.PAUSED):
                # A release the daemon never saw made a press a hold: the round ended.
                self.restarts += 1
                time.sleep(SAME_SEAT_GAP)
                self.tap("play_pause")
            time.sleep(0.001)
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
    """The lit player never presses: from the moment the timeout is due to the flash."""
    start_round(bench)
    samples = []
    for _ in range(count):
        seat = bench.wait_lit()
        turn = bench.daemon.table.turn
        assert turn is not None and turn.deadline is not None
        bench.watch()
        if not bench.changed.wait(turn.deadline - time.monotonic() + WAIT):
            raise RuntimeError("the timeout never showed")
        samples.append(bench.stamp - (turn.deadline + REAL_TIME_GRACE))
        while bench.lit() == seat or bench.lit() is None:
            time.sleep(0.005)  # the notice, then the next turn
    return samples


def bare_gpiozero(clock: LoopClock, presses: int) -> list[float]:
    """A gpiozero Button whose callback lights a PWMLED, on the driver's own thread."""
    factory = SimFactory(clock)
    button, led = Button(2, pin_factory=factory), PWMLED(3, pin_factory=factory)
    lit = threading.Event()
    stamp = [0.0]

    def on_led(level: float) -> None:
        stamp[0] = time.monotonic()
        lit.set()

    led.pin.listeners.append(on_led)
    button.when_pressed, button.when_released = led.on, led.off
    samples = []
    for _ in range(presses):
        lit.clear()
        start = time.monotonic()
        button.pin.drive_low()
        lit.wait(WAIT)
        samples.append(stamp[0] - start)
        button.pin.drive_high()
    factory.close()
    return samples


def hand_off(loop: asyncio.AbstractEventLoop, presses: int) -> list[float]:
    """`loop.call_soon_threadsafe` from this thread to a callback on the loop."""
    done = threading.Event()
    stamp = [0.0]

    def arrived() -> None:
        stamp[0] = time.monotonic()
        done.set()

    samples = []
    for _ in range(presses):
        done.clear()
        start = time.monotonic()
        loop.call_soon_threadsafe(arrived)
        done.wait(WAIT)
        samples.append(stamp[0] - start)
        time.sleep(0.001)  # as between presses, so the loop is asleep when the next arrives
    return samples


async def build(settings: dict[str, object], state_dir: Path) -> tuple[Daemon, asyncio.Task]:
    config = Config(seats=SEATS, settings=Settings(settings))
    daemon = build_daemon(config, state_dir, simulated=True, seed=1)
    task = asyncio.create_task(daemon.run())
    await asyncio.sleep(0.05)
    return daemon, task


async def scenario(
    settings: dict[str, object], run: Callable[[Bench], list[float]]
) -> tuple[list[float], list[float], list[float]]:
    """(the daemon's figures, bare gpiozero, thread → loop) measured back to back."""
    loop = asyncio.get_running_loop()
    with tempfile.TemporaryDirectory() as state_dir:
        daemon, task = await build(settings, Path(state_dir))
        try:
            return await measured(Bench(daemon), loop, run)
        finally:
            daemon.stop()
            await task


async def measured(
    bench: Bench, loop: asyncio.AbstractEventLoop, run: Callable[[Bench], list[float]]
) -> tuple[list[float], list[float], list[float]]:
    """The daemon's figures from `run`, then the two baselines as many times over."""
    start = time.monotonic()
    figures = await asyncio.to_thread(run, bench)
    took = time.monotonic() - start
    if bench.lost or bench.restarts:
        print(
            f"  ({bench.lost} presses whose light never changed within {WAIT:.0f} s; "
            f"{bench.restarts} rounds ended by a press seen as a hold)"
        )
    start = time.monotonic()
    bare = await asyncio.to_thread(bare_gpiozero, LoopClock(loop), BASELINE_SAMPLES)
    floor = await asyncio.to_thread(hand_off, loop, BASELINE_SAMPLES)
    print(f"  (daemon {took:.0f} s, baselines {time.monotonic() - start:.0f} s)", flush=True)
    return figures, bare, floor


async def measure(presses: int, count: int, turns: int) -> None:
    # The fair picker: no seat twice in a row, whose "again" turn would hold the driver up.
    quiet = {"mode": "flash", "sleep_time": "off", "turn_timer": "off", "picker": "fair"}
    timed = {**quiet, "turn_timer": 2, "timeout_penalty": 0}
    cases = [
        ("claim a seat", quiet, lambda b: claim(b, presses)),
        ("end a turn", quiet, lambda b: end_turn(b, turns)),
        ("timeout", timed, lambda b: timeouts(b, count)),
    ]
    for load, hogging in (("quiet", 0), ("two CPU hogs", 2)):
        with hogs(hogging):
            for name, settings, run in cases:
                figures, bare, floor = await scenario(settings, run)
                p99 = sorted(figures)[len(figures) * 99 // 100]
                floor99 = sorted(floor)[len(floor) * 99 // 100]
                print(f"[{load}] {ms_line(name, figures)}")
                print(f"[{load}]   {ms_line('bare gpiozero callback', bare)}")
                print(f"[{load}]   {ms_line('thread -> loop hand-off', floor)}")
                print(f"[{load}]   p99 ratio to the hand-off: {p99 / floor99:.2f}x")


def main() -> None:
    # As `flashtable run` logs: every game event at info level, formatted and written.
    logging.basicConfig(
        level=logging.INFO,
        stream=open(os.devnull, "w"),  # noqa: SIM115 - open for the whole run
        format="%(levelname)s %(name)s: %(message)s",
    )
    presses = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    turns = int(sys.argv[3]) if len(sys.argv) > 3 else presses
    asyncio.run(measure(presses, count, turns))


if __name__ == "__main__":
    main()
