"""The launcher as the daemon drives it: the ejector, its cards owed on disk, restarts, shutdown.

The rules engine decides how many cards fly; this link carries that out on the ejector and
keeps the count still owed in the state directory, so that a restart neither deals a card
twice nor forgets one. The ejector is chosen by the config's `[launcher] link`: the Pi's own
launcher pins, or a controller on a serial port. Loop thread only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from hardware.board import Board
from hardware.clock import Clock
from hardware.ejector import CardOut as CardCounted
from hardware.ejector import GpioEjector, Report
from hardware.serial_ejector import SerialEjector

from .config import LauncherConfig
from .game import Event
from .game.effects import Dispense, ResumeLauncher
from .game.events import CardOut, ExactDraw, LauncherStopped
from .game.state import Launcher, Lines
from .owed import OWED_DAMAGED, OwedFile
from .settings import Settings

log = logging.getLogger(__name__)

# The inputs that belong to the launcher, not to the players.
LAUNCHER_INPUTS = frozenset({"launcher.beam", "launcher.empty"})
LINK_DOWN: Lines = ("Launcher link   ", "down: cards wait")
LINK_UP: Lines = ("Launcher link   ", "back            ")


class LauncherLink:
    """The ejector on the board's launcher pins (if wired) and its owed-cards file."""

    def __init__(
        self,
        board: Board,
        *,
        clock: Clock,
        on_report: Callable[[Report], None],
        state_dir: Path | None,
        launcher: LauncherConfig | None = None,
        on_notice: Callable[[Lines], None] = lambda lines: None,
    ) -> None:
        self._board = board
        self._clock = clock
        self.ejector: GpioEjector | SerialEjector | None = None
        if launcher is not None and launcher.link == "serial" and launcher.port is not None:
            self.ejector = SerialEjector(
                launcher.port,
                baud=launcher.baud,
                clock=clock,
                on_report=on_report,
                on_link=lambda up: on_notice(LINK_UP if up else LINK_DOWN),
            )
        elif board.motor is not None and board.beam is not None:
            beam, empty = board.beam, board.empty
            self.ejector = GpioEjector(
                board.motor,
                clock=clock,
                on_report=on_report,
                beam_clear=lambda: bool(beam.is_active),
                hopper_empty=lambda: empty is not None and bool(empty.is_active),
            )
        self._owed = None if state_dir is None else OwedFile(state_dir)

    @property
    def wired(self) -> bool:
        return self.ejector is not None

    def notices(self) -> list[Lines]:
        """What the LCD says at start about the cards-owed file."""
        damaged = self._owed is not None and self._owed.problem is not None
        return [OWED_DAMAGED] if damaged else []

    def beam_clear(self) -> bool | None:
        """What the beam sees now (for the hardware test); None without a beam."""
        beam = self._board.beam
        return None if beam is None else bool(beam.is_active)

    def at_start(self) -> list[Event]:
        """Cards owed when the daemon last stopped: owed again, not forgotten. A jam or an
        empty hopper it was waiting on still waits for OK: the roller must not start with a
        card stuck, or a hand, in the slot."""
        if self._owed is None or self.ejector is None:
            return []
        owed, fault = self._owed.at_start
        if not owed:
            return []
        now = self._clock.now()
        self.ejector.fault = fault
        events: list[Event] = [ExactDraw(owed, "restart", now)]
        if fault is not None:
            events.append(LauncherStopped(fault, now))
        return events

    def edge(self, name: str, active: bool, time: float) -> None:
        """An edge of the beam or of the hopper switch."""
        if not isinstance(self.ejector, GpioEjector):
            return  # a controller's beam and switch are its own
        if name == "launcher.beam":
            self.ejector.beam(active, time)
        elif name == "launcher.empty" and active:
            self.ejector.hopper_emptied()

    @staticmethod
    def event_for(report: Report) -> Event:
        """What an ejector's report is to the game."""
        if isinstance(report, CardCounted):
            return CardOut(report.time)
        return LauncherStopped(report.reason, report.time)

    def carry_out(self, effect: Dispense | ResumeLauncher) -> None:
        if self.ejector is None:
            log.warning("no launcher is wired: %r not carried out", effect)
        elif isinstance(effect, Dispense):
            self.ejector.dispense(effect.cards)
        else:
            self.ejector.resume()

    def apply(self, settings: Settings) -> None:
        if self.ejector is not None:
            self.ejector.jam_time = settings.jam_time / 1000

    def keep(self, launcher: Launcher) -> None:
        """Save what the game says is still owed (after every event; returns at once)."""
        if self._owed is not None and self.ejector is not None:
            self._owed.save((launcher.owed, launcher.fault))

    def stop(self, drain: Callable[[], None], owed: Callable[[], int]) -> list[Event]:
        """Stop the motor for good. `drain` handles the launcher reports still queued, before
        and after the stop; returns the card left sticking out of the slot, if any, which
        belongs to the presser (SPEC §1)."""
        if self.ejector is None:
            return []
        drain()
        self.ejector.stop()
        drain()
        beam = self._board.beam
        if beam is not None and not beam.is_active and owed():
            return [CardOut(self._clock.now())]
        return []

    def close(self) -> None:
        if isinstance(self.ejector, SerialEjector):
            self.ejector.close()
        if self._owed is not None:
            self._owed.close()
