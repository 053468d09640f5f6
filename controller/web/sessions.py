"""Who has given the remote's password: random session tokens held in memory (a restart
signs everyone out), each for LIFETIME of the table's clock, a bounded number of them. A
session that ends (signed out, expired, or the oldest giving way) is told to `on_end`."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Callable

from hardware.clock import Clock, Timer

COOKIE = "flashtable_session"
LIFETIME = 12 * 3600.0  # seconds a sign-in lasts: an evening at the table
MAX_SESSIONS = 32  # the oldest sign-in gives way to a new one


class Sessions:
    def __init__(self, clock: Clock, on_end: Callable[[str], None]) -> None:
        self._clock = clock
        self._on_end = on_end
        self._expiry: OrderedDict[str, Timer] = OrderedDict()

    def new(self) -> str:
        token = secrets.token_urlsafe(32)
        until = self._clock.now() + LIFETIME
        self._expiry[token] = self._clock.call_at(until, lambda: self.end(token))
        while len(self._expiry) > MAX_SESSIONS:
            self.end(next(iter(self._expiry)))
        return token

    def valid(self, token: str | None) -> bool:
        return bool(token) and token in self._expiry

    def end(self, token: str | None) -> None:
        timer = self._expiry.pop(token, None) if token else None
        if timer is not None:
            timer.cancel()
            self._on_end(token)  # type: ignore[arg-type]

    def close(self) -> None:
        for timer in self._expiry.values():
            timer.cancel()
        self._expiry.clear()
