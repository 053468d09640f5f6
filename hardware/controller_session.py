"""The host's side of a launcher controller's link (firmware/PROTOCOL.md): frames and their
resending, the heartbeat, whether the link is up, and the controller's starts.

`ControllerSession` talks to one controller over whatever carries the bytes: it is told when
the carrier opens (`opened(write)`), what comes (`received`) and when it is gone (`closed`);
hardware.serial_line does that for a port, the replays of firmware/vectors.json for a script.
It says HELLO at every opening, sends STATUS on a fixed beat of HEARTBEAT from the opening
whenever nothing else waits, takes the link as down after LINK_TIMEOUT without a frame from
the controller (and up again on its frames), welcomes each start of the controller (START)
and tells it the jam time. What the frames say about dispenses goes to its `Dispenses`
(hardware.serial_ejector): a reset, judged once per start; each card and end; a refusal; how
the controller stands, in its answer to the heartbeat (STATE); when it may ask for cards
(`ask`), and when what it asked must be asked again (`forget_asked`: a new opening, a start;
`ask_again`, the dispense alone: a link that was down and is back); and each DISPENSE and KEPT
as it is written.

The frames, acknowledgements and resending are the firmware's own pure modules (firmware/),
run here under CPython: one implementation of the protocol, checked on both interpreters.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from firmware import protocol as p
from firmware.link import Link

from .clock import Clock, Timer
from .firmware_faces import LinkFace

log = logging.getLogger(__name__)

HEARTBEAT = 0.5  # STATUS this often, so the controller knows the host is there
LINK_TIMEOUT = 1.2  # no good frame for this long: the link is down
# The frames whose writing the dispenses hear of: what the controller may have taken.
WATCHED = (p.DISPENSE, p.KEPT)


class Dispenses(Protocol):
    """What the session tells the dispenses of (hardware.serial_ejector.SerialEjector)."""

    def judge_reset(self, cause: int, kept_id: int, kept_counted: int) -> None: ...

    def progress(self, kind: int, ident: int, counted: int) -> None: ...

    def error(self, code: int, about: int) -> None: ...

    def forget_asked(self) -> None: ...

    def ask_again(self) -> None: ...

    def ask(self) -> None: ...

    def stands(self, state: int, ident: int, counted: int) -> None: ...

    def written(self, kind: int, payload: bytes) -> None: ...


class ControllerSession:
    """The link to one controller, for `dispenses`. `on_link(up)` tells when it comes and goes."""

    def __init__(
        self,
        dispenses: Dispenses,
        *,
        clock: Clock,
        jam_ms: int,
        on_link: Callable[[bool], None],
    ) -> None:
        self._dispenses = dispenses
        self._clock = clock
        self._jam_ms = jam_ms
        self._on_link = on_link
        self.link_up = False
        self.firmware: str | None = None  # "2.0.0", from the controller's INFO
        self.refused: str | None = None  # why the controller cannot be used, if so
        self._silent = False  # the link went down on this opening: ask again when it is back
        self._start: int | None = None  # the number of the controller's start last heard of
        self._reset_news: tuple[int, int, int] | None = None  # its last RESET, until its START
        self._link: LinkFace | None = None
        self._resend: Timer | None = None
        self._beat: Timer | None = None
        self.news = asyncio.Event()  # set whenever frames came in
        self.heard = 0  # bytes read from the controller, ever: the line's progress

    @property
    def connected(self) -> bool:
        """The carrier is open (the controller may not have answered yet: see `link_up`)."""
        return self._link is not None

    @property
    def ready(self) -> bool:
        """Cards may be asked for: the link is up, to a controller that speaks our protocol."""
        up = self._link is not None and self.link_up
        return up and self.firmware is not None and self.refused is None

    @property
    def idle(self) -> bool:
        """Open, and nothing sent waits for the controller's acknowledgement."""
        return self._link is not None and self._link.idle

    @property
    def quiet(self) -> bool:
        """Nothing sent waits for an acknowledgement and no frame is half received (true while
        nothing is open)."""
        link = self._link
        return link is None or (link.idle and link.between_frames)

    def set_jam_ms(self, ms: int) -> None:
        if ms != self._jam_ms:
            self._jam_ms = ms
            self._send_jam_time()

    def send(self, kind: int, payload: bytes) -> None:
        """Queue a frame for the controller (nothing while closed)."""
        if self._link is not None:
            self._link.send(kind, payload, self._us())
            self._arm_resend()

    # -- the carrier ---------------------------------------------------------------------

    def opened(self, write: Callable[[bytes], None]) -> None:
        def written(data: bytes) -> None:
            # A frame written may be taken, acknowledged or not: the dispenses hear of it first.
            if len(data) > 4 and data[3] in WATCHED:
                self._dispenses.written(data[3], data[4:-2])
            write(data)

        self._link = Link(written)
        self._silent = False
        self._dispenses.forget_asked()
        self.firmware = None  # until this opening's INFO: it may be another board now
        self.send(p.HELLO, bytes((p.PROTOCOL_VERSION,)))
        self._beat = self._clock.call_at(self._clock.now() + HEARTBEAT, self._heartbeat)

    def closed(self) -> None:
        for timer in (self._resend, self._beat):
            if timer is not None:
                timer.cancel()
        self._resend = self._beat = None
        self._link = None
        self._set_link(False)

    def let_go(self) -> None:
        """Closed on purpose: no warning, no notice."""
        self.link_up = False
        self.closed()

    def received(self, data: bytes) -> None:
        link = self._link
        if link is None:
            return
        self.heard += len(data)
        frames = link.receive(data, self._us())
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
            if self._silent:
                # News may have been lost while it was down: the dispense in play is asked
                # again (KEPT still waits in the queue, which an opening would have lost).
                self._silent = False
                self._dispenses.ask_again()
            self._dispenses.ask()  # cards asked for while the controller was silent
        self._arm_resend()
        self.news.set()

    # -- inside --------------------------------------------------------------------------

    def _set_link(self, up: bool) -> None:
        if up != self.link_up:
            self.link_up = up
            if up:
                log.info("launcher link up")
            else:
                log.warning("launcher link down: cards wait as owed")
            self._on_link(up)

    def _heartbeat(self) -> None:
        link = self._link
        if link is None:
            return
        heard = link.last_heard
        if heard is None or self._us() - heard > LINK_TIMEOUT * 1_000_000:
            if self.link_up:
                self._silent = True
            self._set_link(False)
        if link.idle:
            self.send(p.STATUS, b"")
        self._beat = self._clock.call_at(self._clock.now() + HEARTBEAT, self._heartbeat)

    def _us(self) -> int:
        return round(self._clock.now() * 1_000_000)

    def _arm_resend(self) -> None:
        if self._resend is not None:
            self._resend.cancel()
            self._resend = None
        due = None if self._link is None else self._link.next_due()
        if due is not None:
            self._resend = self._clock.call_at(due / 1_000_000, self._poll)

    def _poll(self) -> None:
        self._resend = None
        if self._link is not None:
            self._link.poll(self._us())
            self._arm_resend()

    def _message(self, kind: int, payload: bytes) -> None:
        if kind == p.INFO:
            version, major, minor, patch, board = p.unpack(p.INFO_FORMAT, payload)
            fresh = self.firmware is None  # the first since an opening or a start
            self.firmware = f"{major}.{minor}.{patch}"
            log.info(
                "launcher controller: firmware %s, protocol %d, board %s",
                self.firmware,
                version,
                board.hex(),
            )
            if version != p.PROTOCOL_VERSION:
                self.refused = f"firmware speaks protocol {version}, not {p.PROTOCOL_VERSION}"
                log.error("launcher controller refused: %s", self.refused)
                return
            self.refused = None
            if fresh:  # once: a HELLO sent again is answered again
                self._send_jam_time()
            if self.link_up:  # else it is asked as the link comes up
                self._dispenses.ask()
        elif kind == p.RESET:
            self._reset_news = p.unpack(p.RESET_FORMAT, payload)  # judged at its START
            # Nothing is asked of it until its INFO: what went before this start's welcome
            # would only be forgotten, and could not be told from what it took before.
            self.firmware = None
        elif kind == p.START:
            (start,) = p.unpack(p.START_FORMAT, payload)
            self._started(start)
        elif kind in p.PROGRESS:
            self._dispenses.progress(kind, *p.unpack(p.ID_PROGRESS, payload))
        elif kind == p.ERROR:
            self._dispenses.error(*p.unpack(p.ERROR_FORMAT, payload))
        elif kind == p.STATE:
            state, ident, counted, _asked, _empty, _clear = p.unpack(p.STATE_FORMAT, payload)
            self._dispenses.stands(state, ident, counted)

    def _started(self, start: int) -> None:
        # It takes nothing until this start is welcomed, and what it has not acknowledged was
        # meant for it before (a DISPENSE it would take as new): the welcome goes first, then
        # what is still meant, anew.
        if self._link is not None:
            self._link.forget()
        self.send(p.WELCOME, p.pack(p.START_FORMAT, start))
        self.firmware = None  # nothing is asked of this start before its INFO
        self._silent = False
        self._dispenses.forget_asked()
        self._send_jam_time()
        news, self._reset_news = self._reset_news, None
        if start != self._start:  # else the same start told again (an ACK lost, a new port)
            self._start = start
            # Without its RESET's news, nothing is known from before it: as after a power-on.
            self._dispenses.judge_reset(*(news or (p.R_POWER_ON, 0, 0)))

    def _send_jam_time(self) -> None:
        low, high = p.PARAMS[p.P_JAM_MS]
        self.send(p.SET, p.pack(p.SET_FORMAT, p.P_JAM_MS, max(low, min(high, self._jam_ms))))
