"""The page's one stream: the MQTT bridge's `state`, `settings`, `standings` and numbered
game events (built by the same functions), with the lights, the LCD and the turn's time,
as server-sent events. Each message is encoded once for every open stream.

What the table publishes only ever goes into each stream's bounded queue: a stream whose
reader falls behind is dropped, never waited for, so a slow phone cannot slow the table.

A game event's id is `BOOT-SEQ`: BOOT is drawn afresh each time the daemon starts, so a page
that comes back after a restart is always given a `reset`, whatever seq it saw last.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..game import Table
from ..remote.payloads import event_payload, settings_payload, standings_payload, state_snapshot
from .page_view import board_payload, timer_key, timer_payload

if TYPE_CHECKING:
    from ..shell.publish import GameEvent, Shown

log = logging.getLogger(__name__)

RECENT = 50  # events a new page is given, and how far back a page that reconnects resumes
# Events a page keeps showing however long ago they came: the latest SLAP ranking and round.
KEPT_TYPES = ("slap_result", "round_over")
BACKLOG = 64  # batches a stream may have waiting before it counts as too slow and is dropped
RETRY_MS = 1000  # how soon a page's EventSource connects again


def chunk(kind: str, payload: object, ident: str | None = None) -> bytes:
    """One server-sent event: its name, its id (a game event's) and JSON data."""
    data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {kind}\ndata: {data}\n\n".encode()


class Stream:
    """One page's stream: batches waiting to be written, bounded."""

    def __init__(self, on_drop: Callable[[], None]) -> None:
        self._waiting: deque[bytes] = deque()
        self._ready = asyncio.Event()
        self._on_drop = on_drop
        self.dropped = False
        self.ending = False  # its last message is queued: it ends once that is written

    def put(self, data: bytes) -> None:
        if self.dropped or self.ending:
            return
        if len(self._waiting) >= BACKLOG:
            self.drop()
            return
        self._waiting.append(data)
        self._ready.set()

    def drop(self) -> None:
        """Too slow: nothing more is queued, and its connection is closed."""
        self.dropped = True
        self._waiting.clear()
        self._ready.set()
        self._on_drop()

    def finish(self, last: bytes) -> None:
        """`last` is the stream's last message; it ends once it has been written."""
        self.put(last)
        self.ending = True
        self._ready.set()

    async def next(self, timeout: float) -> bytes | None:
        """What waits, all at once; b"" after `timeout` with nothing; None once dropped, or
        ended."""
        if not self._waiting and (self.ending or self.dropped):
            return None
        if not self._waiting:
            self._ready.clear()
            try:
                await asyncio.wait_for(self._ready.wait(), timeout)
            except TimeoutError:
                return b""
        if self.dropped:
            return None
        data = b"".join(self._waiting)
        self._waiting.clear()
        return data


class Feed:
    """Follows the daemon through its published doors and feeds every open stream."""

    def __init__(self, table: Table, now: Callable[[], float]) -> None:
        self._now = now
        self._table = table
        self._streams: set[Stream] = set()
        self._recent: deque[tuple[int, bytes]] = deque(maxlen=RECENT)
        self._kept: dict[str, tuple[int, bytes]] = {}
        self._current: dict[str, bytes] = {}
        self._state: dict[str, object] | None = None
        self._timer: tuple[object, ...] | None = None
        self._pending: list[bytes] = []
        self._flush_due = False
        self.last_seq = 0
        self.boot = secrets.token_hex(4)
        self._stepped(table)

    def __len__(self) -> int:
        return len(self._streams)

    # -- from the daemon (loop thread; never waits) ------------------------------------

    def on_event(self, event: GameEvent) -> None:
        data = chunk("game", event_payload(event), f"{self.boot}-{event.seq}")
        self.last_seq = event.seq
        self._recent.append((event.seq, data))
        if event.type in KEPT_TYPES:
            self._kept[event.type] = (event.seq, data)
        self._send(data)

    def on_step(self, table: Table) -> None:
        previous, self._table = self._table, table
        if table.settings is not previous.settings:
            self._set("settings", settings_payload(table.settings))
        kept = (table.standings, table.score, table.names)
        if kept != (previous.standings, previous.score, previous.names):
            self._set("standings", standings_payload(table))
        self._stepped(table)

    def on_view(self, shown: Shown) -> None:
        self._set("board", board_payload(shown))

    def _stepped(self, table: Table) -> None:
        if not self._current:  # the first: everything
            self._current["settings"] = chunk("settings", settings_payload(table.settings))
            self._current["standings"] = chunk("standings", standings_payload(table))
        state = state_snapshot(table)
        if state != self._state:
            self._state = state
            self._set("state", state)
        key = timer_key(table)
        if key != self._timer:
            self._timer = key
            self._set("timer", timer_payload(table, self._now()))

    def _set(self, kind: str, payload: object) -> None:
        data = chunk(kind, payload)
        self._current[kind] = data
        self._send(data)

    def _send(self, data: bytes) -> None:
        # One batch per pass of the loop: a step's events, state and lights go out together.
        self._pending.append(data)
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        data, self._pending = b"".join(self._pending), []
        for stream in list(self._streams):
            stream.put(data)
            if stream.dropped:
                self._streams.discard(stream)

    # -- the streams ---------------------------------------------------------------------

    def open(self, on_drop: Callable[[], None], last_id: str | None) -> Stream:
        """A new stream, given first what the page needs: the current messages, then the
        events after `last_id` (the last one the page saw) when they are all still here;
        or else a `reset` and the recent events, with the latest SLAP ranking and round."""
        stream = Stream(on_drop)
        opening = [f"retry: {RETRY_MS}\n\n".encode(), *self._current.values()]
        opening += self._events_after(self._seq_of(last_id))
        stream.put(b"".join(opening))
        self._streams.add(stream)
        return stream

    def _seq_of(self, ident: str | None) -> int | None:
        """The seq of a game event's id from this run of the daemon; None for another's."""
        boot, _, seq = (ident or "").partition("-")
        if boot == self.boot and seq.isascii() and seq.isdigit() and len(seq) <= 12:
            return int(seq)
        return None

    def _events_after(self, since: int | None) -> Iterable[bytes]:
        oldest = self._recent[0][0] if self._recent else self.last_seq + 1
        if since is not None and oldest - 1 <= since <= self.last_seq:
            return [data for seq, data in self._recent if seq > since]
        kept = sorted(item for item in self._kept.values() if item[0] < oldest)
        reset = chunk("reset", {"seq": self.last_seq})
        return [reset, *(data for _, data in kept), *(data for _, data in self._recent)]

    def close(self, stream: Stream) -> None:
        self._streams.discard(stream)

    def drop_all(self) -> None:
        for stream in list(self._streams):
            stream.drop()
        self._streams.clear()
