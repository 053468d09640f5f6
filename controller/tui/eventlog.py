"""The event log: every game event with the game time since the table started, as text.

One line per event: sequence number, seconds since start, type, then its data as key=value
(lists and numbers as compact JSON, plain words bare). The headless player prints these
lines and the view scrolls them, so a bug report reads the same from either.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from controller.game import Press, Stuck
from controller.shell.publish import GameEvent
from controller.simulation.table import SimTable


def value_text(value: object) -> str:
    """A data value as the log writes it: `6.0`, `5.984`, `[1,3,5]`, `table`."""
    if isinstance(value, float):
        # Game times carry float noise (5.984000000000378); a millisecond is precise enough.
        return repr(round(value, 3))
    if isinstance(value, str) and value and not any(c.isspace() or c in '="' for c in value):
        return value
    return json.dumps(value, separators=(",", ":"))


# Wide enough for the longest event type ("launcher_resumed", "settings_changed"), so that
# every event's data starts in the same column.
TYPE_WIDTH = 16
DATA_COLUMN = 4 + 1 + 8 + 1 + TYPE_WIDTH + 1  # where an event line's data starts


def event_line(seconds: float, event: GameEvent) -> str:
    """`  12    6.400 timeout          seat=1 penalty=2`"""
    data = " ".join(f"{key}={value_text(value)}" for key, value in event.data.items())
    return f"{event.seq:>4} {seconds:>8.3f} {event.type:<{TYPE_WIDTH}} {data}".rstrip()


def input_line(seconds: float, name: str, stuck: bool = False) -> str:
    """A press as the game received it, for the view's log: `     -    6.400 > seat3`."""
    return f"   - {seconds:>8.3f} {'! stuck' if stuck else '>'} {name}"


@dataclass(frozen=True)
class Entry:
    seconds: float
    line: str
    is_input: bool = False


class Recorder:
    """Collects a SimTable's game events (and the presses it handled) with their times.

    Attach it right after the table starts; `take` hands over what arrived since last time.
    """

    def __init__(self, table: SimTable, since: float = 0.0) -> None:
        """`since`: the seconds its times count on from (a table started again)."""
        self.table = table
        self.start = table.now - since
        self._pending: list[Entry] = [Entry(0.0, event_line(0.0, e)) for e in table.events]
        self._inputs_seen = table.daemon.game_log.recorded
        table.daemon.publisher.listen(self._heard)

    def _heard(self, event: GameEvent) -> None:
        # Called while the daemon handles the event, so the clock says when it happened.
        seconds = self.table.now - self.start
        self._pending.append(Entry(seconds, event_line(seconds, event)))

    def take(self, *, inputs: bool = False) -> list[Entry]:
        """Entries since the last call; with `inputs`, presses too, in the order handled."""
        entries, self._pending = self._pending, []
        if not inputs:
            self._inputs_seen = self.table.daemon.game_log.recorded
            return entries
        log = self.table.daemon.game_log
        presses = [
            Entry(t - self.start, input_line(t - self.start, e.input, isinstance(e, Stuck)), True)
            for t, e in log.since(self._inputs_seen)
            if isinstance(e, Press | Stuck)
        ]
        self._inputs_seen = log.recorded
        # A press comes before the events it caused: sort by time, presses first at a tie.
        return sorted(presses + entries, key=lambda entry: (entry.seconds, not entry.is_input))

    @property
    def seconds(self) -> float:
        """Game time since the table started."""
        return self.table.now - self.start
