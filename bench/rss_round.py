"""Memory over one long round: RSS after 1,000 presses and after 100,000, in virtual time.

The real daemon on the simulated table (SimTable): eight seats, the lit player ends the turn
and every tenth turn is a SLAP race, all in one round. The 1,000-press figure is the baseline.
Usage: python bench/rss_round.py [presses]
"""

from __future__ import annotations

import asyncio
import gc
import sys

from controller.config import Config
from controller.settings import Settings
from controller.simulation.table import SimTable

MARKS = (1_000, 10_000)


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def play(presses: int) -> None:
    settings = Settings({"mode": "flash", "turn_timer": "off", "sleep_time": "off"})
    async with SimTable(Config(seats=8, settings=settings), seed=1) as table:
        for seat in range(1, 9):
            await table.tap(f"seat{seat}")
        await table.tap("play_pause")
        done, marks = 0, {}
        while done < presses:
            lit = table.lit()
            if not lit:
                await table.advance(0.5)
                continue
            [seat] = lit
            if done % 10 == 9:
                await table.tap("slap")
                for other in set(range(1, 9)) - {seat}:
                    await table.press(f"seat{other}")
                for other in set(range(1, 9)) - {seat}:
                    await table.release(f"seat{other}")
                done += 8
            else:
                await table.tap(f"seat{seat}")
                done += 1
            for mark in (*MARKS, presses):
                if done >= mark and mark not in marks:
                    gc.collect()
                    marks[mark] = rss_mib()
        assert not table.events_of("round_over"), "the round ended"
        print(f"presses in one round: {done}, events logged: {table.daemon.game_log.recorded}")
        base = marks[MARKS[0]]
        for mark, rss in sorted(marks.items()):
            print(f"RSS after {mark:>7,} presses: {rss:.1f} MiB ({rss - base:+.1f} MiB)")


def main() -> None:
    presses = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    asyncio.run(play(presses))


if __name__ == "__main__":
    main()
