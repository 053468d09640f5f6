"""What waits to be published: game events in order in a bounded buffer (the oldest dropped
first, and counted), a bounded queue of answers, and only the latest message of each
retained topic. What the table adds never waits for the network; the link sends when it can,
several messages at once, each kept here, in flight, until the broker has acknowledged it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from enum import Enum

EVENT_LIMIT = 1000  # events kept while the broker is away (a long round's worth)
REPLY_LIMIT = 50


@dataclass(frozen=True, eq=False)
class Outgoing:
    topic: str
    payload: object  # JSON-able; encoded only when sent
    retain: bool = False
    correlation: bytes | None = None  # MQTT 5 correlation data of the message answered


class Kind(Enum):
    RETAINED = "retained"
    EVENT = "event"
    REPLY = "reply"


class Outbox:
    def __init__(self, event_limit: int = EVENT_LIMIT) -> None:
        self._latest: dict[str, Outgoing] = {}
        self._events: deque[Outgoing] = deque()
        self._replies: deque[Outgoing] = deque()
        self._flying: dict[Outgoing, Kind] = {}  # handed to the link, oldest first
        self._event_limit = event_limit
        self.dropped = 0  # events lost to the bound since the daemon started
        self._ready = asyncio.Event()
        self._empty = asyncio.Event()
        self._room = asyncio.Event()
        self._taking = asyncio.Lock()  # senders wait their turn, not all woken by each message
        self._empty.set()

    def __len__(self) -> int:
        """Messages not yet acknowledged: waiting, or in flight."""
        return self._waiting() + len(self._flying)

    @property
    def in_flight(self) -> int:
        return len(self._flying)

    def _waiting(self) -> int:
        return len(self._latest) + len(self._events) + len(self._replies)

    def _added(self) -> None:
        self._ready.set()
        self._empty.clear()

    def retained(self, message: Outgoing) -> None:
        """The new value of a retained topic: replaces one that was not yet sent."""
        self._latest.pop(message.topic, None)
        self._latest[message.topic] = message
        self._added()

    def event(self, message: Outgoing) -> None:
        self._events.append(message)
        self._bound()
        self._added()

    def _bound(self) -> None:
        # Those in flight count too; the oldest waiting go first (the link never has
        # anywhere near the bound in flight).
        flying = sum(kind is Kind.EVENT for kind in self._flying.values())
        while self._events and len(self._events) + flying > self._event_limit:
            self._events.popleft()
            self.dropped += 1

    async def reply(self, message: Outgoing) -> None:
        """Queue an answer; while REPLY_LIMIT wait, the sender of a flood waits with them:
        its messages stay with the broker until the answers have left."""
        while self._replies_kept() >= REPLY_LIMIT:
            self._room.clear()
            await self._room.wait()
        self._replies.append(message)
        self._added()

    def _replies_kept(self) -> int:
        return len(self._replies) + sum(kind is Kind.REPLY for kind in self._flying.values())

    async def next(self) -> Outgoing:
        """Hand the next message to send (retained values first), waiting while there is
        none. It stays here, in flight, until `sent`; `returned` puts it back."""
        async with self._taking:
            while not self._waiting():
                self._ready.clear()
                await self._ready.wait()
            if self._latest:
                message = self._latest.pop(next(iter(self._latest)))
                self._flying[message] = Kind.RETAINED
            elif self._events:
                message = self._events.popleft()
                self._flying[message] = Kind.EVENT
            else:
                message = self._replies.popleft()
                self._flying[message] = Kind.REPLY
            return message

    def sent(self, message: Outgoing) -> None:
        """The broker has it."""
        if self._flying.pop(message, None) is Kind.REPLY:
            self._room.set()
        if not self:
            self._empty.set()

    def returned(self) -> None:
        """The connection is gone: what was in flight waits again, in its order, ahead of
        what came since; a retained value replaced meanwhile stays replaced."""
        flying = list(self._flying.items())
        self._flying.clear()
        back = {m.topic: m for m, kind in flying if kind is Kind.RETAINED}
        self._latest = {**back, **self._latest}  # a newer value of a topic wins
        self._events.extendleft(reversed([m for m, kind in flying if kind is Kind.EVENT]))
        self._replies.extendleft(reversed([m for m, kind in flying if kind is Kind.REPLY]))
        self._bound()
        if self._waiting():
            self._ready.set()

    async def emptied(self) -> None:
        """Return once everything queued has been acknowledged."""
        await self._empty.wait()
