"""Sign-ins: each password checked by scrypt off the loop, one at a time, from a bounded
queue, so that no flood of guesses keeps the operator out or guesses faster (docs/web.md):

- one sign-in at a time from each address;
- a wrong password is answered FAIL_DELAY after its check, and that address's next check
  waits as long, whether or not the client waited for the answer: hanging up never speeds
  guessing;
- MAX_WAITING wait at most; the address with the fewest wrong passwords lately goes first
  (then the fewest tries, then the first come), and takes the place of the last in a full
  queue that ranks after it (who is told to try again). An operator who types the password
  right goes ahead of every guesser that has been told "wrong" once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

FAIL_DELAY = 1.0  # seconds from a wrong password to its answer, and to its address's next check
MAX_WAITING = 8  # sign-ins waiting for their check at once
FORGET = 600.0  # seconds after which an address's tries no longer count against it
MAX_ADDRESSES = 256  # addresses whose tries are kept; the longest quiet is forgotten first
BUSY = "too many sign-ins at once: try again in a moment"


class SignInRefused(Exception):
    """A sign-in not checked: its HTTP status and the reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass
class Tries:
    wrong: int = 0  # wrong passwords lately
    count: int = 0  # sign-ins lately, checked or turned away
    last: float = 0.0
    not_before: float = 0.0  # no check before this, after a wrong password


@dataclass(order=True)
class Waiting:
    rank: tuple[int, int, int]  # wrong passwords lately, tries lately, order of arrival
    client: str = field(compare=False)
    password: str = field(compare=False)
    outcome: asyncio.Future[bool] = field(compare=False)


class SignIns:
    """The queue and its worker, on one loop; `close` ends the worker."""

    def __init__(self, matches: Callable[[str], bool]) -> None:
        self._matches = matches
        self._loop = asyncio.get_running_loop()
        self._tries: OrderedDict[str, Tries] = OrderedDict()
        self._under_way: set[str] = set()
        self._queue: list[Waiting] = []
        self._arrivals = itertools.count()
        self._arrived = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None

    async def check(self, client: str, password: str) -> bool:
        """Whether `password` is right; a wrong one is answered FAIL_DELAY after its check.
        Raises SignInRefused when it is not checked."""
        tries = self._tried(client)
        if client in self._under_way:
            raise SignInRefused(429, "a sign-in from this address is under way: wait for it")
        self._under_way.add(client)
        try:
            rank = (tries.wrong, tries.count, next(self._arrivals))
            right = await self._queued(Waiting(rank, client, password, self._loop.create_future()))
            if not right:
                answer_at = self._tries_of(client).not_before
                await asyncio.sleep(max(0.0, answer_at - self._loop.time()))
            return right
        finally:
            self._under_way.discard(client)

    def _tried(self, client: str) -> Tries:
        now = self._loop.time()
        tries = self._tries_of(client)
        if now - tries.last > FORGET:
            tries.wrong = tries.count = 0
        tries.count += 1
        tries.last = now
        return tries

    def _tries_of(self, client: str) -> Tries:
        tries = self._tries.get(client)
        if tries is None:
            tries = self._tries[client] = Tries()
            while len(self._tries) > MAX_ADDRESSES:
                self._tries.popitem(last=False)
        self._tries.move_to_end(client)
        return tries

    async def _queued(self, entry: Waiting) -> bool:
        if len(self._queue) >= MAX_WAITING:
            last = max(self._queue)
            if entry.rank[:2] >= last.rank[:2]:
                raise SignInRefused(503, BUSY)
            self._queue.remove(last)
            last.outcome.set_exception(SignInRefused(503, BUSY))
        self._queue.append(entry)
        self._arrived.set()
        if self._worker is None:
            self._worker = self._loop.create_task(self._work())
        try:
            return await entry.outcome
        finally:
            if entry in self._queue:  # the client went away before its check
                self._queue.remove(entry)

    async def _work(self) -> None:
        try:
            while self._queue:
                entry = await self._next()
                if entry is None or entry.outcome.done():
                    continue
                try:
                    right = await self._loop.run_in_executor(None, self._matches, entry.password)
                except Exception as err:  # a hash the check could not run, or worse: the
                    # error is this sign-in's alone (its request fails), never the queue's
                    if not entry.outcome.done():
                        entry.outcome.set_exception(err)
                    continue
                tries = self._tries_of(entry.client)
                if right:
                    tries.wrong = tries.count = 0
                else:
                    tries.wrong += 1
                    tries.not_before = self._loop.time() + FAIL_DELAY
                if not entry.outcome.done():
                    entry.outcome.set_result(right)
        finally:
            self._worker = None

    async def _next(self) -> Waiting | None:
        """The first in the queue whose address may be checked now; None after a wait."""
        now = self._loop.time()
        ready = [e for e in self._queue if self._tries_of(e.client).not_before <= now]
        if ready:
            entry = min(ready)
            self._queue.remove(entry)
            return entry
        soonest = min(self._tries_of(e.client).not_before for e in self._queue)
        self._arrived.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._arrived.wait(), soonest - now)
        return None

    def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        for entry in self._queue:
            entry.outcome.cancel()
        self._queue.clear()
