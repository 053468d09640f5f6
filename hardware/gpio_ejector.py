"""The card ejector on the Pi's own pins: a motor, the break-beam at the slot, a hopper switch.

A card's life has one set of rules, the firmware's `Dispenser` (firmware/dispenser.py), run
here as the controller runs it on its own pins: a card counts when its back end has cleared
the beam and the beam has stayed clear for a moment, so a flicker inside a card or a glitch
shorter than a card never counts; at the n-th card the motor stops at once and runs backwards
briefly, pulling the next card back into the hopper, but never against a hand clearing a jam;
no beam edge for the jam time while the motor runs is a jam.

A card is let go only when the owner's record allows it (`may_feed`): before the motor starts
and after each card counted, the record must already say how many will be owed once the
next card is out. After a count the motor runs on for the dispenser's KEPT_WINDOW_US while
the record catches up, and stops, before the next card can reach the slot's mouth, if it has
not; `recheck` starts it again. So a record on disk never counts a card that has left as
still owed.

The motor stops by itself at the count allowed, as on the controller: it goes through the
firmware's `Gate` (firmware/gate.py), told each beam edge on the pin backend's own thread
(`beam_edge_now`; docs/architecture.md, "The thread border"), under a lock of its own: a
card's front beyond the count asked, or beyond the record's, stops it whatever the loop does.

The loop never runs ahead of the beam: the dispenser's next moment waits while a beam edge
the kernel has stamped is still on its way to the loop (`edges_waiting`), so a jam is never
declared while the edge that disproves it waits on the pins' thread (for half a second at
most: a beam line that never falls quiet cannot put the jam off for ever).

The motor never runs without the loop's attention for long: a running motor holds a
`MotorLease` of LEASE seconds, renewed every HEARTBEAT, whose own thread stops the motor if
the loop stalls past it. The edges of a stall keep their own times: the cards owed are
counted as usual, the motor starts again for the rest, and a card out past the count all the
same (a backend that hands edges on late) is reported too, with nothing owed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial
from typing import Protocol

from firmware.dispenser import MIN_CARD_US, RUNNING, Dispenser
from firmware.gate import Gate
from firmware.protocol import CARD, DONE, EMPTY, JAM

from .clock import Clock, Timer
from .ejector import DEFAULT_JAM_TIME, US, CardCounted, Halted, Report
from .firmware_faces import DispenserFace, GateFace
from .motor_lease import MotorLease
from .serial_dispense import Sent

log = logging.getLogger(__name__)

# The motor's lease: about two cards' travel at full speed, so a stalled loop lets out at most
# that; renewed well inside it while the loop keeps up.
LEASE = 0.25
HEARTBEAT = 0.05
# How soon the dispenser's next moment is looked at again while a beam edge is on its way,
# and how long past that moment it waits so at most: a pins' thread kept from the CPU for
# less hands its edge over in time, while a beam line that never falls quiet, or a pins'
# thread that no longer hands edges over, cannot put a jam off for ever.
EDGE_WAIT = 0.002
EDGE_WAIT_LIMIT = 0.5


class RollerMotor(Protocol):
    """The roller's motor as `GpioEjector` drives it (gpiozero's `Motor` is one): speeds
    from 0 to 1."""

    def forward(self, speed: float) -> None: ...

    def backward(self, speed: float) -> None: ...

    def stop(self) -> None: ...


class GpioEjector:
    """The launcher on gpiozero devices: a `Motor`, beam edges fed to `beam`, a hopper switch,
    its cards' lives the firmware's `Dispenser`'s.

    Beam edges arrive twice: at once, on the pin backend's thread, through `beam_edge_now`
    (the gate's), and through `beam(clear, time)` (or `edge`) from whoever owns the pin
    callbacks (the daemon, on its loop); reports go to `on_report`. Everything runs on the
    loop's thread but `beam_edge_now` and the lease's stop."""

    link_up = True  # the Pi's own pins
    sent = None  # no controller runs a dispense of its own

    def __init__(
        self,
        motor: RollerMotor,
        *,
        clock: Clock,
        on_report: Callable[[Report], None],
        beam_clear: Callable[[], bool],
        hopper_empty: Callable[[], bool] = lambda: False,
        jam_time: float = DEFAULT_JAM_TIME,
        may_feed: Callable[[int], bool] = lambda remaining: True,
        lease: MotorLease | None = None,
        edges_waiting: Callable[[], bool] = lambda: False,
    ) -> None:
        self._motor = motor
        self._edges_waiting = edges_waiting
        self._clock = clock
        self._report = on_report
        self._beam_clear = beam_clear
        self._may_feed = may_feed
        self._lease = lease
        # The gate's fields and the motor are touched from the pin backend's thread too: under
        # this lock (re-entrant: a simulated motor may move the beam in the same call).
        self._lock = threading.RLock()
        gate = Gate(self._set_motor, self._now, hold=self._hold, let_go=self._let_go)
        self._gate: GateFace = gate
        self._dispenser: DispenserFace = Dispenser(
            None, beam_clear, hopper_empty, self._progress, self._gate
        )
        self.jam_time = jam_time
        self.owed = 0
        self.fault: str | None = None  # "jam" or "empty": nothing runs until `resume`
        self._waiting = False  # cards are owed: a dispense starts once the record allows it
        self._due: Timer | None = None  # the dispenser's next moment
        self._beat: Timer | None = None  # the lease's renewal
        self._duty = 0  # per mille, negative backwards, as the dispenser last drove it
        self._stopped_at: float | None = None  # when the motor last stopped driving forwards
        self._past_blocked_at: float | None = None  # a card past the count, in the beam

    @property
    def jam_time(self) -> float:
        return self._dispenser.jam_us / US

    @jam_time.setter
    def jam_time(self, seconds: float) -> None:
        self._dispenser.jam_us = round(seconds * US)

    @property
    def busy(self) -> bool:
        return self._waiting or self._dispenser.state == RUNNING or self._duty != 0

    @property
    def in_flight(self) -> int:
        """1 while a card is on its way out (fed, about to be, or stuck in the beam by a
        fault), else 0: a record that counts it as dealt errs by one card fewer, never one
        more."""
        going = self._waiting or self._dispenser.state == RUNNING
        if self._dispenser.stuck or (going and self.owed > 0 and self.fault is None):
            return 1
        return 0

    @property
    def card_in_slot(self) -> bool:
        return not self._beam_clear()

    def dispense(self, count: int) -> None:
        """Send out exactly `count` more cards (added to any still owed)."""
        if count < 0:
            raise ValueError("cannot dispense fewer than no cards")
        self.owed += count
        if self._dispenser.state == RUNNING:
            self._dispenser.add(count)  # the dispense running takes them on
        elif self.owed > 0 and self.fault is None and not self._waiting:
            self._waiting = True
            self.recheck()

    def recheck(self) -> None:
        """The record may have caught up: feed the next card if it now allows it."""
        if self._waiting and self._may_feed(self.owed - 1):
            self._waiting = False
            self._stopped_at = self._past_blocked_at = None
            self._dispenser.start(self.owed, self._now())
        self._settle()

    def resume(self) -> None:
        """Go on with the cards still owed (after a jam was cleared or the hopper refilled)."""
        self.fault = None
        self.dispense(0)

    def restore(self, sent: Sent) -> None:
        """A controller's dispense, from a record made with one: the Pi's pins know nothing
        of it; the cards it still owed are owed here as they are."""

    def stop(self, settle: Callable[[], None] = lambda: None) -> None:
        """Stop the motor now and forget nothing: `owed` stays for the next dispense. Once
        the motor is off, `settle()` hands on the beam's edges still waiting to be (stamped
        before the stop, queued on the loop), and then the count is made, as the controller
        does: a card that left before the stop counts for the dispense."""
        self._waiting = False
        self._dispenser.stop("stop", self._now(), settle)
        self._settle()

    async def halt(self, settle: Callable[[], None]) -> None:
        self.stop(settle)

    def close(self) -> None:
        """Stop the motor for good, and its lease's thread."""
        self.stop()
        if self._lease is not None:
            self._lease.close()

    async def closed(self) -> None:
        """Nothing is left to wait for: `close` joined the lease's thread."""

    def edge(self, name: str, active: bool, time: float) -> None:
        if name == "launcher.beam":
            self.beam(active, time)
        elif name == "launcher.empty" and active:
            self.hopper_emptied()

    def beam_edge_now(self, clear: bool, time: float) -> None:
        """A beam edge as it happens, from any thread: the gate may stop the motor there."""
        self._gate.edge(clear, round(time * US))

    def beam(self, clear: bool, time: float) -> None:
        """A beam edge: `clear` False when a card starts blocking it, True when it has passed."""
        dispenser = self._dispenser
        dispenser.beam(clear, round(time * US))
        if dispenser.state != RUNNING and not dispenser.stuck:
            # The dispenser takes no card here: the retract may pull one back through the
            # beam, a hand clearing a jam may cross it. A card that passed while the motor
            # still drove it forwards (a stalled loop stopped it late) is one all the same.
            self._past_count(clear, time)
        self._settle()

    def hopper_emptied(self) -> None:
        """The hopper switch closed: nothing more can come out until a refill."""
        self._dispenser.hopper_emptied(self._now())
        self._settle()

    # -- inside ----------------------------------------------------------------------

    def _now(self) -> int:
        return round(self._clock.now() * US)

    def _progress(self, kind: int | str, counted: int) -> None:
        """What the dispenser tells: a card, the end of the dispense, a fault (or the reason
        given to its `stop`)."""
        now = self._clock.now()
        if kind == CARD:
            self.owed -= 1
            self._report(CardCounted(now, self.owed))
        elif kind == DONE:
            self._report(Halted("done", now, self.owed))
        elif kind in (JAM, EMPTY):
            self.fault = "jam" if kind == JAM else "empty"
            log.warning("launcher stopped: %s, %d card(s) still owed", self.fault, self.owed)
            self._report(Halted(self.fault, now, self.owed))

    def _settle(self) -> None:
        """After each step of the dispenser: the record may already hold the last count (the
        next card may go on at once), and its next moment is due."""
        dispenser = self._dispenser
        if dispenser.state == RUNNING and dispenser.kept < dispenser.counted:
            if self._may_feed(self.owed - 1):
                dispenser.keep(dispenser.counted, self._now())
            elif dispenser.held:
                log.warning("the record of the cards owed lags: the launcher waits for it")
        if self._due is not None:
            self._due.cancel()
            self._due = None
        self._attend()
        due = dispenser.next_due()
        if due is not None:
            self._due = self._clock.call_at(due / US, self._poll)

    def _poll(self, since: float | None = None) -> None:
        """The dispenser's next moment, once every beam edge the kernel stamped before it has
        been handed here: edge time is truth, so a jam is never declared while the edge that
        disproves it waits on the pins' thread or the loop's queue (`edges_waiting`); for
        EDGE_WAIT_LIMIT at most, `since` the moment was first due."""
        self._due = None
        now = self._clock.now()
        since = now if since is None else since
        if now - since < EDGE_WAIT_LIMIT and self._edges_waiting():
            self._due = self._clock.call_at(now + EDGE_WAIT, partial(self._poll, since))
            return
        self._dispenser.poll(self._now())
        self._settle()

    def _hold(self) -> int:
        self._lock.acquire()
        return 1

    def _let_go(self, _state: int) -> None:
        self._lock.release()

    def _set_motor(self, duty: int) -> None:
        """The gate's motor (under its lock, from either thread): per mille, negative
        backwards."""
        if self._duty > 0 and duty <= 0:
            self._stopped_at = self._clock.now()
        self._duty = duty
        if duty > 0:
            self._motor.forward(duty / 1000)
        elif duty < 0:
            self._motor.backward(-duty / 1000)
        else:
            self._motor.stop()

    def _attend(self) -> None:
        """The lease follows the motor: held while it runs, renewed at each step and every
        HEARTBEAT. One that ran out (the loop stalled) stopped the motor: a feed goes on with
        a fresh start, a retract stays cut short."""
        lease = self._lease
        if lease is None:
            return
        if self._duty != 0 and not lease.renew(LEASE):
            log.warning("the loop stalled past the motor's lease: the launcher starts again")
            with self._lock:
                self._duty = 0  # the lease's thread stopped it
            if self._dispenser.state == RUNNING and not self._dispenser.held:
                self._dispenser.restart(self._now())
            else:
                self._gate.drive(0)
        if self._duty == 0:
            lease.end()
            if self._beat is not None:
                self._beat.cancel()
                self._beat = None
        elif self._beat is None:
            self._beat = self._clock.call_at(self._clock.now() + HEARTBEAT, self._heartbeat)

    def _heartbeat(self) -> None:
        """The loop still attends to the motor."""
        self._beat = None
        self._settle()

    def _past_count(self, clear: bool, time: float) -> None:
        """An edge the dispenser took no card from. One from before the motor stopped driving
        forwards, that ends a whole card, is a card the motor drove out past the count:
        reported, with nothing owed."""
        if self._stopped_at is None or time >= self._stopped_at:
            return
        if not clear:
            self._past_blocked_at = time
            return
        blocked, self._past_blocked_at = self._past_blocked_at, None
        if blocked is not None and (time - blocked) * US >= MIN_CARD_US:
            log.warning("a card came out past the count (the loop stalled): reported")
            self._report(CardCounted(time, 0))
