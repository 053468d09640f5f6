"""The LCD written from a thread of its own, so that the event loop never waits for its bus.

An HD44780 needs waits between writes (RPLCD sleeps 50 µs after each cursor move), each
character on an I2C backpack is four bus transfers, and an LCD that stops answering is
initialised again (milliseconds of waits): on a Pi Zero a screen's change takes milliseconds.
The daemon's loop hands the screen it wants to `DisplayWriter` and goes on at once; the
writer's thread puts the newest one on the glass. A screen still waiting when a newer one
comes is skipped, as nobody would have seen it (a countdown that moved twice is written
once); the text goes before the backlight, as the daemon asks for them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from ..display import TextDisplay

log = logging.getLogger(__name__)

CLOSE_WAIT = 2.0  # seconds `close` waits for the last screen to reach the glass


class DisplayWriter:
    """A `TextDisplay` whose writes to `display` happen on the writer's thread."""

    def __init__(self, display: TextDisplay, *, close_wait: float = CLOSE_WAIT) -> None:
        self._display = display
        self._close_wait = close_wait
        self._changed = threading.Condition()
        self._lines: tuple[str, str] | None = None  # waiting for the glass, if anything
        self._lit: bool | None = None
        self._closing = False
        self._thread = threading.Thread(target=self._write, name="lcd writer", daemon=True)
        self._thread.start()

    def show(self, lines: tuple[str, str]) -> None:
        with self._changed:
            self._lines = lines
            self._changed.notify()

    def backlight(self, on: bool) -> None:
        with self._changed:
            self._lit = on
            self._changed.notify()

    def close(self) -> None:
        """Put what is still waiting on the glass, then close the display; waits for that at
        most `close_wait` seconds (a bus that hangs cannot hold the daemon's exit)."""
        with self._changed:
            self._closing = True
            self._changed.notify()
        self._thread.join(self._close_wait)
        if self._thread.is_alive():
            log.warning(
                "the LCD's last writes did not end within %.1f s; it closes when they do",
                self._close_wait,
            )

    def _write(self) -> None:
        closing = False
        while not closing:
            with self._changed:
                while self._lines is None and self._lit is None and not self._closing:
                    self._changed.wait()
                lines, lit, closing = self._lines, self._lit, self._closing
                self._lines = self._lit = None
            # Each on its own: a failed text must not leave the backlight as it was.
            if lines is not None:
                self._carry_out(self._display.show, lines)
            if lit is not None:
                self._carry_out(self._display.backlight, lit)
        try:
            self._display.close()
        except Exception:
            log.exception("closing the LCD failed")

    @staticmethod
    def _carry_out(write: Callable[[Any], None], value: object) -> None:
        try:
            write(value)
        except Exception:
            # The display heals its own bus errors; anything else must not end the writes.
            log.exception("writing to the LCD failed")
