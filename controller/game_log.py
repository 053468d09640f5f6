"""The log of one game: every event the engine was fed, from a known start, for replay.

Replaying `log` from `log.start` with `log.start_rng()` plays the game again, exactly. Between
rounds, once the log has passed LIMIT events, it starts over from the table as it is then, so
a table left on for weeks keeps a bounded log that still replays.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import overload

from .game import Event, Phase, Table

LIMIT = 20_000  # events kept before the log starts over between rounds

Entry = tuple[float, Event]


class GameLog(Sequence[Entry]):
    def __init__(self, start: Table, rng: random.Random) -> None:
        self._begin(start, rng)

    def _begin(self, start: Table, rng: random.Random) -> None:
        self.start = start
        self._start_rng_state = rng.getstate()
        self._entries: list[Entry] = []

    def record(self, table: Table, now: float, event: Event, rng: random.Random) -> None:
        """Note `event`, about to be fed to `table` at `now` with `rng` as it is now."""
        if len(self._entries) >= LIMIT and table.phase in (Phase.SEATING, Phase.ROUND_OVER):
            self._begin(table, rng)
        self._entries.append((now, event))

    def start_rng(self) -> random.Random:
        """A generator in the state the game's generator had at `start`."""
        rng = random.Random()
        rng.setstate(self._start_rng_state)
        return rng

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | Sequence[Entry]:
        return self._entries[index]

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries)
