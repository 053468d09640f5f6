"""What the lights and the LCD show: the game's view, with the menu, a notice or the light
test laid over it, written to the board only where it changed. Loop thread only."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from hardware.board import Board
from hardware.clock import Clock, Timer
from hardware.outputs import Pattern

from . import game
from .game.state import Lines

log = logging.getLogger(__name__)

NOTICE_TIME = 5.0  # how long the LCD tells of a damaged settings file, and the like


class Overlay(Protocol):
    """What the operator's panel lays over the game's view."""

    @property
    def light_test(self) -> int | None: ...

    def lines(self) -> Lines | None: ...

    def close(self) -> None: ...


class Renderer:
    def __init__(self, board: Board, clock: Clock, *, redraw: Callable[[], None]) -> None:
        self._board = board
        self._clock = clock
        self._redraw = redraw  # draws again when a notice ends
        self._shown: game.View | None = None
        self._notice: Lines | None = None
        self._notice_timer: Timer | None = None
        self._waiting: list[Lines] = []

    def notice(self, lines: Lines) -> None:
        """A message over the game's screen for NOTICE_TIME (a damaged settings file, a disk
        that refuses a write); several are shown one after another, each once."""
        if self._notice_timer is not None:
            if lines != self._notice and lines not in self._waiting:
                self._waiting.append(lines)
            return
        self._notice = lines

        def done() -> None:
            self._notice, self._notice_timer = None, None
            if self._waiting:
                self.notice(self._waiting.pop(0))
            self._redraw()

        self._notice_timer = self._clock.call_at(self._clock.now() + NOTICE_TIME, done)

    def cancel(self) -> None:
        self._waiting.clear()
        if self._notice_timer is not None:
            self._notice_timer.cancel()
            self._notice_timer = None

    def draw(self, table: game.Table, panel: Overlay) -> None:
        """Make the lights and the LCD show what they should now."""
        view = game.render(table)
        try:
            menu = panel.lines()
        except Exception:  # a menu that cannot draw itself must not take the table down
            log.exception("the menu failed to draw; closed")
            panel.close()
            return
        # A notice is brief and says something went wrong (a disk that refuses the setting
        # just changed in the menu): it shows over the menu too.
        lines = self._notice or menu
        if lines is not None:
            view = replace(view, lines=lines)
        if panel.light_test is not None:
            lit = panel.light_test
            seats = range(1, table.stations + 1)
            view = replace(view, lights=tuple("on" if s == lit else "off" for s in seats))
        if view == self._shown:
            return
        for seat, pattern in enumerate(view.lights, start=1):
            self._board.lights[seat].show(Pattern(pattern))
        if self._shown is None or view.lines != self._shown.lines:
            self._board.display.show(view.lines)
        if self._shown is None or view.backlight != self._shown.backlight:
            self._board.display.backlight(view.backlight)
        self._shown = view
