"""Troubles that may come thousands of times a second (a flood of connections, a loop out of
descriptors), logged so that they never fill the journal: the first of each cause at once,
the rest counted and logged with their count at most once a minute per cause."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

EVERY = 60.0  # seconds between two lines of one cause


class TroubleTally:
    """Counts troubles by cause, on one loop; `close` cancels what is left to log."""

    def __init__(self, log: logging.Logger, every: float = EVERY) -> None:
        self._log = log
        self._every = every
        self.counts: Counter[str] = Counter()  # every trouble noted, by cause
        self._unsaid: Counter[str] = Counter()  # noted since the cause's last line
        self._quiet: dict[str, asyncio.TimerHandle] = {}  # causes within their minute

    def note(
        self, cause: str, level: int = logging.WARNING, say: Callable[[], None] | None = None
    ) -> None:
        """One trouble of `cause` (a line of text: what happened, never a secret); `say`
        logs the first of a while in its own words."""
        self.counts[cause] += 1
        if cause in self._quiet:
            self._unsaid[cause] += 1
            return
        if say is None:
            self._log.log(level, "%s", cause)
        else:
            say()
        self._quiet_for_a_while(cause, level)

    def _quiet_for_a_while(self, cause: str, level: int) -> None:
        loop = asyncio.get_running_loop()
        self._quiet[cause] = loop.call_later(self._every, self._said_since, cause, level)

    def _said_since(self, cause: str, level: int) -> None:
        del self._quiet[cause]
        count = self._unsaid.pop(cause, 0)
        if count:
            minute = f"{self._every:.0f} s"
            self._log.log(level, "%s (%d times more in the last %s)", cause, count, minute)
            self._quiet_for_a_while(cause, level)

    def close(self) -> None:
        for handle in self._quiet.values():
            handle.cancel()
        self._quiet.clear()
        self._unsaid.clear()


def tally_loop_errors(loop: asyncio.AbstractEventLoop, tally: TroubleTally) -> None:
    """What `loop` reports of its own (a failed accept, a callback that raised) goes through
    `tally`, by cause: a listening socket out of descriptors is reported on every try,
    thousands of times a second. The first of a bug (an exception but OSError) is logged in
    asyncio's words, with its traceback."""

    def report(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        cause = str(context.get("message", "the event loop reports an error"))
        if error is not None:
            cause += f": {type(error).__name__}: {error}"
        bug = error is not None and not isinstance(error, OSError)
        say = (lambda: loop.default_exception_handler(context)) if bug else None
        tally.note(cause, logging.ERROR, say)

    loop.set_exception_handler(report)
