"""Replaying a game: the daemon's log of (now, event) pairs, stepped again from the same seed,
gives the same table and the same effects (for resuming after a crash, and for bug reports).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .effects import Effect
from .engine import step
from .events import Event
from .state import Table


def replay(
    log: Iterable[tuple[float, Event]], start: Table, rng: random.Random
) -> tuple[Table, list[Effect]]:
    """The final table and every effect, in order, of the game `log` records.

    `start` is the table the log begins from and `rng` a generator in the state it was in
    then (the daemon's log keeps both: `daemon.game_log.start` and `daemon.game_log.start_rng()`;
    later settings are `Configure` events in the log).
    """
    table = start
    effects: list[Effect] = []
    for now, event in log:
        table, more = step(table, event, now, rng)
        effects += more
    return table, effects
