"""Replaying a game: the daemon's log of (now, event) pairs, stepped again from the same seed,
gives the same table and the same effects (for resuming after a crash, and for bug reports).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..settings import Settings
from .effects import Effect
from .engine import new_table, step
from .events import Event
from .state import Table


def replay(
    log: Iterable[tuple[float, Event]], seed: int, settings: Settings, stations: int
) -> tuple[Table, list[Effect]]:
    """The final table and every effect, in order, of the game `log` records.

    `seed` is what the daemon's `random.Random` was seeded with, `settings` what the table
    started with (later changes are `Configure` events in the log), `stations` its seats.
    """
    rng = random.Random(seed)
    table = new_table(settings, stations)
    effects: list[Effect] = []
    for now, event in log:
        table, more = step(table, event, now, rng)
        effects += more
    return table, effects
