"""Game events as the daemon tells them to its listeners (the log, the view, MQTT, the web
page), the table after each step to its watchers, and what the table shows to its viewers.

Each callback is told alone: one that raises is logged (once per callback and cause, with
its traceback) and counted, and the others are told all the same. The table never waits
on them: the daemon has carried out what changes the world before it tells anyone.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from ..game import Table, View

log = logging.getLogger(__name__)

T = TypeVar("T")


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


@dataclass(frozen=True)
class Stepped:
    """What a request's one step of the engine did: the game events it announced, in order,
    and the table after it."""

    events: tuple[GameEvent, ...]
    table: Table

    def of(self, kind: str) -> list[GameEvent]:
        return [event for event in self.events if event.type == kind]


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
        self.failures = 0  # calls of a callback that raised, since the daemon started
        self._told: set[tuple[int, str]] = set()  # (callback, cause) already logged

    def watch(self, watcher: Callable[[Table], None]) -> None:
        """Call `watcher` with the table after every step of the engine (on the loop)."""
        self._watchers.append(watcher)

    def show_table(self, table: Table) -> None:
        """The table after a step of the engine, to every watcher."""
        for watcher in list(self._watchers):
            self._tell(watcher, table)

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
            self._tell(viewer, shown)

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
            self._tell(listener, event)
        return event

    def _tell(self, callback: Callable[[T], None], value: T) -> None:
        try:
            callback(value)
        except Exception as err:
            self._failed(callback, err)

    def _failed(self, callback: Callable[[T], None], err: Exception) -> None:
        self.failures += 1
        # The cause is where it was raised: a message may differ each time (a count, an id),
        # the line in the code does not, so a callback failing on every event logs one line.
        raised = traceback.extract_tb(err.__traceback__)[-1]  # _tell's frame is the first
        cause = (id(callback), f"{type(err).__qualname__} at {raised.filename}:{raised.lineno}")
        if cause in self._told:
            return
        self._told.add(cause)
        name = getattr(callback, "__qualname__", None) or repr(callback)
        log.error(
            "%s failed (%s; %d callback failures so far); the table plays on, and this "
            "cause is not logged again",
            name,
            err,
            self.failures,
            exc_info=err,
        )
