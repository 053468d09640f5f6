"""How long the rules engine takes per event: a long random game, stepped and timed.

Prints the median and the 99th percentile of the time per step over several runs, and the
time to replay the whole log. Usage: python bench/engine_step.py [events] [runs]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

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


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    log = game(events, seed=1)
    settings = Settings({"turn_timer": 4, "jump_in": "on", "sleep_time": "off"})
    per_step, whole = [], []
    for _ in range(runs):
        table, rng = new_table(settings, 4, has_launcher=True), random.Random(1)
        for now, event in log:
            start = time.perf_counter_ns()
            table, _ = step(table, event, now, rng)
            per_step.append(time.perf_counter_ns() - start)
        start = time.perf_counter()
        replay(log, new_table(settings, 4, has_launcher=True), random.Random(1))
        whole.append(time.perf_counter() - start)
    per_step.sort()
    print(f"{len(log)} events x {runs} runs")
    print(f"median per step: {statistics.median(per_step) / 1000:.1f} us")
    print(f"99th percentile per step: {per_step[len(per_step) * 99 // 100] / 1000:.1f} us")
    print(f"median replay of the whole log: {statistics.median(whole) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
