"""Answers worked out ahead: the lights each press would show, and those of the engine's next
wakeup (a turn running out), stepped on a copy of the game once the loop has been quiet a
moment. A press then lights its answer before the engine has stepped for it.

The engine's own step follows at once and its lights are the ones that stay: an answer is
only a step of the same pure engine done early, on the same table, generator state and
inputs, at a moment the game's timers cannot tell apart from the real one. Where that does
not hold (another event came first, a timer falls between), there is no answer and the press
waits for the step as before. `missed` counts answers the step did not bear out (none in the
tests, `tests/controller/test_answers.py`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Iterable
from typing import Any

from .. import game
from ..game import Event, Press, Table, Tick

log = logging.getLogger(__name__)

# Quiet, in seconds, before the answers are worked out: a burst of events (a SLAP race, the
# encoder turning, cards through the beam) is answered once, after it, not after each.
QUIET = 0.001

Lights = tuple[str, ...]
_Answer = tuple[Lights, float]  # the lights, and the next wakeup after the step (or inf)


def _or_never(when: float | None) -> float:
    """A wakeup's time, with never as infinity."""
    return float("inf") if when is None else when


class Answers:
    """Loop thread only. `prepare` after every step; `ahead` before the next."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, inputs: Iterable[str], rng: random.Random
    ) -> None:
        self._loop = loop
        self._inputs = tuple(inputs)
        self._game_rng = rng  # the game's generator: only the engine's steps draw from it
        self._rng = random.Random()  # the copy the answers are stepped with
        self._table: Table | None = None
        self._at = 0.0  # when the presses' answers are stepped for
        self._wakeup = float("inf")  # the table's next wakeup
        self._state: tuple[Any, ...] | None = None  # the game generator's, once work starts
        self._todo: list[str | None] = []  # the inputs still to answer; None: the wakeup
        self._presses: dict[str, _Answer] = {}
        self._on_wakeup: _Answer | None = None
        self._pending: asyncio.Handle | None = None
        self._given: Lights | None = None
        self._ready = asyncio.Event()  # every answer for the table is worked out
        self._ready.set()
        self.missed = 0

    def prepare(self, table: Table, now: float, wakeup: float | None) -> None:
        """Forget the answers for the last table and work out those for `table`, stepped at
        `now` and next woken at `wakeup` (game.next_wakeup), once the loop has been QUIET a
        moment, one per pass, so that a press waits for one step at most."""
        self._table, self._at = table, now
        self._wakeup = _or_never(wakeup)
        self._state = None  # until work starts: a burst's steps need none
        self._presses, self._on_wakeup = {}, None
        self._todo = [None, *self._inputs]  # the wakeup first: it is sure to come
        self._ready.clear()
        self._start(self._loop.call_later, QUIET)

    def _start(self, schedule: Callable[..., asyncio.Handle], *delay: float) -> None:
        self._stop()
        self._pending = schedule(*delay, self._work)

    def _stop(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def cancel(self) -> None:
        self._stop()
        self._table, self._todo = None, []
        self._ready.set()

    async def ready(self) -> None:
        """Wait until the answers for the last table are worked out; asked for, they are
        started at once (simulations and benchmarks, whose next press comes sooner than a
        player's)."""
        if not self._ready.is_set():
            self._start(self._loop.call_soon)
        await self._ready.wait()

    def _work(self) -> None:
        self._pending = None
        if self._todo and self._table is not None:
            if self._state is None:  # nothing has drawn from it since the step
                self._state = self._game_rng.getstate()
            name = self._todo.pop(0)
            try:
                self._answer(self._table, name)
            except Exception:  # the engine's own step will say so too; the rest go on
                log.exception("working out the answer to %s failed", name or "the wakeup")
        if self._todo and self._table is not None:
            self._pending = self._loop.call_soon(self._work)
        else:
            self._ready.set()

    def _answer(self, table: Table, name: str | None) -> None:
        if name is not None:
            self._presses[name] = self._step(table, Press(name, self._at), self._at)
        elif self._wakeup != float("inf"):
            self._on_wakeup = self._step(table, Tick(self._wakeup), self._wakeup)

    def _step(self, table: Table, event: Event, now: float) -> _Answer:
        assert self._state is not None
        self._rng.setstate(self._state)
        after, _ = game.step(table, event, now, self._rng)
        return game.lights(after), _or_never(game.next_wakeup(after))

    def ahead(self, table: Table, event: Event, now: float) -> Lights | None:
        """The lights `event`, handled at `now`, will show, if they are known already (for
        a press or a wakeup's tick)."""
        self._given = None
        if table is not self._table or not isinstance(event, Press | Tick):
            return None
        if isinstance(event, Tick):
            answer, since = self._on_wakeup, self._wakeup
        else:
            answer, since = self._presses.get(event.input), self._at
            if event.time >= self._wakeup:
                return None  # a timer falls due before the press: its step comes first
        # Stepped at `since`, the answer holds for an event at or after it, handled before
        # the next timer that its step leaves: the lights read the clock only through the
        # engine's timers (`tests/controller/test_answers.py` holds them to that). Other
        # parts of a step may read it otherwise (a burst's card count): only lights are used.
        if answer is None or not since <= event.time <= now < answer[1]:
            return None
        self._given = answer[0]
        return self._given

    def check_given(self, lights: Lights) -> None:
        """The engine's step is done and shows `lights`: did it bear the answer out?"""
        if self._given is not None and self._given != lights:
            self.missed += 1
            say = log.warning if self.missed == 1 else log.debug  # a bug: once is enough
            say("an answer worked out ahead was %s, the step showed %s", self._given, lights)
        self._given = None
