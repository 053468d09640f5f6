"""Game events as the daemon tells them to its listeners (the log, the view, MQTT)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..game import Table, View

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameEvent:
    """A game event as published: its sequence number (1, 2, 3, ...), type and data."""

    seq: int
    type: str
    data: dict[str, object]


@dataclass(frozen=True)
class Shown:
    """What the table shows: its lights and LCD, and whether its launcher's link is up
    (the LCD takes turns saying it is not); None without a launcher."""

    view: View
    launcher_link: bool | None


# Called on the daemon's loop for every event, in order; it must return at once.
Listener = Callable[[GameEvent], None]


class Publisher:
    """Numbers the game's announcements and hands each to every listener, in order; hands
    the table after each step to its watchers, and what the table shows to its viewers."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._watchers: list[Callable[[Table], None]] = []
        self._viewers: list[Callable[[Shown], None]] = []
        self._shown: Shown | None = None
        self._seq = 0

    def watch(self, watcher: Callable[[Table], None]) -> None:
        """Call `watcher` with the table after every step of the engine (on the loop)."""
        self._watchers.append(watcher)

    def show_table(self, table: Table) -> None:
        """The table after a step of the engine, to every watcher."""
        for watcher in list(self._watchers):
            watcher(table)

    def look(self, viewer: Callable[[Shown], None]) -> None:
        """Call `viewer` with what the lights and the LCD show, menu and notices included,
        whenever that changes (on the loop)."""
        self._viewers.append(viewer)

    def showing(self, view: View | None, launcher_link: bool | None) -> None:
        if view is None:
            return
        shown = Shown(view, launcher_link)
        if shown == self._shown:
            return
        self._shown = shown
        for viewer in list(self._viewers):
            viewer(shown)

    @property
    def shown(self) -> Shown | None:
        """What the table shows now (None before its first screen)."""
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
