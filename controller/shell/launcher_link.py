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
from typing import TYPE_CHECKING

from hardware.clock import Clock, VirtualClock
from hardware.ejector import CardCounted, Ejector, Report
from hardware.gpio_ejector import GpioEjector
from hardware.motor_lease import MotorLease

from ..config import LauncherConfig
from ..game import Event
from ..game.effects import Dispense, ResumeLauncher
from ..game.events import CardOut, ExactDraw, LauncherStopped
from ..game.state import Launcher, Lines
from ..settings import Settings
from ..storage.owed import OWED_DAMAGED, OwedFile
from ..storage.statefile import not_saving
from .inbox import Call, Edge, Inbox, Item

if TYPE_CHECKING:
    from hardware.board import Board

log = logging.getLogger(__name__)

# The inputs that belong to the launcher, not to the players.
LAUNCHER_INPUTS = frozenset({"launcher.beam", "launcher.empty"})


class LauncherLink:
    """The ejector on the board's launcher pins (if wired) and its owed-cards file.

    `on_link(up)` tells when a controller's serial link comes and goes (down at first)."""

    def __init__(
        self,
        board: Board,
        *,
        clock: Clock,
        inbox: Inbox,
        state_dir: Path | None,
        launcher: LauncherConfig | None = None,
        on_notice: Callable[[Lines], None] = lambda lines: None,
        on_link: Callable[[bool], None] = lambda up: None,
    ) -> None:
        """The ejector reports to the `inbox` on the loop, the record's writer from its own
        thread; in virtual time the record is written at once, as a write takes no time."""
        self._board = board
        self._clock = clock
        self._on_notice = on_notice
        self._on_link = on_link
        self._inbox = inbox
        self._unheard = 0  # cards the ejector counted whose reports the game has not had yet
        self.ejector: Ejector | None = None
        self._owed: OwedFile | None = None
        self._refusal_shown = False
        port = launcher.port if launcher is not None and launcher.link == "serial" else None
        if port is None and (board.motor is None or board.beam is None):
            return
        if state_dir is not None:
            self._owed = OwedFile(
                state_dir,
                on_kept=lambda: inbox.from_any_thread(Call(self.record_kept)),
                background=not isinstance(clock, VirtualClock),
            )
        owed = self._owed
        if port is not None and launcher is not None:
            # pyserial loads only for a serial link, not with the daemon (start-up time).
            from hardware.serial_ejector import SerialEjector

            self.ejector = SerialEjector(
                port,
                baud=launcher.baud,
                clock=clock,
                on_report=self._reported,
                on_link=on_link,
                keep_sent=(lambda sent: True) if owed is None else owed.save_sent,
                kept=(lambda sent: True) if owed is None else owed.holds,
            )
        elif board.motor is not None and board.beam is not None:
            beam, empty, motor = board.beam, board.empty, board.motor
            pin_waiting = getattr(beam.pin, "edges_waiting", lambda: False)

            def edges_waiting() -> bool:
                """A beam edge on its way to the ejector: in the kernel, on the pins' thread
                (a chip's pins), or handed over to the loop and not yet handled."""
                now = clock.now()
                return inbox.known_until(now) < now or bool(pin_waiting())

            self.ejector = GpioEjector(
                motor,
                clock=clock,
                on_report=self._reported,
                beam_clear=lambda: bool(beam.is_active),
                hopper_empty=lambda: empty is not None and bool(empty.is_active),
                may_feed=(lambda remaining: True) if owed is None else owed.allows,
                # In real time a thread of its own stops the motor if the loop stalls; in
                # virtual time nothing runs but the loop, which cannot stall.
                lease=None if isinstance(clock, VirtualClock) else MotorLease(motor.stop),
                edges_waiting=edges_waiting,
            )
            # The beam's edges reach the ejector's gate at once, on the pin backend's thread,
            # which stops the motor at the count allowed whatever the loop is doing.
            beam.on_pin_thread = self.ejector.beam_edge_now

    @property
    def wired(self) -> bool:
        return self.ejector is not None

    @property
    def link_up(self) -> bool | None:
        """Whether the launcher answers (one on the Pi's pins always does); None without one."""
        return None if self.ejector is None else self.ejector.link_up

    def notices(self) -> list[Lines]:
        """What the LCD says about the cards-owed file: damaged at start, or not kept."""
        notices = []
        if self._owed is not None and self._owed.problem is not None:
            notices.append(OWED_DAMAGED)
        if self._owed is not None and self._owed.refused and not self._refusal_shown:
            self._refusal_shown = True
            notices.append(not_saving(self._owed.refused))
        return notices

    def record_kept(self) -> None:
        """The cards-owed file took a write or refused it (told on the loop): the ejector may
        let the next card go, or a controller's DISPENSE leave or its next card; the LCD tells
        of a refusal."""
        if self.ejector is not None:
            self.ejector.recheck()
        if self._owed is not None and self._owed.refused:
            for lines in self.notices():
                self._on_notice(lines)

    def beam_clear(self) -> bool | None:
        """What the beam sees now (for the hardware test); None without a beam."""
        beam = self._board.beam
        return None if beam is None else bool(beam.is_active)

    @property
    def owed_at_start(self) -> int:
        """The cards the file said were owed when the daemon started."""
        return 0 if self._owed is None or self.ejector is None else self._owed.at_start[0]

    def at_start(self, resumed: Launcher) -> list[Event]:
        """Cards owed when the daemon last stopped: owed again, not forgotten; to the seats
        of a resumed game's deliveries, else to whoever is at the slot. A jam or an empty
        hopper it was waiting on still waits for OK: the roller must not start with a card
        stuck, or a hand, in the slot. A controller's link is down until it answers."""
        ejector = self.ejector
        if ejector is not None and not ejector.link_up:  # a controller not heard from yet
            self._on_link(False)
        if self._owed is None or self.ejector is None:
            return []
        owed, fault = self._owed.at_start
        if not owed:
            return []
        now = self._clock.now()
        self.ejector.fault = fault
        sent = self._owed.sent_at_start
        if sent is not None:
            # Asked again under its id before anything else: the controller tells how it went.
            self.ejector.restore(sent)
        events: list[Event] = []
        if resumed.owed:
            self.ejector.dispense(resumed.owed)
        else:
            events.append(ExactDraw(owed, "restart", now))
        if fault is not None:
            events.append(LauncherStopped(fault, now))
        return events

    def edge(self, name: str, active: bool, time: float) -> None:
        """An edge of the beam or of the hopper switch."""
        if self.ejector is not None:
            self.ejector.edge(name, active, time)

    def _reported(self, report: Report) -> None:
        if isinstance(report, CardCounted):
            self._unheard += 1
        self._inbox.on_loop_after_this(report)

    def event_for(self, report: Report) -> Event:
        """What an ejector's report is to the game."""
        if isinstance(report, CardCounted):
            self._unheard -= 1
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

    def save_owed(self, launcher: Launcher) -> None:
        """Save what the game says is still owed, the card on its way out counted as dealt
        (after every event; returns at once on the table)."""
        ejector = self.ejector
        if self._owed is None or ejector is None:
            return
        # Exact, as the ejector's own count: the cards it counted are taken off before the
        # game hears of them, the one on its way out counts as dealt, and a controller's
        # dispense is kept so that a restart asks it again (docs/state.md).
        owed = max(0, launcher.owed - self._unheard - ejector.in_flight)
        self._owed.save((owed, launcher.fault if owed else None), ejector.sent)

    async def stop(self, handle: Callable[[Item], None]) -> None:
        """Stop the motor for good, the inbox closed: the launcher's edges that other threads
        have handed over land, the motor stops, they go to `handle`, and then the last count
        is made, as the controller does; its reports still queued go to `handle` after. A
        controller is told STOP and heard out (`Ejector.halt`)."""
        if self.ejector is None:
            return
        await self._inbox.landed()
        await self.ejector.halt(lambda: self._drain(handle))
        self._drain(handle)

    def _drain(self, handle: Callable[[Item], None]) -> None:
        for item in self._inbox.close():
            if isinstance(item, Report) or (
                isinstance(item, Edge) and item.input in LAUNCHER_INPUTS
            ):
                handle(item)

    def left_in_slot(self, owed: int) -> list[Event]:
        """After `stop`: the card left sticking out of the slot, if any, which belongs to the
        presser (SPEC §1)."""
        if self.ejector is not None and self.ejector.card_in_slot and owed:
            return [CardOut(self._clock.now())]
        return []

    def close(self, launcher: Launcher) -> None:
        """Keep the count left once the motor has stopped for good (no card is on its way
        any more), and close the file and the port."""
        self.save_owed(launcher)
        if self.ejector is not None:
            # The serial link's port; the GPIO ejector's motor lease (its pins are the board's).
            self.ejector.close()
        if self._owed is not None:
            self._owed.close()

    async def closed(self) -> None:
        """After `close`: wait until the launcher's port is let go of."""
        if self.ejector is not None:
            await self.ejector.closed()
