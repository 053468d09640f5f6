"""The players' fingers on the simulated table: press a button now, let go later in game time.

A terminal reports key presses but not releases, so a key is a tap (or, with a modifier, a
long press) whose release is scheduled in game time. Every move on the table goes through
one lock, so the view's clock and the keys never drive the table at the same moment.
"""

from __future__ import annotations

import asyncio
import math

from controller.simulation.table import TAP_TIME, SimTable

LONG_PRESS = 2.5  # long enough for every hold the rules know (round over takes 2 s)
BACK_HOLD = 1.2  # the encoder's "hold to go back" takes 1 s
REPRESS_GAP = 0.03  # a finger lifting and pressing again; longer than the debounce window


class Fingers:
    """Presses, releases and time for one SimTable, in game time."""

    def __init__(self, table: SimTable) -> None:
        self.table = table
        self.lock = asyncio.Lock()
        self._release_at: dict[str, float] = {}
        self._pressed_at: dict[str, float] = {}

    def is_down(self, name: str) -> bool:
        return name in self._release_at

    async def tap(self, name: str, hold: float = TAP_TIME) -> None:
        """Press `name` now and let go after `hold` game seconds (pressing again if it was down).
        A long press of a button still held down holds it on instead: a finger cannot press a
        button it holds, and a terminal repeats a key kept down (a repeated Backspace must not
        become a push after the menu it closed)."""
        async with self.lock:
            if self.is_down(name) and hold > TAP_TIME:
                self._release_at[name] = max(self._release_at[name], self.table.now + hold)
                return
            if self.is_down(name):
                await self.table.release(name)
                await self._advance(REPRESS_GAP)
            await self._press(name, self.table.now + hold)

    async def down(self, name: str) -> None:
        """Press and keep pressing until `up` (a mouse button held on it)."""
        async with self.lock:
            if not self.is_down(name):
                await self._press(name, math.inf)

    async def up(self, name: str) -> None:
        """Let go, but not before a tap's length since the press."""
        async with self.lock:
            if self.is_down(name):
                self._release_at[name] = max(self._pressed_at[name] + TAP_TIME, self.table.now)
                await self._advance(0.0)

    async def turn(self, steps: int) -> None:
        async with self.lock:
            await self.table.turn(steps)

    async def advance(self, seconds: float) -> None:
        """Let game time pass, letting go of buttons whose time has come on the way."""
        async with self.lock:
            await self._advance(seconds)

    async def _press(self, name: str, release_at: float) -> None:
        await self.table.press(name)
        self._pressed_at[name] = self.table.now
        self._release_at[name] = release_at

    async def _advance(self, seconds: float) -> None:
        target = self.table.now + max(seconds, 0.0)
        while True:
            due = min(self._release_at.items(), key=lambda kv: kv[1], default=None)
            if due is None or due[1] > target:
                break
            name, when = due
            await self.table.advance_to(max(when, self.table.now))
            del self._release_at[name]
            del self._pressed_at[name]
            await self.table.release(name)
        await self.table.advance_to(target)
