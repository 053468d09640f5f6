"""The log of one game: the events the engine was fed since a known start, for replay.

Replaying `log` from `log.start` with `log.start_rng()` plays the game again, exactly. The
engine is a pure function of (table, event, now, generator), so the start can be any moment
between two events: once the log holds LIMIT events it starts over from the table and the
generator as they are then. A round of any length, or a table left on for weeks, keeps a
bounded log that still replays.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import overload

from ..game import Event, Table

# Events kept before the log starts over: about 250 bytes each, so well under 2 MB, and
# enough for a bug report to replay the last quarter of an hour or more of play.
LIMIT = 5_000

Entry = tuple[float, Event]


class GameLog(Sequence[Entry]):
    def __init__(self, start: Table, rng: random.Random) -> None:
        self.recorded = 0  # events recorded since the daemon started, kept or not
        self._begin(start, rng)

    def _begin(self, start: Table, rng: random.Random) -> None:
        self.start = start
        self._start_rng_state = rng.getstate()
        self._entries: list[Entry] = []
        self._first = self.recorded  # the number of the first event kept

    def record(self, table: Table, now: float, event: Event, rng: random.Random) -> None:
        """Note `event`, about to be fed to `table` at `now` with `rng` as it is now."""
        if len(self._entries) >= LIMIT:
            self._begin(table, rng)
        self._entries.append((now, event))
        self.recorded += 1

    def since(self, number: int) -> Sequence[Entry]:
        """The events recorded from the `number`-th on (0 is the first), those still kept."""
        return self._entries[max(number - self._first, 0) :]

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
