"""The launcher controller: commands from the host in, the dispenser's events out.

A dispense whose id was seen recently is answered from memory and never moves the motor
again. A card is let go only once the host has kept the count of the one before it (KEPT). No
good frame from the host for HOST_TIMEOUT_US stops the motor ("host lost"): the running
dispense ends there and the host asks for the rest under a new id.
"""

from . import protocol as p
from .dispenser import IDLE, Dispenser, earliest
from .link import Link

FIRMWARE_VERSION = (2, 0, 0)
HOST_TIMEOUT_US = 2000000
MEMORY = 16  # dispense ids remembered with how they ended


def banner(board_id):
    """The line of text the firmware writes when it starts, before its first frame: for a
    person at a terminal (PROTOCOL.md); a host drops it as bytes outside a frame."""
    version = ".".join(str(n) for n in FIRMWARE_VERSION)
    digits = "".join(f"{byte:02x}" for byte in board_id)
    return f"flashtable-launcher {version} protocol {p.PROTOCOL_VERSION} board {digits}\r\n"


def _no_edges():
    return ()


class Launcher:
    """Everything the firmware decides, on times passed in (integer microseconds).

    `write(bytes)` sends on the line, `drive(duty)` runs the motor (through `gate`, if one
    is given: gate.py), `keep(id, counted)` stores the running dispense where a reset does
    not erase it (the RP2040's watchdog scratch registers). `edges()` gives the beam's edges
    its interrupt stored since the last call, as (clear, time), for `take_beam`; without it,
    the edges come by `beam`."""

    def __init__(
        self,
        write,
        drive,
        beam_clear,
        hopper_empty,
        keep,
        board_id,
        now,
        gate=None,
        edges=_no_edges,
    ):
        self._link = Link(write)
        self._edges = edges
        self._keep = keep
        self._board_id = board_id
        self._beam_clear = beam_clear
        self._hopper_empty = hopper_empty
        self.dispenser = Dispenser(drive, beam_clear, hopper_empty, self._progress, gate)
        self._memory = []  # [id, event kind or None while running, counted]
        self._current = None  # the entry of the dispense running or waiting on a fault
        self.host_lost = False
        self._heard = now
        self._now = now  # the time of what is being handled, for the events it sends

    def boot(self, cause, kept_id, kept_counted, now, start=0):
        """Say that the firmware (re)started, and what the dispense it started last had done
        (RESET), and name this start (START, `start` a random number)."""
        if kept_id:
            # The host may still resend it: it must be answered, not dispensed again.
            self._remember([kept_id, p.STOPPED, kept_counted])
        reset = p.pack(p.RESET_FORMAT, cause, kept_id, kept_counted)
        named = p.pack(p.START_FORMAT, start)
        link = self._link

        def tell(when):
            # INFO too: a host waits for it after every RESET before it asks for a card.
            link.send(p.RESET, reset, when)
            link.send(p.START, named, when)
            self._send_info(when)

        def welcomed(kind, payload):
            # Until the host welcomes this start, what it sends was meant for the launcher
            # before the reset (a DISPENSE resent would start again from nothing).
            if kind == p.WELCOME and payload == named:
                return True
            if not (link.pending(p.RESET) or link.pending(p.START)):
                # A host that has not heard of this start (it came after): tell it again.
                tell(self._now)
            return False

        link.barrier = welcomed
        tell(now)

    @property
    def link(self):
        return self._link

    # -- from the outside

    def receive(self, data, now):
        self._now = now
        for kind, payload in self._link.receive(data, now):
            # The beam as it stood when the frame came: a STOP, a KEPT or a DISPENSE acts
            # after every edge the interrupt stored before it, however late the loop is.
            self.take_beam()
            self._command(kind, payload, now)
        if self._link.last_heard is not None and self._link.last_heard > self._heard:
            self._heard = self._link.last_heard
            self.host_lost = False

    def beam(self, clear, t):
        self._now = max(self._now, t)
        self.dispenser.beam(clear, t)

    def take_beam(self):
        """The edges the beam's interrupt stored (`edges`), to the dispenser in order."""
        for clear, t in self._edges():
            self.beam(clear, t)

    def hopper_emptied(self, now):
        self._now = now
        self.dispenser.hopper_emptied(now)

    def next_due(self):
        lost = None if self.host_lost else self._lost_at()
        return earliest((self.dispenser.next_due(), self._link.next_due(), lost))

    def poll(self, now):
        self._now = now
        self.dispenser.poll(now)
        self._link.poll(now)
        if not self.host_lost and now >= self._lost_at():
            self.host_lost = True
            self._stop(p.HOST_LOST, now)

    # -- inside

    def _lost_at(self):
        return self._heard + HOST_TIMEOUT_US

    def _command(self, kind, payload, now):
        if kind == p.HELLO:
            if payload[0] != p.PROTOCOL_VERSION:
                self._error(p.E_VERSION, kind, now)
            self._send_info(now)
        elif kind == p.DISPENSE:
            ident, count = p.unpack(p.ID_COUNT, payload)
            self._dispense(ident, count, now)
        elif kind == p.WELCOME:
            pass  # it has done its work in the link: frames are taken from here on
        elif kind == p.KEPT:
            ident, counted = p.unpack(p.ID_PROGRESS, payload)
            entry = self._current
            # Only the running dispense waits for it; a late one about another is no news.
            if entry is not None and entry[0] == ident and entry[1] is None:
                self.dispenser.keep(counted, now)
        elif kind == p.RETRACT:
            if self.dispenser.state == IDLE:
                self.dispenser.retract(now)
            else:
                self._error(p.E_BUSY, kind, now)
        elif kind == p.STATUS:
            self._send_state(now)
        elif kind == p.STOP:
            self._stop(p.STOPPED, now)
        elif kind == p.SET:
            param, value = p.unpack(p.SET_FORMAT, payload)
            self._set(param, value, now)
        else:
            self._error(p.E_TYPE, kind, now)

    def _stop(self, reason, now):
        # The edges stored until the motor stopped (an interrupt may have come while this
        # frame was handled) are handed on after it: a card that left before counts.
        self.dispenser.stop(reason, now, self.take_beam)

    def _dispense(self, ident, count, now):
        if not ident or not count:
            self._error(p.E_PAYLOAD, p.DISPENSE, now)
            return
        for entry in self._memory:
            if entry[0] == ident:
                # Seen before: tell how it stands, move nothing.
                self._tell(entry, now)
                return
        if self._current is not None and self._current[1] is None:
            self._error(p.E_BUSY, p.DISPENSE, now)
            return
        # A card that cleared the beam a moment ago (pulled out of a jam) counts for the
        # dispense it came from, before this one takes the beam.
        self.dispenser.settle(now)
        entry = [ident, None, 0]
        self._remember(entry)
        self._current = entry
        self._keep(ident, 0)
        self.dispenser.start(count, now)

    def _set(self, param, value, now):
        limits = p.PARAMS.get(param)
        if limits is None:
            self._error(p.E_PARAM, p.SET, now)
        elif not limits[0] <= value <= limits[1]:
            self._error(p.E_PAYLOAD, p.SET, now)
        elif param == p.P_JAM_MS:
            self.dispenser.jam_us = value * 1000
        else:
            self.dispenser.retract_us = value * 1000

    def _progress(self, kind, counted):
        entry = self._current
        if entry is None:
            return
        entry[2] = counted
        if kind != p.CARD:
            entry[1] = kind
        self._keep(entry[0], counted)
        # What happened, as it happened: a card pulled out of a jam by hand is a CARD, though
        # its dispense has ended (asked again, the id is answered with how it ended).
        self._link.send(kind, p.pack(p.ID_PROGRESS, entry[0], counted), self._now)

    def _tell(self, entry, now):
        kind = p.CARD if entry[1] is None else entry[1]
        self._link.send(kind, p.pack(p.ID_PROGRESS, entry[0], entry[2]), now)

    def _remember(self, entry):
        self._memory.append(entry)
        if len(self._memory) > MEMORY:
            self._memory.pop(0)

    def _send_info(self, now):
        major, minor, patch = FIRMWARE_VERSION
        info = p.pack(p.INFO_FORMAT, p.PROTOCOL_VERSION, major, minor, patch, self._board_id)
        self._link.send(p.INFO, info, now)

    def _send_state(self, now):
        d = self.dispenser
        if self.host_lost and d.state == IDLE:
            state = p.S_HOST_LOST
        else:
            state = (p.S_IDLE, p.S_RUNNING, p.S_JAM, p.S_EMPTY)[d.state]
        ident = 0 if self._current is None else self._current[0]
        flags = (1 if self._hopper_empty() else 0, 1 if self._beam_clear() else 0)
        self._link.send(
            p.STATE, p.pack(p.STATE_FORMAT, state, ident, d.counted, d.asked, *flags), now
        )

    def _error(self, code, about, now):
        self._link.send(p.ERROR, p.pack(p.ERROR_FORMAT, code, about), now)
