"""Game events as the daemon tells them to its listeners (the log, the view, MQTT)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .game import Table, View

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameEvent:
    """A game event as published: its sequence number (1, 2, 3, ...), type and data."""

    seq: int
    type: str
    data: dict[str, object]


# Called on the daemon's loop for every event, in order; it must return at once.
Listener = Callable[[GameEvent], None]


class Publisher:
    """Numbers the game's announcements and hands each to every listener, in order; hands
    the table after each step to its watchers, and what the table shows to its viewers."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._watchers: list[Callable[[Table], None]] = []
        self._viewers: list[Callable[[View], None]] = []
        self._shown: View | None = None
        self._seq = 0

    def watch(self, watcher: Callable[[Table], None]) -> None:
        """Call `watcher` with the table after every step of the engine (on the loop)."""
        self._watchers.append(watcher)

    def stepped(self, table: Table) -> None:
        for watcher in list(self._watchers):
            watcher(table)

    def look(self, viewer: Callable[[View], None]) -> None:
        """Call `viewer` with what the lights and the LCD show, menu and notices included,
        whenever that changes (on the loop)."""
        self._viewers.append(viewer)

    def showing(self, view: View | None) -> None:
        if view is None or view == self._shown:
            return
        self._shown = view
        for viewer in list(self._viewers):
            viewer(view)

    @property
    def shown(self) -> View | None:
        """What the lights and the LCD show now (None before the first screen)."""
        return self._shown

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def announce(self, type: str, data: Mapping[str, object]) -> GameEvent:
        self._seq += 1
        event = GameEvent(self._seq, type, dict(data))
        if log.isEnabledFor(logging.INFO):  # the line is made only when it is written
            log.info("%s %s", event.type, " ".join(f"{k}={v}" for k, v in event.data.items()))
        for listener in list(self._listeners):
            listener(event)
        return event
