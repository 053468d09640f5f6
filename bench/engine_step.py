"""How long the rules engine takes per event, early and late in one long random game.

Prints the median and the 99th percentile of the time per step for the thousand events from
event 1,000 (the baseline) and for the last thousand of the game, over several runs, and the
time to replay the whole log. Usage: python bench/engine_step.py [events] [runs]
"""

from __future__ import annotations

import random
import sys
import time

from figures import spread

from controller.game import Press, Release, Tick, new_table, next_wakeup, replay, step
from controller.settings import Settings

INPUTS = ["seat1", "seat2", "seat3", "seat4", "slap", "launcher", "play_pause"]


def game(events: int, seed: int) -> list:
    """A game of random presses among four seats, with the daemon's ticks between them."""
    rng = random.Random(seed)
    settings = Settings({"turn_timer": 4, "jump_in": "on", "sleep_time": "off"})
    table = new_table(settings, 4, has_launcher=True)
    log, now = [], 1000.0
    for name in ("seat1", "seat2", "seat3", "seat4", "play_pause"):
        log.append((now, Press(name, now)))
        log.append((now + 0.1, Release(name, now + 0.1)))
        now += 0.2
    play = random.Random(seed)
    for _, event in log:
        table, _ = step(table, event, event.time, play)
    while len(log) < events:
        now += rng.choice([0.05, 0.3, 1.0, 2.5])
        while (wakeup := next_wakeup(table)) is not None and wakeup <= now:
            log.append((wakeup, Tick(wakeup)))
            table, _ = step(table, Tick(wakeup), wakeup, play)
        name = rng.choice(INPUTS)
        for event in (Press(name, now), Release(name, now + 0.08)):
            log.append((event.time, event))
            table, _ = step(table, event, event.time, play)
    return log


def timed_window(log: list, settings: Settings, first: int, size: int, runs: int) -> list[int]:
    """Nanoseconds per step for events first..first+size of the game, over `runs` replays."""
    samples = []
    for _ in range(runs):
        table, rng = new_table(settings, 4, has_launcher=True), random.Random(1)
        for index, (now, event) in enumerate(log[: first + size]):
            start = time.perf_counter_ns()
            table, _ = step(table, event, now, rng)
            if index >= first:
                samples.append(time.perf_counter_ns() - start)
    return sorted(samples)


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 101_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    log = game(events, seed=1)
    settings = Settings({"turn_timer": 4, "jump_in": "on", "sleep_time": "off"})
    size = 1_000
    early = timed_window(log, settings, 1_000, size, runs)
    late = timed_window(log, settings, len(log) - size, size, runs)
    start = time.perf_counter()
    replay(log, new_table(settings, 4, has_launcher=True), random.Random(1))
    whole = time.perf_counter() - start
    print(f"one game of {len(log)} events; {size} steps timed at each point x {runs} runs")
    for label, samples in ((f"event {1_000:,}", early), (f"event {len(log) - size:,}", late)):
        p50, p99, _ = spread(samples)
        print(f"at {label}: median {p50 / 1000:.1f} us, p99 {p99 / 1000:.1f} us per step")
    print(f"p99 ratio, late to early: {spread(late)[1] / spread(early)[1]:.2f}x")
    print(f"replay of the whole game: {whole:.2f} s")


if __name__ == "__main__":
    main()
