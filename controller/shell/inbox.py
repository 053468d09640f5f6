"""The daemon's one queue, and the border that other threads cross to reach it.

gpiozero calls back on its own threads, signal handlers and other tasks run whenever they
do: all of them only hand an item over (`from_any_thread`), which
`loop.call_soon_threadsafe` puts on the queue. Everything else happens on the loop, one item
at a time, in order; the loop's own methods check that they run there. What the two sides
share (the count of items handed over, the times of edges not yet handled) is held under a
lock, never left to the interpreter's own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from hardware.ejector import Report

from ..errors import TableStopped
from ..requests import Request
from .loop_thread import LoopThread

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


# What the queue carries: the pins' edges, the daemon's own timers, a launcher's reports, work
# from the daemon's writer threads, requests from outside the pins, and the stop.
Item = Edge | Settle | Wake | EncoderTurn | Report | Call | Asked | Stop


class Inbox:
    """Items are handled as they land: an item from another thread wakes the loop straight
    into `serve`'s handler, with no task or second pass of the loop in between (an edge is a
    light's answer away from its press). An item that lands while one is handled waits its
    turn.

    Each method's name says who may call it: `from_any_thread` and `ask` from any thread (and
    from signal handlers); every other method from the loop's thread alone, which it checks
    (a thread id compared, always on). Made on the loop's thread, while the loop runs.
    """

    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._loop_thread = LoopThread()
        # Shared with other threads, under `_border`: how many items were handed over from
        # them, and the times of those edges that have not been handled yet (one still in
        # the loop's own queue of callbacks is known of too).
        self._border = threading.Lock()
        self._from_threads = 0
        self._edges: deque[float] = deque()
        # The loop thread's alone.
        self._landed = 0  # items from other threads that have landed on the loop
        self._edges_put = 0  # edges landed and not handled yet
        self._items: deque[Item] = deque()
        self._handle: Callable[[Item], None] | None = None  # while `serve` runs
        self._stopped: asyncio.Future[None] | None = None
        self._handling = False
        self._resuming = False  # an `on_loop_after_this`'s pass is asked for
        self._waiting_none = asyncio.Event()  # no item waits to be handled
        self._waiting_none.set()
        self._some_landed = asyncio.Event()  # an item from another thread has landed
        self._served = asyncio.Event()  # `serve` has begun
        self._closed = False

    # -- from any thread -------------------------------------------------------------------

    def ask(self, request: Request) -> concurrent.futures.Future[object]:
        """Hand `request` over (from any thread); its future tells the outcome. Once the
        inbox is closed, the answer is TableStopped at once."""
        asked = Asked(request, concurrent.futures.Future())
        if self._closed:
            asked.too_late()
        else:
            self.from_any_thread(asked)
        return asked.answer

    def from_any_thread(self, item: Item) -> None:
        """Hand `item` over from any thread (and from signal handlers): it is handled in the
        loop callback it lands in."""
        with self._border:
            if isinstance(item, Edge):
                self._edges.append(item.time)
        self._loop.call_soon_threadsafe(self._land, item)
        with self._border:
            self._from_threads += 1

    # -- on the loop's thread --------------------------------------------------------------

    def _land(self, item: Item) -> None:
        self._landed += 1
        self._some_landed.set()
        self._hand_over_now(item)

    def on_loop(self, item: Item) -> None:
        """Put `item` on the queue and hand it over at once, as the last act of a loop
        callback (one of the daemon's timers). It waits only behind an item being handled
        and, unless it is an edge itself, behind an edge still crossing (the edge hands both
        over when it lands)."""
        self._loop_thread.check("Inbox.on_loop")
        self._hand_over_now(item)

    def on_loop_after_this(self, item: Item) -> None:
        """Put `item` on the queue from the middle of other work on the loop (an ejector's
        report): it is handled in a pass of its own, once that work is done."""
        self._loop_thread.check("Inbox.on_loop_after_this")
        self._append(item)
        if not self._resuming:
            self._resuming = True
            self._loop.call_soon(self._resume)

    def _hand_over_now(self, item: Item) -> None:
        self._append(item)
        if not self._handling and (isinstance(item, Edge) or not self.crossing):
            self._hand_over()

    def _append(self, item: Item) -> None:
        if isinstance(item, Edge):
            self._edges_put += 1
        self._items.append(item)
        self._waiting_none.clear()

    def _resume(self) -> None:
        self._resuming = False
        if not self._handling and not self.crossing:
            self._hand_over()

    @property
    def crossing(self) -> bool:
        """Whether an edge has been handed over from another thread that has not landed yet
        (loop thread only)."""
        self._loop_thread.check("Inbox.crossing")
        with self._border:
            return len(self._edges) > self._edges_put

    async def serve(self, handle: Callable[[Item], None]) -> None:
        """Give every item to `handle`, one at a time, in order, until a Stop is reached. A
        failure to handle one is logged, and the next follows."""
        self._loop_thread.check("Inbox.serve")
        self._handle = handle
        self._stopped = self._loop.create_future()
        self._served.set()
        try:
            self._resume()
            await self._stopped
        finally:
            self._handle = None

    def _hand_over(self) -> None:
        self._handling = True
        try:
            while self._items and self._handle is not None:
                item = self._items.popleft()
                if isinstance(item, Edge):
                    self._edges_put -= 1
                    with self._border, contextlib.suppress(ValueError):  # cleared by `close`
                        self._edges.remove(item.time)
                if isinstance(item, Stop):
                    self._handle = None
                    if self._stopped is not None and not self._stopped.done():
                        self._stopped.set_result(None)
                    break
                try:
                    self._handle(item)
                except Exception:
                    # One bad item must not stop the table; the log says what happened.
                    log.exception("handling %r failed", item)
        finally:
            self._handling = False
            if not self._items:
                self._waiting_none.set()

    def known_until(self, now: float) -> float:
        """`now`, or the time of the earliest edge handed over and not yet handled if it is
        earlier: the game is caught up that far and no further, so a loop that runs late
        never turns a tap into a hold, nor a press in time into a timeout (edge time is
        truth). Loop thread only."""
        self._loop_thread.check("Inbox.known_until")
        with self._border:
            return min(now, min(self._edges, default=now))

    async def landed(self) -> None:
        """Wait until every item handed over so far from other threads has landed on the
        loop (loop thread only)."""
        self._loop_thread.check("Inbox.landed")
        with self._border:
            handed_over = self._from_threads
        while self._landed < handed_over:
            self._some_landed.clear()
            await self._some_landed.wait()

    async def idle(self) -> None:
        """Wait until `serve` has begun and every item handed over so far, from any thread,
        has been handled (loop thread only)."""
        self._loop_thread.check("Inbox.idle")
        await self._served.wait()
        await self.landed()
        while not self._waiting_none.is_set():
            await self._waiting_none.wait()

    def close(self) -> list[Item]:
        """No more requests (the daemon stops): everything queued now, taken off the queue,
        the requests among it answered TableStopped (loop thread only)."""
        self._loop_thread.check("Inbox.close")
        self._closed = True
        with self._border:
            self._edges.clear()
        self._edges_put = 0
        items: list[Item] = []
        while self._items:
            item = self._items.popleft()
            if isinstance(item, Asked):
                item.too_late()
            else:
                items.append(item)
        self._waiting_none.set()
        return items
