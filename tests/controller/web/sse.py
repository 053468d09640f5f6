"""A reader of the page's stream for tests: server-sent events as (name, id, data)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass

import aiohttp

WAIT = 20.0  # seconds: only a limit for a message that never comes


@dataclass(frozen=True)
class Message:
    kind: str
    id: str | None  # a game event's: BOOT-SEQ
    data: object

    @property
    def seq(self) -> int | None:
        return None if self.id is None else int(self.id.rpartition("-")[2])


class EventReader:
    """The messages of one open stream, in order."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response
        self.seen: list[Message] = []

    async def _next(self) -> Message:
        kind, ident, data = "message", None, ""
        while True:
            line = (await self.response.content.readline()).decode()
            if line == "":
                raise ConnectionError("the stream ended")
            line = line.rstrip("\n")
            if line == "":
                if data:
                    return Message(kind, ident, json.loads(data))
                continue
            field, _, value = line.partition(": ")
            if field == "event":
                kind = value
            elif field == "id":
                ident = value
            elif field == "data":
                data = value

    async def until(self, wanted: Callable[[Message], bool]) -> Message:
        async with asyncio.timeout(WAIT):
            while True:
                message = await self._next()
                self.seen.append(message)
                if wanted(message):
                    return message

    def of(self, kind: str) -> list[Message]:
        return [m for m in self.seen if m.kind == kind]
