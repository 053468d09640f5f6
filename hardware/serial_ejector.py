"""The card ejector on a launcher controller at the end of a serial line (firmware/PROTOCOL.md).

`SerialEjector` does what `GpioEjector` does, with the motor and the beam on a Raspberry Pi
Pico: it asks for cards under dispense ids and turns the controller's counts into one
`CardCounted` per card. An id serves one dispense; a new one is made only once the controller has
said the old one ended. Until then the same id is asked again — after a reconnect, a
controller reset, a lost frame, a restart of the daemon (the id is kept with the cards owed
before it is sent) — and the controller answers it from memory, so a card is never asked for
twice. After each card the controller waits, before the next can leave, until the host says
its record holds the count (KEPT): a controller that loses its power and forgets the dispense
can have dealt at most one card the record does not hold. The line below, kept open and
framed by the firmware's own modules, is controller_link.py's; while the port is gone, cards
asked for meanwhile wait as owed.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable

from firmware import protocol as p

from .clock import Clock
from .controller_link import ControllerLink, Frame
from .ejector import DEFAULT_JAM_TIME, CardCounted, Halted, Report
from .serial_dispense import (
    ENDS,
    RESET_CAUSES,
    Sent,
    SerialDispense,
    controller_info,
    counted_at_reset,
)

log = logging.getLogger(__name__)

DEFAULT_BAUD = 115200
HALT_WITHIN = 0.5  # seconds the shutdown waits for the controller to confirm STOP
RECENT = 4  # ended dispenses whose late cards still count (a card pulled out after a jam)


class SerialEjector:
    """The launcher on a controller at `port`. Create it inside the running loop; `close` it.

    `on_link(up)` tells when the link comes and goes (for the LCD). `keep_sent(sent)` is
    asked before each new dispense leaves whether the record holds it (write-ahead); while
    not, the DISPENSE waits for `recheck`. `kept(sent)` tells whether the record holds the
    dispense with its cards counted so far: only then is the controller told (KEPT) that the
    next card may leave, at once or at a `recheck`."""

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
    ) -> None:
        self.port, self.baud = port, baud
        self._clock = clock
        self._report = on_report
        self._on_link = on_link
        self._keep_sent, self._kept = keep_sent, kept
        # Random, so that a restarted daemon never reuses an id the controller remembers.
        self._next_id = first_id or random.SystemRandom().randrange(1, 2**32)
        self.owed = 0
        self.fault: str | None = None
        self._jam_time = jam_time
        self.link_up = False
        self.firmware: str | None = None  # "2.0.0", from the controller's INFO
        self.refused: str | None = None  # why the controller cannot be used, if so
        self.resets = 0
        self._current: SerialDispense | None = None
        self._asked_for: int | None = None  # the id of the DISPENSE sent on this connection
        self._told: Sent | None = None  # the dispense last told kept (KEPT) on this connection
        self._start: int | None = None  # the number of the controller's start last heard of
        self._reset_news: tuple[int, int, int] | None = None  # its last RESET, until its START
        self._stopping = False
        self._recent: list[SerialDispense] = []
        self._news = asyncio.Event()  # set whenever frames came in
        self.line = ControllerLink(  # the port, whether it is open and quiet
            port,
            baud,
            clock=clock,
            on_open=self._connected,
            on_frames=self._received,
            on_down=lambda: self._set_link(False),
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
        """Take up the dispense a daemon before this one sent: asked again under its id."""
        self._current = SerialDispense(*sent, restored=True)

    def recheck(self) -> None:
        """The record was written: a dispense waiting for it may go, and the controller may
        hear that the cards counted are kept."""
        self._next()
        self._tell_kept()

    @property
    def jam_time(self) -> float:
        return self._jam_time

    @jam_time.setter
    def jam_time(self, seconds: float) -> None:
        if seconds != self._jam_time:
            self._jam_time = seconds
            self._send_jam_time()

    def dispense(self, count: int) -> None:
        """Send out exactly `count` more cards (added to any still owed)."""
        if count < 0:
            raise ValueError("cannot dispense fewer than no cards")
        self.owed += count
        self._stopping = False
        self._next()

    def resume(self) -> None:
        """Go on with the cards still owed (after a jam was cleared or the hopper refilled)."""
        self.fault = None
        self.dispense(0)

    def stop(self) -> None:
        """Stop the motor now and forget nothing: `owed` stays for the next dispense."""
        self._stopping = True
        if self._current is not None:
            self.line.send(p.STOP, b"")

    async def halt(self, within: float = HALT_WITHIN) -> bool:
        """Stop the motor by the host's word, at shutdown: STOP, then wait, at most `within`
        seconds, until the controller has acknowledged it and ended the dispense it ran (its
        last cards counted). Returns whether it did; if not, the controller stops the motor
        itself once the host has been silent for its watchdog's time."""
        self._stopping = True
        if not self.line.connected:
            log.warning("launcher controller not linked at shutdown: its watchdog stops it")
            return False
        self.line.send(p.STOP, b"")
        deadline = asyncio.get_running_loop().time() + within
        try:
            while not self._halted():
                self._news.clear()
                left = deadline - asyncio.get_running_loop().time()
                await asyncio.wait_for(self._news.wait(), max(left, 0))
        except (TimeoutError, asyncio.CancelledError):
            # Cancelled too: the shutdown goes on, the controller's watchdog does the rest.
            log.warning("launcher controller did not confirm STOP within %.1f s", within)
            return False
        return True

    def _halted(self) -> bool:
        running = self._current
        asked = running is not None and self._asked_for == running.id
        return self.line.idle and not asked

    def close(self) -> None:
        """Let go of the port (its task ends on the loop's next turn)."""
        self.line.close()
        self.link_up = False  # let go on purpose: no warning, no notice

    async def closed(self) -> None:
        await self.line.closed()

    # -- the connection ------------------------------------------------------------------

    def _connected(self) -> None:
        self._asked_for = self._told = None
        self.firmware = None  # until this connection's INFO: it may be another board now
        self.line.send(p.HELLO, bytes((p.PROTOCOL_VERSION,)))

    def _set_link(self, up: bool) -> None:
        if up != self.link_up:
            self.link_up = up
            if up:
                log.info("launcher link up")
            else:
                log.warning("launcher link down: cards wait as owed")
            self._on_link(up)

    # -- frames --------------------------------------------------------------------------

    def _received(self, frames: list[Frame]) -> None:
        for kind, payload in frames:
            try:
                self._message(kind, payload)
            except Exception:  # a message we cannot use must not take the table down
                log.exception("launcher controller message %#04x %s", kind, payload.hex())
        # Back only on the controller's frames: bytes that are none (the banner of a board just
        # switched on, noise) come before its RESET, and a DISPENSE sent on them would be
        # judged by that RESET as one the board may have dealt from.
        if frames and self.refused is None and self.firmware is not None and not self.link_up:
            self._set_link(True)
            self._next()  # cards asked for while the controller was silent
        self._news.set()

    def _message(self, kind: int, payload: bytes) -> None:
        if kind == p.INFO:
            self.firmware, self.refused = controller_info(payload)
            if self.refused is None:
                self._send_jam_time()
                self._next()
        elif kind == p.RESET:
            self._reset_news = p.unpack(p.RESET_FORMAT, payload)  # judged at its START
            # Nothing is asked of it until its INFO: what went before this start's welcome
            # would only be forgotten, and could not be told from what it took before.
            self.firmware = None
        elif kind == p.START:
            (start,) = p.unpack(p.START_FORMAT, payload)
            self._controller_started(start)
        elif kind in p.PROGRESS:
            self._progress(kind, *p.unpack(p.ID_PROGRESS, payload))
        elif kind == p.ERROR:
            self._error(*p.unpack(p.ERROR_FORMAT, payload))

    def _controller_started(self, start: int) -> None:
        # It takes nothing until this start is welcomed, and what it has not acknowledged was
        # meant for it before (a DISPENSE it would take as new): the welcome goes first, then
        # what is still meant, anew.
        self.line.forget()
        self.line.send(p.WELCOME, p.pack(p.START_FORMAT, start))
        self._asked_for = self._told = None
        self._send_jam_time()
        news, self._reset_news = self._reset_news, None
        if start != self._start:  # else the same start told again (an ACK lost, a new port)
            self._start = start
            # Without its RESET's news, nothing is known from before it: as after a power-on.
            self._judge_reset(*(news or (p.R_POWER_ON, 0, 0)))
        self._next()

    def _judge_reset(self, cause: int, kept_id: int, kept_counted: int) -> None:
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
            self._progress(p.STOPPED, during.id, counted)

    def _progress(self, kind: int, ident: int, counted: int) -> None:
        known = [d for d in (self._current, *self._recent) if d is not None and d.id == ident]
        if not known:
            log.debug("launcher controller: %#04x about dispense %#010x ignored", kind, ident)
            return
        dispense = known[0]
        while dispense.seen < min(counted, dispense.asked) and self.owed > 0:
            dispense.seen += 1
            self.owed -= 1
            self._report(CardCounted(self._clock.now(), self.owed))
            if self.owed == 0:
                self._report(Halted("done", self._clock.now(), 0))
        if dispense is not self._current:
            return
        if kind == p.CARD:
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

    def _error(self, code: int, about: int) -> None:
        log.warning("launcher controller refused a frame %#04x: error %d", about, code)
        if code == p.E_BUSY and about == p.DISPENSE and self._current is not None:
            # A dispense from before this daemon still runs there: stop it, ask again.
            self.line.send(p.STOP, b"")
            self._asked_for = None
            self._next()

    def _send_jam_time(self) -> None:
        low, high = p.PARAMS[p.P_JAM_MS]
        ms = max(low, min(high, round(self._jam_time * 1000)))
        self.line.send(p.SET, p.pack(p.SET_FORMAT, p.P_JAM_MS, ms))

    def _next(self) -> None:
        """Ask for what is owed, if nothing else is on its way and nothing holds it back.
        Nothing is asked of a controller that has fallen silent: should it come back from a
        power-on, a DISPENSE sent meanwhile would cost a card (it may have taken it)."""
        if not self.line.connected or not self.link_up or self.firmware is None or self.refused:
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
            if current.let_past is None:
                current.let_past = 0  # from here on its first card may leave
            self.line.send(p.DISPENSE, p.pack(p.ID_COUNT, current.id, current.asked))

    def _tell_kept(self) -> None:
        """Tell the controller that the record holds the cards heard of the dispense it runs,
        so that the next may leave; only once the record does (it waits for `recheck`)."""
        current = self._current
        if current is None or self._asked_for != current.id or self._told == current.record:
            return
        if not 0 < current.seen < current.asked or not self._kept(current.record):
            return
        self._told = current.record
        current.let_past = max(current.let_past or 0, current.seen)
        self.line.send(p.KEPT, p.pack(p.ID_PROGRESS, current.id, current.seen))
