"""The guest's half of bench/pins.py: run in the booted tests' machine as root, with the
installed table's Python (/opt/flashtable/current/bin/python), on its GPIO chip (gpio-sim).
Each command prints one line of JSON.

    pins_guest.py cpu PINS WINDOW WINDOWS   the daemon's CPU share, idle then in a game
    pins_guest.py serve PINS SECONDS [none] the daemon, for the press -> light measurement;
                                            `none`: without its answers worked out ahead
                                            (controller/shell/answers.py); stopped by
                                            SIGTERM, it prints how many steps it made and
                                            how many of their lights it set ahead
    pins_guest.py bare SECONDS              a bare libgpiod responder: seat 1's press
                                            toggles seat 1's light, and nothing else
    pins_guest.py slap RACES SEED           SLAP races with presses 50 µs to 5 ms apart

PINS is `gpiod` (the table's own backend), `lgpio` (gpiozero's LGPIOFactory on the same
chip) or `mock` (gpiozero's mock pins: the simulated table). Presses on the chip are made as
the booted tests make them: the line's simulated pull, written in sysfs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import os
import queue
import random
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from controller.commands.run import build_daemon, run_on_table_loop
from controller.config import load
from controller.game import Press
from controller.game import slap as slap_rules
from controller.settings import Settings
from controller.shell import daemon as daemon_module
from controller.shell.answers import Answers, Lights

CONFIG = Path("/etc/flashtable/flashtable.toml")
QUIET = {"mode": "flash", "sleep_time": "off", "turn_timer": "off"}
HELD = 0.08  # a press held past the table's debounce
SEATS = range(1, 7)


def lgpio_factory(chip: object) -> Any:
    """gpiozero's lgpio factory on the chip the table would use, with the chip as its board
    (gpiozero's own board detection reads /proc and knows only Pis)."""
    os.environ.setdefault("LG_WD", tempfile.gettempdir())
    from gpiozero.pins.lgpio import LGPIOFactory

    from hardware.gpio_chip import board_info, find_chip

    found = find_chip(chip)  # type: ignore[arg-type]

    class ChipLGPIOFactory(LGPIOFactory):  # type: ignore[misc]
        def _get_board_info(self) -> Any:
            return board_info(found)

    return ChipLGPIOFactory(chip=int(found.name.removeprefix("gpiochip")))


class CountedAnswers(Answers):
    """The daemon's answers worked out ahead, counting the steps and those whose lights were
    set ahead of them, and timing each press from `ahead` (asked as the daemon takes it up)
    to the step's own lights: with answers, how much earlier its lights came; without, how
    long they waited for the step. Counted after the lights are set, it costs a press a
    clock read."""

    answering = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.steps = self.given = 0
        self.waits: list[int] = []  # ns, a press from `ahead` to the step's lights
        self._asked: int | None = None

    def prepare(self, table: Any, now: float, wakeup: float | None) -> None:
        if self.answering:
            super().prepare(table, now, wakeup)

    def ahead(self, table: Any, event: Any, now: float) -> Lights | None:
        self._asked = time.perf_counter_ns() if isinstance(event, Press) else None
        return super().ahead(table, event, now) if self.answering else None

    def check_given(self, lights: Lights) -> None:
        if self._asked is not None:
            self.waits.append(time.perf_counter_ns() - self._asked)
        self.steps += 1
        self.given += self._given is not None
        super().check_given(lights)


class NoAnswers(CountedAnswers):
    """The daemon as if it had no answers worked out ahead: nothing is stepped ahead, and a
    press's lights wait for the engine's step (the bench's swap, as `lgpio_factory` is)."""

    answering = False


class Hand:
    """Presses by role: through the kernel on a chip, or on the mock pins."""

    def __init__(self, daemon: Any, pins: str) -> None:
        self.daemon = daemon
        self.pins = pins
        self.files: dict[int, int] = {}
        if pins != "mock":
            chip = daemon.board.pin_factory
            name = chip.chip.name if pins == "gpiod" else f"gpiochip{chip.chip}"
            self.base = next(Path("/sys/bus/platform/devices").glob(f"gpio-sim.*/{name}"))

    def set(self, role: str, pressed: bool) -> tuple[int, int]:
        """The line pulled; the monotonic ns before the write and after it: its edge lies in
        between."""
        before = time.monotonic_ns()
        if self.pins == "mock":
            name = role.removesuffix(".button")
            pin = self.daemon.board.inputs[name].pin
            pin.drive_low() if pressed else pin.drive_high()
            return before, time.monotonic_ns()
        line = self.daemon.board.pinmap[role]
        if line not in self.files:
            self.files[line] = os.open(self.base / f"sim_gpio{line}" / "pull", os.O_WRONLY)
        os.write(self.files[line], b"pull-down" if pressed else b"pull-up")
        return before, time.monotonic_ns()

    def tap(self, role: str) -> None:
        self.set(role, True)
        time.sleep(HELD)
        self.set(role, False)
        time.sleep(HELD)


def make_daemon(pins: str, settings: dict[str, object], state_dir: Path) -> Any:
    config = load(CONFIG)
    config = dataclasses.replace(config, settings=Settings(settings), mqtt=None)
    if pins == "lgpio":
        import hardware.factory

        hardware.factory.make_factory = lambda name, chip=None, roles=None: lgpio_factory(chip)
    return build_daemon(config, state_dir, simulated=pins == "mock", seed=1)


async def with_daemon(pins: str, settings: dict[str, object], work) -> Any:
    """`work(daemon, hand)` in a thread while the daemon runs; its result."""
    with tempfile.TemporaryDirectory() as state_dir:
        daemon = make_daemon(pins, settings, Path(state_dir))
        task = asyncio.create_task(daemon.run())
        try:
            await asyncio.sleep(1.0)
            return await asyncio.to_thread(work, daemon, Hand(daemon, pins))
        finally:
            daemon.stop()
            await task


def cpu_shares(window: float, windows: int) -> list[float]:
    shares = []
    for _ in range(windows):
        cpu, wall = time.process_time(), time.monotonic()
        time.sleep(window)
        shares.append(100 * (time.process_time() - cpu) / (time.monotonic() - wall))
    return shares


def switches() -> int:
    """Context switches of every thread of this process so far: how often it woke."""
    total = 0
    for status in Path("/proc/self/task").glob("*/status"):
        for text in status.read_text().splitlines():
            if "ctxt_switches" in text:
                total += int(text.split()[1])
    return total


def cpu(pins: str, window: float, windows: int) -> dict:
    def work(daemon: Any, hand: Hand) -> dict:
        time.sleep(2.0)
        woke, since = switches(), time.monotonic()
        idle = cpu_shares(window, windows)
        wakeups = (switches() - woke) / (time.monotonic() - since)
        for seat in SEATS:
            hand.tap(f"seat{seat}.button")
        hand.tap("play_pause")
        time.sleep(2.0)  # a turn: its light pulsing
        game = cpu_shares(window, windows)
        lit = [seat for seat, light in daemon.board.lights.items() if light.pattern.name != "ON"]
        return {"idle": idle, "game": game, "idle_wakeups": wakeups, "lights_moving": lit}

    return run_on_table_loop(with_daemon(pins, QUIET, work))


def serve(pins: str, seconds: float, answers: bool) -> dict:
    """The daemon for `seconds`, or until SIGTERM; with its answers worked out ahead or not."""
    daemon_module.Answers = CountedAnswers if answers else NoAnswers
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())

    def work(daemon: Any, hand: Hand) -> dict:
        Path("/run/flashtable-bench.ready").touch()
        stopped.wait(seconds)
        counted = daemon.answers
        waits = sorted(counted.waits) or [0]
        return {
            "steps": counted.steps,
            "given": counted.given,
            "missed": counted.missed,
            "wait_us": waits[len(waits) // 2] / 1000,
        }

    return run_on_table_loop(with_daemon(pins, QUIET, work))


def bare(seconds: float) -> dict:
    """Seat 1's button toggles seat 1's light, straight from libgpiod: the floor."""
    import gpiod
    from gpiod.line import Bias, Direction, Edge, Value

    from hardware.gpio_chip import find_chip

    config = load(CONFIG)
    pinmap = config.pinmap(simulated=False)
    button, light = pinmap["seat1.button"], pinmap["seat1.light"]
    chip = find_chip(config.gpio_chip)
    settings = {
        button: gpiod.LineSettings(
            direction=Direction.INPUT, bias=Bias.PULL_UP, edge_detection=Edge.FALLING
        ),
        light: gpiod.LineSettings(direction=Direction.OUTPUT),
    }
    on = False
    answered = 0
    deadline = time.monotonic() + seconds
    with gpiod.request_lines(chip.path, consumer="bare", config=settings) as request:
        Path("/run/flashtable-bench.ready").touch()
        while time.monotonic() < deadline:
            if not request.wait_edge_events(1.0):
                continue
            for _ in request.read_edge_events():
                on = not on
                request.set_value(light, Value.ACTIVE if on else Value.INACTIVE)
                answered += 1
    return {"answered": answered}


def slap(races: int, seed: int) -> dict:
    """`races` SLAP races: the lit seat slaps, the five others press in a random order with
    gaps drawn from 50 µs to 5 ms; each result checked against the presses' times."""
    rng = random.Random(seed)
    events: queue.Queue[tuple[str, dict]] = queue.Queue()
    settings = {**QUIET, "slap_window": 1}
    # The result's pages shown 50 ms each, not 2 s: the races follow one another, and what
    # is measured, the ranking, is made before the pages are.
    slap_rules.PAGE_TIME = 0.05

    def work(daemon: Any, hand: Hand) -> dict:
        daemon.publisher.listen(lambda event: events.put((event.type, event.data)))
        for seat in SEATS:
            hand.tap(f"seat{seat}.button")
        hand.tap("play_pause")
        errors = pairs = ties = missed = 0
        gaps: list[float] = []
        started = time.monotonic()
        for _ in range(races):
            lit = next_event(events, "turn_started")["seat"]
            racers = [seat for seat in SEATS if seat != lit]
            rng.shuffle(racers)
            hand.set("slap", True)
            time.sleep(HELD)
            hand.set("slap", False)
            time.sleep(0.05)
            presses = {}
            for seat in racers:
                presses[seat] = hand.set(f"seat{seat}.button", True)
                gap = rng.uniform(50e-6, 5e-3)
                gaps.append(gap)
                spin_until(time.monotonic() + gap)
            time.sleep(HELD)
            for seat in racers:
                hand.set(f"seat{seat}.button", False)
            result = next_event(events, "slap_result")
            order = [place["seat"] for place in result["order"]]
            ms = {place["seat"]: place["ms"] for place in result["order"]}
            ties += sum(place["tie"] for place in result["order"])
            # A press the race never saw (no edge came from the kernel) is missed, not ranked:
            # the result gives it no time, or leaves its seat out.
            missed += sum(ms.get(seat) is None for seat in racers)
            pressed = [seat for seat in racers if ms.get(seat) is not None]
            for first, second in itertools.pairwise(pressed):
                # Pressed one after the other: the second's edge after the first's.
                pairs += 1
                surely_apart = (presses[second][0] - presses[first][1]) / 1e6
                reversed_rank = surely_apart > 1.0 and order.index(first) > order.index(second)
                errors += reversed_rank or ms[first] > ms[second]
        return {
            "races": races,
            "pairs": pairs,
            "errors": errors,
            "ties": ties,
            "missed": missed,
            "gap_ms": [min(gaps) * 1e3, max(gaps) * 1e3],
            "seconds": time.monotonic() - started,
        }

    return run_on_table_loop(with_daemon("gpiod", settings, work))


def next_event(events: queue.Queue[tuple[str, dict]], kind: str) -> dict:
    while True:
        found, data = events.get(timeout=120)
        if found == kind:
            return data


def spin_until(deadline: float) -> None:
    while time.monotonic() < deadline:
        pass


def main() -> None:
    command, args = sys.argv[1], sys.argv[2:]
    if command == "cpu":
        result = cpu(args[0], float(args[1]), int(args[2]))
    elif command == "serve":
        result = serve(args[0], float(args[1]), args[2:] != ["none"])
    elif command == "bare":
        result = bare(float(args[0]))
    elif command == "slap":
        result = slap(int(args[0]), int(args[1]))
    else:
        raise SystemExit(f"unknown command {command}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
