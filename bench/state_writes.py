"""How often the daemon writes to its state directory in continuous play: a simulated game of
four players in virtual time (turns of 1-5 s, timeouts, slap races, launcher hits and their
cards), counting each kind of write. Virtual time runs far faster than a disk, so the game
waits for the snapshot's writer after each hand-over, as on a table whose disk keeps up: every
snapshot handed over is written, none dropped. Usage: python bench/state_writes.py [minutes] [seed]
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

from controller.config import Config
from controller.settings import Settings
from controller.simulation.table import SimTable
from controller.storage import owed, snapshot, snapshot_writer


async def play(minutes: float, seed: int, state_dir: Path) -> Counter[str]:
    writes: Counter[str] = Counter()
    real_atomic, real_pwrite, real_sync = snapshot_writer.write_atomic, os.pwrite, os.fdatasync
    Writer = snapshot_writer.SnapshotWriter
    real_snapshot, real_time_left = Writer.snapshot, Writer.time_left

    def kept_up_snapshot(writer: Writer, line: bytes, clock_line: bytes, at: float) -> None:
        real_snapshot(writer, line, clock_line, at)
        writer.wait()

    def kept_up_time_left(writer: Writer, clock_line: bytes, at: float) -> None:
        real_time_left(writer, clock_line, at)
        writer.wait()

    def counted_atomic(path: Path, data: bytes) -> None:
        writes[f"{path.name} (atomic: file and directory flushed)"] += 1
        real_atomic(path, data)

    def counted_pwrite(fd: int, data: bytes, offset: int) -> int:
        name = owed.FILE_NAME if len(data) == owed.SLOT_SIZE and offset in owed.SLOT_OFFSETS else ""
        writes[f"{name or snapshot.FILE_NAME + ' time left'} (in place, page cache)"] += 1
        return real_pwrite(fd, data, offset)

    def counted_sync(fd: int) -> None:
        writes["in-place writes flushed to the disk (fdatasync)"] += 1
        real_sync(fd)

    snapshot_writer.write_atomic = counted_atomic  # type: ignore[assignment]
    Writer.snapshot, Writer.time_left = kept_up_snapshot, kept_up_time_left  # type: ignore[method-assign]
    os.pwrite = counted_pwrite  # type: ignore[assignment]
    os.fdatasync = counted_sync  # type: ignore[assignment]
    rng = random.Random(seed)
    settings = Settings({"turn_timer": 4, "sleep_time": "off", "launcher_profile": "classic"})
    async with SimTable(Config(seats=4, settings=settings), seed=seed, state_dir=state_dir) as t:
        for seat in ("seat1", "seat2", "seat3", "seat4", "play_pause"):
            await t.tap(seat)
        end = t.now + 60 * minutes
        while t.now < end:
            if t.cards_left < 20:
                t.refill(54)  # someone tops up the hopper before it runs dry
            lit = t.lit()
            roll = rng.random()
            if not lit:
                await t.advance(0.5)
            elif roll < 0.1:
                await t.tap("slap")
                for seat in rng.sample([1, 2, 3, 4], 3):
                    await t.advance(rng.uniform(0.1, 0.6))
                    await t.tap(f"seat{seat}")
            elif roll < 0.25:
                await t.tap("launcher")
                await t.advance(rng.uniform(0.5, 2.0))
            else:
                await t.advance(rng.uniform(1.0, 5.0))  # past 4 s: a timeout and its penalty
                if t.lit():
                    await t.tap(f"seat{t.lit()[0]}")
        cards = t.cards_out
    snapshot_writer.write_atomic, os.pwrite, os.fdatasync = real_atomic, real_pwrite, real_sync
    Writer.snapshot, Writer.time_left = real_snapshot, real_time_left  # type: ignore[method-assign]
    writes["cards dealt"] = cards
    return writes


def main() -> None:
    minutes = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    with tempfile.TemporaryDirectory() as name:
        writes = asyncio.run(play(minutes, seed, Path(name)))
    print(f"{minutes:g} minutes of continuous play (4 seats, 4 s timer, seed {seed}), per minute:")
    for what, count in sorted(writes.items()):
        print(f"  {count / minutes:7.1f}  {what}")


if __name__ == "__main__":
    main()
