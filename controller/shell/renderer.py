"""What the lights and the LCD show: the game's view, with the menu, a notice or the light
test laid over it, written to the board only where it changed. Loop thread only."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from hardware.clock import Clock, Timer
from hardware.patterns import Pattern

from .. import game
from ..catalogs import N_, Words
from ..game.state import Lines
from ..game.text import lcd_words

if TYPE_CHECKING:
    from hardware.board import Board

log = logging.getLogger(__name__)

NOTICE_SHOWN = 5.0  # how long the LCD tells of a damaged settings file, and the like
# While the launcher's serial link is down, the first line takes turns with this.
OFFLINE_LINE = N_("Launcher offline")
OFFLINE_TURN = 2.0  # seconds each
# A notice is its English lines (each marked for the catalogs where it is written): they
# say which notice it is, and the LCD shows them in the table's language (`_said`).
LINK_DOWN: Lines = (N_("Launcher link"), N_("down: cards wait"))
LINK_BACK: Lines = (N_("Launcher link"), N_("back"))


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
        self._while_paused: set[Lines] = set()  # notices true only until play goes on
        self._offline = False  # the launcher controller's link is down
        self._offline_shown = False  # ... and the first line says so, in its turn
        self._offline_timer: Timer | None = None
        self._link_was_up = False

    def notice(self, lines: Lines, *, while_paused: bool = False) -> None:
        """A message over the game's screen for NOTICE_SHOWN (a damaged settings file, a disk
        that refuses a write); several are shown one after another, each once. It goes up
        at once, unless the screen is the players' now (`_screen_taken`). One `while_paused`
        ("Resumed, press Play") is withdrawn once the table plays on."""
        if while_paused:
            self._while_paused.add(lines)
        if lines != self._notice and lines not in self._waiting:
            self._waiting.append(lines)
        self._redraw()

    def withdraw(self, lines: Lines) -> None:
        """Take back a notice that is no longer true, shown or waiting."""
        if lines in self._waiting:
            self._waiting.remove(lines)
        if lines == self._notice:
            self._hold_back()
            self._waiting.remove(lines)
        self._redraw()

    def _show_next(self) -> None:
        self._notice = self._waiting.pop(0)

        def done() -> None:
            self._notice, self._notice_timer = None, None
            self._redraw()  # which shows the next one, if any

        self._notice_timer = self._clock.call_at(self._clock.now() + NOTICE_SHOWN, done)

    def launcher_link(self, up: bool) -> None:
        """The launcher controller's link came up or went down. While it is down the LCD
        says so, for as long as it is down: its first line takes turns with OFFLINE_LINE
        (the second keeps whose turn it is and the seconds left). Losing a link that was up,
        and getting it back, are told in a notice too; a table starting up just waits."""
        if up:
            if self._offline and self._link_was_up:
                self.notice(LINK_BACK)
            self._link_was_up = True
            self._offline = self._offline_shown = False
            self._stop_offline()
        elif not self._offline:
            self._offline = True
            if self._link_was_up:
                self.notice(LINK_DOWN)
            self._turn_offline()
        self._redraw()

    def _turn_offline(self) -> None:
        self._offline_shown = not self._offline_shown
        self._offline_timer = self._clock.call_at(
            self._clock.now() + OFFLINE_TURN, self._offline_turned
        )

    def _offline_turned(self) -> None:
        self._turn_offline()
        self._redraw()

    def _stop_offline(self) -> None:
        if self._offline_timer is not None:
            self._offline_timer.cancel()
            self._offline_timer = None

    def _hold_back(self) -> None:
        """Take the notice off the screen; it is shown again, in full, when the screen is
        free, before the ones that came after it."""
        if self._notice_timer is not None:
            self._notice_timer.cancel()
            self._notice_timer = None
        if self._notice is not None:
            self._waiting.insert(0, self._notice)
            self._notice = None

    def cancel(self) -> None:
        self._hold_back()
        self._waiting.clear()
        self._stop_offline()

    @property
    def shown(self) -> game.View | None:
        """What the lights and the LCD show now."""
        return self._shown

    def light(self, table: game.Table, panel: Overlay) -> tuple[str, ...]:
        """The lights alone, at once: they are the table's answer to a press, so the daemon
        sets them before the sounds, the cards, the log, MQTT and the LCD (whose controller
        needs waits between writes); `draw` then finds them done. Returns what they show."""
        lights = _lights(table, panel)
        self._show_lights(lights)
        return lights

    def light_ahead(self, lights: tuple[str, ...]) -> None:
        """The lights an event will show, known before the engine steps for it (see
        controller.shell.answers); `light` follows with the step's own."""
        self._show_lights(lights)

    def draw(self, table: game.Table, panel: Overlay) -> None:
        """Make the lights and the LCD show what they should now."""
        view = game.render(table)
        if self._while_paused and table.phase is not game.Phase.PAUSED:
            untrue, self._while_paused = self._while_paused, set()
            for notice in untrue & {self._notice, *self._waiting}:
                self.withdraw(notice)
        taken = _screen_taken(table)
        if taken:
            self._hold_back()
        elif self._notice is None and self._waiting:
            self._show_next()
        try:
            menu = panel.lines()
        except Exception:  # a menu that cannot draw itself must not take the table down
            log.exception("the menu failed to draw; closed")
            panel.close()
            return
        # A notice is brief and says something went wrong (a disk that refuses the setting
        # just changed in the menu): it shows over the menu too, never over a launcher fault.
        t = lcd_words(table.settings)
        if self._notice is not None:
            view = replace(view, lines=_said(t, self._notice))
        elif menu is not None:
            view = replace(view, lines=menu)
        elif self._offline_shown and not taken:
            view = replace(view, lines=(t.gettext(OFFLINE_LINE), view.lines[1]))
        if panel.light_test is not None:
            view = replace(view, lights=_lights(table, panel))
        if view == self._shown:
            return
        self._show_lights(view.lights)
        if self._shown is None or view.lines != self._shown.lines:
            self._board.display.show(view.lines)
        if self._shown is None or view.backlight != self._shown.backlight:
            self._board.display.backlight(view.backlight)
        self._shown = view

    def _show_lights(self, patterns: tuple[str, ...]) -> None:
        for seat, pattern in enumerate(patterns, start=1):
            self._board.lights[seat].show(Pattern(pattern))


def _said(t: Words, notice: Lines) -> Lines:
    """A notice's lines in the language of `t`; every notice has words on both lines (an
    empty one would be translated as the catalog's header)."""
    first, second = notice
    return (t.gettext(first), t.gettext(second))


def _lights(table: game.Table, panel: Overlay) -> tuple[str, ...]:
    """What the lights show: the game's, or the panel's light test while it runs."""
    test = panel.light_test
    return game.lights(table) if test is None else _light_test(table, test)


def _light_test(table: game.Table, lit: int) -> tuple[str, ...]:
    """The panel's light test: seat `lit` on, the others off."""
    return tuple("on" if seat == lit else "off" for seat in range(1, table.stations + 1))


def _screen_taken(table: game.Table) -> bool:
    """Whether the LCD must show the game's own screen, notices or not: a jam or an empty
    hopper waits for the players' OK with cards owed, and a sleeping table's LCD is dark."""
    return table.launcher.fault is not None or table.asleep
