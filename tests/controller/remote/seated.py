"""A quiet three-seat table for the remotes' tests, and a round started on it by hand."""

from __future__ import annotations

from controller.config import Config
from controller.game import Phase
from controller.settings import Settings
from controller.simulation.table import SimTable

# No sleep: the tests' virtual minutes never put the table to sleep.
QUIET_SETTINGS = {"turn_timer": 6, "sleep_time": "off"}
QUIET = Config(seats=3, settings=Settings(QUIET_SETTINGS))


async def started(table: SimTable) -> None:
    """Seats 1 and 2 claimed and Play/Pause pressed: a turn runs."""
    for seat in ("seat1", "seat2", "play_pause"):
        await table.tap(seat)
    assert table.daemon.table.phase is Phase.TURN
