"""The daemon's one queue, and the border that other threads cross to reach it.

gpiozero calls back on its own threads, signal handlers and other tasks run whenever they
do: all of them only `post` an item, which `loop.call_soon_threadsafe` puts on the queue.
Everything else happens on the loop, one item at a time, in order.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .requests import Request, TableStopped

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Edge:
    """A raw edge of an input pin, at its edge time."""

    input: str
    active: bool
    time: float


@dataclass(frozen=True)
class Settle:
    """An input's debounce window, the one closing at `window`, has passed."""

    input: str
    window: float


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
class Call:
    """Work that one of the daemon's own threads (a file's writer) hands to the loop."""

    work: Callable[[], None]


@dataclass(frozen=True)
class Asked:
    """A request from outside the pins, with the future its asker waits on."""

    request: Request
    answer: concurrent.futures.Future[object]

    def carry_out(self, handle: Callable[[Request], object]) -> None:
        if not self.answer.set_running_or_notify_cancel():
            return  # the asker gave up
        try:
            self.answer.set_result(handle(self.request))
        except ValueError as err:  # refused (a bad setting): the asker says why
            self.answer.set_exception(err)
        except Exception as err:  # a fault: the log must say so, whoever asked
            log.exception("carrying out %r failed", self.request)
            self.answer.set_exception(err)

    def too_late(self) -> None:
        if self.answer.set_running_or_notify_cancel():
            self.answer.set_exception(TableStopped(f"the table stopped before {self.request!r}"))


class Inbox:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._edges: deque[float] = deque()  # the times of the edges on the queue, in order
        self._closed = False

    def ask(self, request: Request) -> concurrent.futures.Future[object]:
        """Post `request` (from any thread); its future tells the outcome. Once the inbox is
        closed, the answer is TableStopped at once."""
        asked = Asked(request, concurrent.futures.Future())
        if self._closed:
            asked.too_late()
        else:
            self.post(asked)
        return asked.answer

    def post(self, item: object) -> None:
        """Put `item` on the queue; safe from any thread and from signal handlers."""
        self._loop.call_soon_threadsafe(self.put, item)

    def put(self, item: object) -> None:
        """Put `item` on the queue (loop thread only)."""
        if isinstance(item, Edge):
            self._edges.append(item.time)
        self._queue.put_nowait(item)

    async def get(self) -> object:
        item = await self._queue.get()
        if isinstance(item, Edge):
            self._edges.popleft()
        return item

    def known_until(self, now: float) -> float:
        """`now`, or the time of the earliest edge still on the queue if it is earlier: the
        game is caught up that far and no further, so a loop that runs late never turns a tap
        into a hold, nor a press in time into a timeout (edge time is truth)."""
        return min((now, *self._edges))

    def done(self) -> None:
        self._queue.task_done()

    async def idle(self) -> None:
        """Wait until every item posted so far has been handled."""
        for _ in range(3):  # posts from other threads land on the loop's next iterations
            await asyncio.sleep(0)
        await self._queue.join()

    def close(self) -> list[object]:
        """No more requests (the daemon stops): everything queued now, taken off the queue,
        the requests among it answered TableStopped."""
        self._closed = True
        self._edges.clear()
        items = []
        while not self._queue.empty():
            item = self._queue.get_nowait()
            self._queue.task_done()
            if isinstance(item, Asked):
                item.too_late()
            else:
                items.append(item)
        return items
