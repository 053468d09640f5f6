"""The card ejector: dispense exactly n cards, counted by the break-beam at the slot.

`Ejector` is what the daemon asks of a launcher, and `Report` what a launcher tells it back;
both ejectors meet it: `GpioEjector` (here) on the Pi's own pins, `SerialEjector`
(serial_ejector.py) on a controller at the end of a serial line.

`GpioEjector` runs the launcher on the Pi's own pins. A card counts when its back end has
cleared the beam and the beam has stayed clear for a moment, so a flicker inside a card or a
glitch shorter than a card never counts. At the n-th card the motor stops at once and runs
backwards briefly, pulling the next card back into the hopper; the motor never runs on for
a card that was not asked for. No beam edge for the jam time while the motor runs is a jam.

A card is let go only when the owner's record allows it (`may_feed`): before the motor starts
and after each card counted, the record must already say how many will be owed once the
next card is out. After a count the motor runs on for WRITE_WINDOW while the record catches
up, and stops, before the next card can reach the slot's mouth, if it has not; `recheck`
starts it again. So a record on disk never counts a card that has left as still owed.

The motor never runs without the loop's attention for long: with a `MotorLease`, every drive
holds a lease of LEASE seconds, renewed every HEARTBEAT while the motor runs, and the lease's
own thread stops the motor if the loop stalls past it (hardware/motor_lease.py). The beam's
edges of a stall keep their own times: the cards still owed are counted as usual, the motor
starts again for the rest, and a card that a stalled loop let out past the count is reported
too (`CardCounted` with nothing owed), so no card that left goes uncounted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .clock import Clock, Timer
from .motor_lease import MotorLease
from .serial_dispense import Sent

log = logging.getLogger(__name__)

# A card blocks the beam for 25 ms or more even at the slowest feed; glitches are shorter.
MIN_CARD_TIME = 0.004
# The beam must stay clear this long after a card before the card counts.
CLEAR_TIME = 0.003
# Soft start: the duty climbs in steps, so the roller grips the card instead of slipping.
SOFT_START = (0.45, 0.65, 0.85, 1.0)
SOFT_START_STEP = 0.04
RETRACT_DUTY = 0.7
RETRACT_TIME = 0.06
DEFAULT_JAM_TIME = 0.8
# How long the motor runs on after a count for the record to say the next card is on its way:
# well under the shortest travel of a fresh card to the beam (about 80 ms at full speed).
WRITE_WINDOW = 0.04
# The motor's lease: about two cards' travel at full speed, so a stalled loop lets out at most
# that; renewed well inside it while the loop keeps up.
LEASE = 0.25
HEARTBEAT = 0.05


@dataclass(frozen=True)
class CardCounted:
    """The beam counted one more card out of the slot; `owed` is what is still to send."""

    time: float
    owed: int


@dataclass(frozen=True)
class Halted:
    """The motor stopped: "done" (all out), "jam" or "empty"; `owed` cards are still owed."""

    reason: str
    time: float
    owed: int


Report = CardCounted | Halted


class Ejector(Protocol):
    """A launcher as the daemon drives it. Reports go to the `on_report` it was made with."""

    owed: int  # cards asked for and not yet counted out
    fault: str | None  # "jam" or "empty" while it waits for `resume`
    jam_time: float  # seconds without a card, the motor running, that make a jam

    @property
    def busy(self) -> bool:
        """A dispense is on its way (the motor may be running)."""

    @property
    def link_up(self) -> bool:
        """The launcher can be reached (the Pi's own pins always can)."""

    @property
    def in_flight(self) -> int:
        """Cards on their way out that its record must count as dealt already (0 or 1)."""

    @property
    def sent(self) -> Sent | None:
        """The dispense a controller is running, for the record (none on the Pi's pins)."""

    @property
    def card_in_slot(self) -> bool:
        """A card sticks out of the slot now, that the beam has not counted."""

    def dispense(self, count: int) -> None:
        """Send out exactly `count` more cards (added to any still owed)."""

    def resume(self) -> None:
        """Go on with the cards still owed, after a jam was cleared or the hopper refilled."""

    def recheck(self) -> None:
        """The record of the cards owed was written: what waited for it may go on."""

    def restore(self, sent: Sent) -> None:
        """Take up the dispense a daemon before this one sent, from the record."""

    def edge(self, name: str, active: bool, time: float) -> None:
        """An edge of the launcher's own inputs on the Pi's pins (the beam, the hopper
        switch), at its own time."""

    async def halt(self) -> bool:
        """Stop the motor for good, its last counts heard out; whether that was confirmed."""

    def close(self) -> None:
        """Let go of what it holds (a port, a thread)."""


class GpioEjector:
    """The launcher on gpiozero devices: a `Motor`, beam edges fed to `beam`, a hopper switch.

    Beam edges arrive through `beam(clear, time)` from whoever owns the pin callbacks (the
    daemon, on its loop); reports go to `on_report`. Everything runs on one thread."""

    def __init__(
        self,
        motor,
        *,
        clock: Clock,
        on_report: Callable[[Report], None],
        beam_clear: Callable[[], bool],
        hopper_empty: Callable[[], bool] = lambda: False,
        jam_time: float = DEFAULT_JAM_TIME,
        may_feed: Callable[[int], bool] = lambda remaining: True,
        lease: MotorLease | None = None,
    ) -> None:
        self._motor = motor
        self._clock = clock
        self._report = on_report
        self._beam_clear = beam_clear
        self._hopper_empty = hopper_empty
        self.jam_time = jam_time
        self.owed = 0
        self.busy = False
        self.fault: str | None = None  # "jam" or "empty": nothing runs until `resume`
        self._may_feed = may_feed
        self._feeding = False
        self._held = False  # a card is to go, once the record allows it
        self._blocked_at: float | None = None
        self._cleared_at: float | None = None  # a card that cleared the beam, not yet counted
        self._stuck_card = False  # a fault stopped the motor with a card in the beam
        self._timers: dict[str, Timer] = {}
        self._lease = lease
        self._running: str | None = None  # "forward" or "backward" while the motor is driven
        self._stopped_at: float | None = None  # when the motor last stopped driving forwards
        self._past_blocked_at: float | None = None  # a card past the count, in the beam

    def dispense(self, count: int) -> None:
        """Send out exactly `count` more cards (added to any still owed)."""
        if count < 0:
            raise ValueError("cannot dispense fewer than no cards")
        self.owed += count
        if self.owed <= 0 or self._feeding or self._held or self.fault is not None:
            return
        if self._hopper_empty():
            self._halt("empty")
            return
        self.busy = self._held = True
        self.recheck()

    @property
    def in_flight(self) -> int:
        """1 while a card is on its way out (fed, about to be, or stuck in the beam by a
        fault), else 0: a record that counts it as dealt errs by one card fewer, never one
        more."""
        going = (self._feeding or self._held) and self.owed > 0 and self.fault is None
        return 1 if going or self._stuck_card else 0

    def recheck(self) -> None:
        """The record may have caught up: feed the next card if it now allows it."""
        if not self._held or not self._may_feed(self.owed - 1):
            return
        self._held = False
        self._feeding = True
        self._stopped_at = self._past_blocked_at = None
        # A card left in the beam by a jam or a stop counts when it leaves, however little
        # of it is still to pass.
        self._blocked_at = None if self._beam_clear() else float("-inf")
        self._cancel("retract")
        self._soft_start(0)
        self._arm_watchdog()

    def resume(self) -> None:
        """Go on with the cards still owed (after a jam was cleared or the hopper refilled)."""
        self.fault = None
        self._stuck_card = False
        self.dispense(0)

    link_up = True  # the Pi's own pins
    sent = None  # no controller runs a dispense of its own

    def restore(self, sent: Sent) -> None:
        """A controller's dispense, from a record made with one: the Pi's pins know nothing
        of it; the cards it still owed are owed here as they are."""

    @property
    def card_in_slot(self) -> bool:
        return not self._beam_clear()

    def edge(self, name: str, active: bool, time: float) -> None:
        if name == "launcher.beam":
            self.beam(active, time)
        elif name == "launcher.empty" and active:
            self.hopper_emptied()

    async def halt(self) -> bool:
        self.stop()
        return True

    def stop(self) -> None:
        """Stop the motor now and forget nothing: `owed` stays for the next dispense."""
        self._count_cleared()
        self._cancel_all()
        self._stop_motor()
        self.busy = self._feeding = self._held = False

    def close(self) -> None:
        """Stop the motor for good, and its lease's thread."""
        self.stop()
        if self._lease is not None:
            self._lease.close()

    def beam(self, clear: bool, time: float) -> None:
        """A beam edge: `clear` False when a card starts blocking it, True when it has passed."""
        if self._cleared_at is not None and time >= self._cleared_at + CLEAR_TIME:
            # A card whose clear beam was due to count before this edge counts first, however
            # late the edges are handed on (a loop that stalled hands on a whole run at once).
            self._count_cleared()
        if not self._feeding and not self._stuck_card:
            # The retract may pull a card back through the beam, and a hand clearing a jam
            # may cross it: neither is a card out. A card that passed while the motor still
            # drove it forwards (a stalled loop stopped it late) is one.
            self._past_count(clear, time)
            return
        if self._feeding:
            self._arm_watchdog()
        # While a jam waits for OK, the one card that stuck in the beam, pulled out of the
        # slot by hand, counts as it leaves, so that OK only sends what is still owed.
        if not clear:
            if self._cleared_at is not None:
                # Blocked again before the clear beam counted: the same card goes on.
                self._cleared_at = None
                self._cancel("count")
            else:
                self._blocked_at = time
            return
        if self._blocked_at is None or time - self._blocked_at < MIN_CARD_TIME:
            self._blocked_at = None  # a glitch, not a card
            return
        self._cleared_at = time
        self._later("count", time + CLEAR_TIME, self._count_cleared)

    def hopper_emptied(self) -> None:
        """The hopper switch closed: nothing more can come out until a refill."""
        if self._feeding:
            self._halt("empty")

    # -- inside ----------------------------------------------------------------------

    def _count_cleared(self) -> None:
        """Count the card that cleared the beam (now, or before the motor stops for good)."""
        time, self._cleared_at = self._cleared_at, None
        if time is None or self.owed <= 0:
            return
        self._stuck_card = False
        self._cancel("count")
        self._blocked_at = None
        self.owed -= 1
        if self.owed == 0:
            self._cancel_all()
            self._stop_motor()
            self._feeding = False
            if self.fault is None:  # never move the roller while a hand clears the slot
                self._retract()
        elif self._feeding:
            self._later("record", time + WRITE_WINDOW, self._wait_for_record)
        self._report(CardCounted(time, self.owed))
        if self.owed == 0:
            self._report(Halted("done", self._clock.now(), 0))

    def _wait_for_record(self) -> None:
        if not self._feeding or self._may_feed(self.owed - 1):
            return
        log.warning("the record of the cards owed lags: the launcher waits for it")
        for name in ("ramp", "watchdog", "heartbeat"):
            self._cancel(name)
        self._stop_motor()
        self._feeding, self._held = False, True

    def _retract(self) -> None:
        self._drive("backward", RETRACT_DUTY)

        def done() -> None:
            self._stop_motor()
            self.busy = self._feeding or self._held

        self._later("retract", self._clock.now() + RETRACT_TIME, done)

    def _soft_start(self, step: int) -> None:
        self._drive("forward", SOFT_START[step])
        if step + 1 < len(SOFT_START):
            when = self._clock.now() + SOFT_START_STEP
            self._later("ramp", when, lambda: self._soft_start(step + 1))

    def _drive(self, direction: str, duty: float) -> None:
        if self._lease is not None:
            self._lease.renew(LEASE)
            if self._running is None:
                self._later("heartbeat", self._clock.now() + HEARTBEAT, self._heartbeat)
        self._running = direction
        if direction == "forward":
            self._motor.forward(duty)
        else:
            self._motor.backward(duty)

    def _heartbeat(self) -> None:
        """The loop still attends to the motor: renew its lease. A lease that ran out (the
        loop stalled) stopped the motor: a feed goes on with a fresh start."""
        assert self._lease is not None
        if self._lease.renew(LEASE):
            self._later("heartbeat", self._clock.now() + HEARTBEAT, self._heartbeat)
            return
        log.warning("the loop stalled past the motor's lease: the launcher starts again")
        self._running = None
        if self._feeding:
            self._soft_start(0)
            self._arm_watchdog()
        else:  # a retract the lease cut short: the roller stays where it is
            self._stop_motor()

    def _stop_motor(self) -> None:
        if self._running == "forward":
            self._stopped_at = self._clock.now()
        self._running = None
        self._cancel("heartbeat")
        self._motor.stop()
        if self._lease is not None:
            self._lease.end()

    def _past_count(self, clear: bool, time: float) -> None:
        """An edge after the motor was told to stop. One from before that moment, that ends a
        whole card, is a card the motor drove out past the count: reported, with nothing owed."""
        if self._stopped_at is None or time >= self._stopped_at:
            return
        if not clear:
            self._past_blocked_at = time
            return
        blocked, self._past_blocked_at = self._past_blocked_at, None
        if blocked is not None and time - blocked >= MIN_CARD_TIME:
            log.warning("a card came out past the count (the loop stalled): reported")
            self._report(CardCounted(time, 0))

    def _arm_watchdog(self) -> None:
        self._later("watchdog", self._clock.now() + self.jam_time, self._starved)

    def _starved(self) -> None:
        self._halt("empty" if self._hopper_empty() else "jam")

    def _halt(self, reason: str) -> None:
        self.stop()
        if self.owed == 0:
            return  # the card that emptied the hopper was the last one asked for
        self.fault = reason
        self._stuck_card = self._blocked_at is not None
        log.warning("launcher stopped: %s, %d card(s) still owed", reason, self.owed)
        self._report(Halted(reason, self._clock.now(), self.owed))

    def _later(self, name: str, when: float, callback: Callable[[], None]) -> None:
        self._cancel(name)

        def fire() -> None:
            del self._timers[name]
            callback()

        self._timers[name] = self._clock.call_at(when, fire)

    def _cancel(self, name: str) -> None:
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()

    def _cancel_all(self) -> None:
        for name in list(self._timers):
            self._cancel(name)
