"""The card ejector on a launcher controller at the end of a serial line (firmware/PROTOCOL.md).

`SerialEjector` does what `GpioEjector` does, with the motor and the beam on a Raspberry Pi
Pico: it asks for cards under dispense ids and turns the controller's counts into one
`CardCounted` per card. An id serves one dispense; a new one is made only once the controller has
said the old one ended. Until then the same id is asked again — after a reconnect, a
controller reset, a lost frame, a restart of the daemon (the id is kept with the cards owed
before it is sent) — and the controller answers it from memory, so a card is never asked for
twice. After each card the controller waits, before the next can leave, until the host says
its record holds the count (KEPT): a controller that loses its power and forgets the dispense
can have dealt at most one card the record does not hold. While the port is gone it is opened
again (hardware.serial_line); cards asked for meanwhile wait as owed.

The link itself (frames, the heartbeat, the controller's starts) is hardware.controller_session.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Protocol

from firmware import protocol as p

from .clock import Clock
from .controller_session import ControllerSession
from .ejector import DEFAULT_JAM_TIME, CardCounted, Halted, Report
from .serial_dispense import ENDS, RESET_CAUSES, Sent, SerialDispense, counted_at_reset
from .serial_line import SerialLine

log = logging.getLogger(__name__)

DEFAULT_BAUD = 115200
HALT_WITHIN = 0.5  # seconds the shutdown waits for the controller to confirm STOP
RECENT = 4  # ended dispenses whose late cards still count (a card pulled out after a jam)


class Carrier(Protocol):
    """What carries the bytes: a port kept open (hardware.serial_line), or a test's script;
    made as `SerialLine` is, with the port, the baud rate and the three callbacks."""

    def close(self) -> None: ...

    async def closed(self) -> None: ...


class SerialEjector:
    """The launcher on a controller at `port`. Create it inside the running loop; `close` it.

    `on_link(up)` tells when the link comes and goes (for the LCD). `keep_sent(sent)` is
    asked before each new dispense leaves whether the record holds it (write-ahead); while
    not, the DISPENSE waits for `recheck`. `kept(sent)` tells whether the record holds the
    dispense with its cards counted so far: only then is the controller told (KEPT) that the
    next card may leave, at once or at a `recheck`. `carrier` opens the port (a test's script
    stands in for it)."""

    def __init__(
        self,
        port: str,
        *,
        clock: Clock,
        on_report: Callable[[Report], None],
        baud: int = DEFAULT_BAUD,
        on_link: Callable[[bool], None] = lambda up: None,
        first_id: int | None = None,
        jam_time: float = DEFAULT_JAM_TIME,
        keep_sent: Callable[[Sent], bool] = lambda sent: True,
        kept: Callable[[Sent], bool] = lambda sent: True,
        carrier: Callable[..., Carrier] = SerialLine,
    ) -> None:
        self.port = port
        self.baud = baud
        self._clock = clock
        self._report = on_report
        self._keep_sent = keep_sent
        self._kept = kept
        # Random, so that a restarted daemon never reuses an id the controller remembers.
        self._next_id = first_id or random.SystemRandom().randrange(1, 2**32)
        self.owed = 0
        self.fault: str | None = None
        self._jam_time = jam_time
        self.resets = 0
        self._current: SerialDispense | None = None
        self._asked_for: int | None = None  # the id of the DISPENSE sent on this connection
        self._told: Sent | None = None  # the dispense last told kept (KEPT) on this connection
        self._stopping = False  # halted at shutdown: nothing more is asked for
        # How the controller last stood (the dispense in play, STATE's state, id and count),
        # and since when, for `stands`.
        self._stood: tuple[tuple[int, int, int, int], float] | None = None
        self._recent: list[SerialDispense] = []
        # The link (public for what watches the line: whether it is open, quiet, its
        # controller's firmware, the bytes heard so far).
        self.session = ControllerSession(
            self, clock=clock, jam_ms=self._jam_ms(jam_time), on_link=on_link
        )
        self._line = carrier(
            port,
            baud,
            on_open=self.session.opened,
            on_data=self.session.received,
            on_lost=self.session.closed,
        )

    @property
    def busy(self) -> bool:
        """A dispense is on its way (the motor may be running)."""
        return self._current is not None

    @property
    def sent(self) -> Sent | None:
        """The dispense on its way, for the record: a restart asks the same id again."""
        return None if self._current is None else self._current.record

    in_flight = 0  # the record holds every card counted; KEPT lets at most one more leave
    card_in_slot = False  # a card sticking out of a controller's slot is its own to count

    def edge(self, name: str, active: bool, time: float) -> None:
        """A controller's beam and hopper switch are its own: nothing comes here."""

    def restore(self, sent: Sent) -> None:
        """Take up the dispense a daemon before this one sent: it is asked again under its
        id, once cards are owed, and the controller tells how it went."""
        self._current = SerialDispense(*sent, restored=True)

    def recheck(self) -> None:
        """The record was written: a dispense waiting for it may go, and the controller may
        hear that the cards counted are kept."""
        self._next()
        self._tell_kept()

    @property
    def link_up(self) -> bool:
        return self.session.link_up

    @property
    def jam_time(self) -> float:
        return self._jam_time

    @jam_time.setter
    def jam_time(self, seconds: float) -> None:
        self._jam_time = seconds
        self.session.set_jam_ms(self._jam_ms(seconds))

    def dispense(self, count: int) -> None:
        """Send out exactly `count` more cards (added to any still owed)."""
        if count < 0:
            raise ValueError("cannot dispense fewer than no cards")
        self.owed += count
        self._next()

    def resume(self) -> None:
        """Go on with the cards still owed (after a jam was cleared or the hopper refilled)."""
        self.fault = None
        self.dispense(0)

    async def halt(self, settle: Callable[[], None], within: float = HALT_WITHIN) -> None:
        """Stop the motor by the host's word, at shutdown: STOP, then wait, at most `within`
        seconds, until the controller has acknowledged it and ended the dispense it ran (its
        last cards counted). A controller that does not stops the motor itself once the host
        has been silent for its watchdog's time. The controller's beam is its own: `settle`
        has no edge to hand on here."""
        self._stopping = True
        if not self.session.connected:
            log.warning("launcher controller not linked at shutdown: its watchdog stops it")
            return
        self.session.send(p.STOP, b"")
        news = self.session.news
        deadline = asyncio.get_running_loop().time() + within
        try:
            while not self._halted():
                news.clear()
                left = deadline - asyncio.get_running_loop().time()
                await asyncio.wait_for(news.wait(), max(left, 0))
        except (TimeoutError, asyncio.CancelledError):
            # Cancelled too: the shutdown goes on, the controller's watchdog does the rest.
            log.warning("launcher controller did not confirm STOP within %.1f s", within)

    def _halted(self) -> bool:
        running = self._current
        asked = running is not None and self._asked_for == running.id
        return self.session.idle and not asked

    def close(self) -> None:
        """Let go of the port (`closed` waits until it is)."""
        self._line.close()
        self.session.let_go()

    async def closed(self) -> None:
        await self._line.closed()

    # -- what the session tells ----------------------------------------------------------

    def forget_asked(self) -> None:
        """What was asked on the link so far is to be asked again: the dispense in play under
        its id, and KEPT for the count the record holds."""
        self._asked_for = self._told = None

    def ask_again(self) -> None:
        """The dispense in play is to be asked again under its id (the link was down)."""
        self._asked_for = None

    def ask(self) -> None:
        """The controller may be asked for cards now."""
        self._next()

    def written(self, kind: int, payload: bytes) -> None:
        """A DISPENSE or KEPT was written to the line: the controller may have taken it, so
        it may have been let past that count (a frame only queued cannot have been)."""
        current = self._current
        ident, count = p.unpack(p.ID_PROGRESS, payload)
        if current is None or ident != current.id:
            return
        let_past = 0 if kind == p.DISPENSE else count
        current.let_past = max(current.let_past or 0, let_past)

    def judge_reset(self, cause: int, kept_id: int, kept_counted: int) -> None:
        self.resets += 1
        during = self._current
        # A board switched on while nothing ran is news, not trouble.
        level = logging.INFO if cause == p.R_POWER_ON and during is None else logging.WARNING
        log.log(
            level,
            "launcher controller restarted (%s)%s",
            RESET_CAUSES.get(cause, f"cause {cause}"),
            f" during dispense {during.id:#010x}" if during else "",
        )
        counted = counted_at_reset(during, kept_id, kept_counted)
        if during is not None and counted is not None:
            # Its cards are counted; the rest goes under a new id.
            self.progress(p.STOPPED, during.id, counted)

    def progress(self, kind: int, ident: int, counted: int) -> None:
        known = [d for d in (self._current, *self._recent) if d is not None and d.id == ident]
        if not known:
            log.debug("launcher controller: %#04x about dispense %#010x ignored", kind, ident)
            return
        dispense = known[0]
        while dispense.seen < min(counted, dispense.asked):
            dispense.seen += 1
            self._card_out()
        if dispense is not self._current:
            return
        if kind == p.CARD:
            if self.owed == 0 and dispense.seen < dispense.asked and not dispense.stopping:
                # A late card of an ended dispense was one of those this one asks for: no
                # more is owed, and it stops here (no KEPT lets the next card go).
                dispense.stopping = True
                self.session.send(p.STOP, b"")
            self._tell_kept()
            return
        self._current = None
        self._recent = [dispense, *self._recent][:RECENT]
        reason = ENDS.get(kind)
        if reason in ("jam", "empty") and self.owed > 0:
            self.fault = reason
            log.warning("launcher stopped: %s, %d card(s) still owed", reason, self.owed)
            self._report(Halted(reason, self._clock.now(), self.owed))
        elif reason == "host lost":
            log.warning("launcher controller stopped: it lost the host for a while")
        self._next()

    def stands(self, state: int, ident: int, counted: int) -> None:
        """How the controller stands, in its answer to the heartbeat (STATE). A frame taken is
        not always the frame sent: a damaged copy whose check passes by chance (about one
        damaged frame in 65,536, with a 16-bit CRC) is taken under the sequence number of the
        frame it came from, and that frame is then taken for a repeat and never acted on, on
        either side. So a dispense in play that the controller's STATEs show standing the same
        for longer than the jam time is asked again under its id: the controller starts it if
        its DISPENSE was lost, or answers from memory how it stands (its count, which is told
        kept again, or its end), and a STOP the host still means goes again. One that waits
        for no KEPT seldom stands so long (the beam moves within the jam time, or it ends),
        and asked again it changes nothing. Not at shutdown: once STOP is sent nothing more is
        asked for."""
        current = self._current
        if current is None or self._stopping:
            self._stood = None
            return
        stand, now = (current.id, state, ident, counted), self._clock.now()
        if self._stood is None or self._stood[0] != stand:
            self._stood = (stand, now)
            return
        if now - self._stood[1] <= self._jam_time:
            return
        self._stood = None
        current.stopping = False
        self.forget_asked()
        self._next()

    def error(self, code: int, about: int) -> None:
        log.warning("launcher controller refused a frame %#04x: error %d", about, code)
        if code == p.E_BUSY and about == p.DISPENSE and self._current is not None:
            # A dispense from before this daemon still runs there: stop it, ask again.
            self.session.send(p.STOP, b"")
            self._asked_for = None
            self._next()

    # -- inside --------------------------------------------------------------------------

    @staticmethod
    def _jam_ms(seconds: float) -> int:
        return round(seconds * 1000)

    def _card_out(self) -> None:
        """One more card out of the controller's slot. One the host no longer owes (a late
        card of an ended dispense came after the next was asked) is reported all the same,
        with nothing owed, so that no card that left goes uncounted."""
        now = self._clock.now()
        if self.owed == 0:
            log.warning("a card came out past the count: reported")
            self._report(CardCounted(now, 0))
            return
        self.owed -= 1
        self._report(CardCounted(now, self.owed))
        if self.owed == 0:
            self._report(Halted("done", now, 0))

    def _next(self) -> None:
        """Ask for what is owed, if nothing else is on its way and nothing holds it back.
        Nothing is asked of a controller that has fallen silent: should it come back from a
        power-on, a DISPENSE sent meanwhile would cost a card (it may have taken it)."""
        if not self.session.ready:
            return
        held = self.owed <= 0 or self.fault is not None or self._stopping
        if held and (self._current is None or self._current.restored):
            return  # a restored dispense waits too: the controller may have forgotten it
        if self._current is None:
            self._current = SerialDispense(self._next_id, min(self.owed, 255))
            self._next_id = self._next_id % (2**32 - 1) + 1
        current = self._current
        if self._asked_for != current.id and self._keep_sent(current.record):
            self._asked_for = current.id
            self.session.send(p.DISPENSE, p.pack(p.ID_COUNT, current.id, current.asked))

    def _tell_kept(self) -> None:
        """Tell the controller that the record holds the cards heard of the dispense it runs,
        so that the next may leave; only once the record does (it waits for `recheck`), and
        only while a card is still owed."""
        current = self._current
        if current is None or self._asked_for != current.id or self._told == current.record:
            return
        if not 0 < current.seen < current.asked or self.owed == 0:
            return
        if not self._kept(current.record):
            return
        self._told = current.record
        self.session.send(p.KEPT, p.pack(p.ID_PROGRESS, current.id, current.seen))
