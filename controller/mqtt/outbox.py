"""What waits to be published: game events in order in a bounded buffer (the oldest dropped
first, and counted), a bounded queue of answers, and only the latest message of each
retained topic. What the table adds never waits for the network; the link sends when it can.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass

EVENT_LIMIT = 1000  # events kept while the broker is away (a long round's worth)
REPLY_LIMIT = 50


@dataclass(frozen=True, eq=False)
class Outgoing:
    topic: str
    payload: object  # JSON-able; encoded only when sent
    retain: bool = False
    correlation: bytes | None = None  # MQTT 5 correlation data of the message answered


class Outbox:
    def __init__(self, event_limit: int = EVENT_LIMIT) -> None:
        self._latest: dict[str, Outgoing] = {}
        self._events: deque[Outgoing] = deque()
        self._replies: deque[Outgoing] = deque()
        self._event_limit = event_limit
        self.dropped = 0  # events lost to the bound since the daemon started
        self._ready = asyncio.Event()
        self._empty = asyncio.Event()
        self._room = asyncio.Event()
        self._empty.set()

    def __len__(self) -> int:
        return len(self._latest) + len(self._events) + len(self._replies)

    def retained(self, message: Outgoing) -> None:
        """The new value of a retained topic: replaces one that was not yet sent."""
        self._latest.pop(message.topic, None)
        self._latest[message.topic] = message
        self._ready.set()
        self._empty.clear()

    def event(self, message: Outgoing) -> None:
        if len(self._events) >= self._event_limit:
            self._events.popleft()
            self.dropped += 1
        self._events.append(message)
        self._ready.set()
        self._empty.clear()

    async def reply(self, message: Outgoing) -> None:
        """Queue an answer; while REPLY_LIMIT wait, the sender of a flood waits with them:
        its messages stay with the broker until the answers have left."""
        while len(self._replies) >= REPLY_LIMIT:
            self._room.clear()
            await self._room.wait()
        self._replies.append(message)
        self._ready.set()
        self._empty.clear()

    async def next(self) -> Outgoing:
        """The message to send next (retained values first), waiting while there is none.
        It stays queued until `sent`: a message lost with the connection goes again."""
        while not self:
            self._ready.clear()
            await self._ready.wait()
        if self._latest:
            return next(iter(self._latest.values()))
        return self._events[0] if self._events else self._replies[0]

    def sent(self, message: Outgoing) -> None:
        if self._latest.get(message.topic) is message:
            del self._latest[message.topic]
        elif self._events and self._events[0] is message:
            self._events.popleft()
        elif self._replies and self._replies[0] is message:
            self._replies.popleft()
            self._room.set()
        if not self:
            self._empty.set()

    async def emptied(self) -> None:
        """Return once everything queued has been sent."""
        await self._empty.wait()
