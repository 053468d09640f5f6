"""The daemon's one queue, and the border that other threads cross to reach it.

gpiozero calls back on its own threads, signal handlers and other tasks run whenever they
do: all of them only `post` an item, which `loop.call_soon_threadsafe` puts on the queue.
Everything else happens on the loop, one item at a time, in order.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from dataclasses import dataclass

from .requests import Request


@dataclass(frozen=True)
class Edge:
    """A raw edge of an input pin, at its edge time."""

    input: str
    active: bool
    time: float


@dataclass(frozen=True)
class Settle:
    """An input's debounce window has passed."""

    input: str


@dataclass(frozen=True)
class Wake:
    """The engine's wakeup is due."""


@dataclass(frozen=True)
class Stop:
    pass


@dataclass(frozen=True)
class EncoderTurn:
    steps: int


@dataclass(frozen=True)
class Asked:
    request: Request
    answer: concurrent.futures.Future


class Inbox:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._queue: asyncio.Queue[object] = asyncio.Queue()

    def post(self, item: object) -> None:
        """Put `item` on the queue; safe from any thread and from signal handlers."""
        self._loop.call_soon_threadsafe(self._queue.put_nowait, item)

    def put(self, item: object) -> None:
        """Put `item` on the queue (loop thread only)."""
        self._queue.put_nowait(item)

    async def get(self) -> object:
        return await self._queue.get()

    def done(self) -> None:
        self._queue.task_done()

    async def idle(self) -> None:
        """Wait until every item posted so far has been handled."""
        for _ in range(3):  # posts from other threads land on the loop's next iterations
            await asyncio.sleep(0)
        await self._queue.join()

    def take_all(self) -> list[object]:
        """Everything queued now, taken off the queue (at shutdown)."""
        items = []
        while not self._queue.empty():
            items.append(self._queue.get_nowait())
            self._queue.task_done()
        return items
