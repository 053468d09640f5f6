"""Who has given the remote's password: random session tokens held in memory (a restart
signs everyone out), each for a while, a bounded number of them."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Callable

COOKIE = "flashtable_session"
LIFETIME = 12 * 3600.0  # seconds a sign-in lasts: an evening at the table
MAX_SESSIONS = 32  # the oldest sign-in gives way to a new one


class Sessions:
    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        self._until: OrderedDict[str, float] = OrderedDict()

    def new(self) -> str:
        token = secrets.token_urlsafe(32)
        self._until[token] = self._now() + LIFETIME
        while len(self._until) > MAX_SESSIONS:
            self._until.popitem(last=False)
        return token

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        until = self._until.get(token)
        if until is None:
            return False
        if until < self._now():
            del self._until[token]
            return False
        return True

    def end(self, token: str | None) -> None:
        if token:
            self._until.pop(token, None)
