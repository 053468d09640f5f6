"""CPU share of the daemon: idle at the seating screen, and in a game with a light pulsing.

The daemon is built as `flashtable run --sim` builds it, in this process; its CPU is this
process's CPU time over each window. Baseline, in the same run: a bare asyncio loop that only
sleeps for the same windows.
Usage: python bench/cpu_use.py [seconds per window] [windows]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from press_light import Bench, build, start_round

from controller.commands.run import run_on_table_loop

QUIET = {"mode": "flash", "sleep_time": "off", "turn_timer": "off"}


async def shares(window: float, windows: int) -> list[float]:
    result = []
    for _ in range(windows):
        cpu, wall = time.process_time(), time.monotonic()
        await asyncio.sleep(window)
        result.append(100 * (time.process_time() - cpu) / (time.monotonic() - wall))
    return result


def line(label: str, values: list[float]) -> str:
    each = ", ".join(f"{v:.2f}%" for v in values)
    return f"{label}: median {statistics.median(values):.2f}% ({each})"


async def measure(window: float, windows: int) -> None:
    print(line("bare asyncio loop, asleep", await shares(window, windows)))
    with tempfile.TemporaryDirectory() as state_dir:
        daemon, task = await build(QUIET, Path(state_dir))
        try:
            await asyncio.sleep(1.0)
            print(line("daemon idle (seating screen)", await shares(window, windows)))
            await asyncio.to_thread(start_round, Bench(daemon))
            wakes = daemon.board.animator.wakes
            in_game = await shares(window, windows)
            print(line("daemon in a game (a turn, its light pulsing)", in_game))
            rate = (daemon.board.animator.wakes - wakes) / (window * windows)
            print(f"animator wake-ups in the game: {rate:.0f} a second")
        finally:
            daemon.stop()
            await task


def main() -> None:
    window = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    windows = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    run_on_table_loop(measure(window, windows))


if __name__ == "__main__":
    main()
