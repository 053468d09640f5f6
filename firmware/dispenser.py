"""The dispenser: run the roller until exactly n cards have passed the beam.

Times are integer microseconds on one monotonic count, passed in by the caller; nothing here
reads a clock or touches a pin. The motor is `drive(duty)`: per mille, negative for backwards.
A card counts once its back end has cleared the beam and the beam stayed clear for a moment,
so a flicker inside a card or a glitch shorter than a card never counts. At the n-th card
the motor stops at once and runs backwards briefly, so the next card does not hang out of the
slot. No beam edge for the jam time while the motor runs is a jam (or, with the hopper switch
saying empty, an empty hopper).

A card is let go only once the host has kept the count of the card before it (`keep`): after
each count the motor runs on for KEPT_WINDOW_US, and stops, before the next card can reach the
beam, if the host has not kept that count by then; it starts again when the host has. So at a
power loss at most one card has left that the host's record does not hold. A main loop that
comes late to that stop (it stalled) does not let the card go: with a `Gate` (gate.py), which
the beam's interrupt and a timer drive, the motor stops as the next card's front reaches the
beam, and the dispenser, handed that edge, holds there too. A KEPT that comes before the edge
is handed on finds the motor standing all the same: the gate says so as it lets the next card
go (`Gate.allow`), and the dispenser starts the motor again.
"""

from .beam import CLEAR_US, MIN_CARD_US, CardSight
from .gate import JAM_US
from .protocol import CARD, DONE, EMPTY, JAM

SOFT_START = (450, 650, 850, 1000)  # the roller grips the card instead of slipping
SOFT_START_STEP_US = 40000
RETRACT_DUTY = 700
RETRACT_US = 60000
# How long the motor runs on after a count for the host to keep it: well under the shortest
# travel of a fresh card to the beam (about 80 ms at full speed).
KEPT_WINDOW_US = 40000

IDLE = 0
RUNNING = 1
JAMMED = 2
EMPTIED = 3


def _nothing():
    pass


def earliest(times):
    """The smallest of `times` that is not None, or None."""
    due = None
    for when in times:
        if when is not None and (due is None or when < due):
            due = when
    return due


class Dispenser:
    """One dispense at a time; `report(kind, counted)` tells of each card and of the end
    (kind is CARD, DONE, JAM, EMPTY, or the reason given to `stop`)."""

    def __init__(self, drive, beam_clear, hopper_empty, report, gate=None):
        """With a `gate` (gate.py), the motor is the gate's, which stops it at the count
        allowed by itself; `drive` is then not used."""
        self._gate = gate
        self._drive = drive if gate is None else gate.drive
        self._beam_clear = beam_clear
        self._hopper_empty = hopper_empty
        self._report = report
        self.jam_us = JAM_US
        self.retract_us = RETRACT_US
        self.state = IDLE
        self.asked = 0
        self.counted = 0
        self._sight = CardSight()
        self._stuck = False  # a jam stopped the motor with a card in the beam
        self.kept = 0  # the count the host has kept: the card after it may leave
        self.held = False  # the motor waits for the host to keep the last count
        self._hold_at = None
        self._step = 0
        self._ramp_at = None
        self._jam_at = None
        self._retract_until = None

    @property
    def limit(self):
        """The cards of this dispense that may leave now: those asked for, but at most one
        beyond the count the host has kept."""
        return min(self.asked, self.kept + 1)

    def settle(self, now):
        """A card that has cleared the beam counts now, for the dispense before (a card
        pulled out of a jam a moment before the next dispense starts is that one's)."""
        self._count_due(now, force=True)

    def start(self, count, now):
        """Dispense `count` cards (a new dispense: the count starts from none; `settle`
        first)."""
        self.asked, self.counted = count, 0
        self._stuck = False
        # The host keeps a dispense before it sends it: the first card may leave at once.
        self.kept = 0
        # A card left in the beam by a jam or a stop counts when it leaves, however little
        # of it is still to pass.
        in_beam = not self._beam_clear()
        self._sight.start(now - MIN_CARD_US if in_beam else None)
        if self._hopper_empty():
            self.state = RUNNING
            self._halt(EMPTY, now)
            return
        self.state = RUNNING
        if self._gate is not None:
            self._gate.arm(self.limit, in_beam, self.jam_us)
        self._retract_until = None
        self._run(now)

    def add(self, count):
        """`count` more cards for the dispense running."""
        self.asked += count
        self._allow()

    def keep(self, counted, now):
        """The host has kept `counted` cards of this dispense on its record."""
        if self.state != RUNNING or counted <= self.kept:
            return
        self.kept = counted
        if self._allow():
            # The gate had stopped the motor at the old limit, maybe before this loop was
            # handed that edge: the dispenser holds with it, and runs again when it may.
            self._hold()
        if self.kept < self.counted:
            return
        self._hold_at = None
        if self.held:
            self._run(now)

    @property
    def stuck(self):
        """A jam stopped the motor with a card in the beam: it counts as it is pulled out."""
        return self._stuck

    def restart(self, now):
        """The motor stopped behind the dispenser's back (on a Pi, its lease ran out while the
        host's loop stalled): start it again, with a fresh soft start and jam time."""
        if self.state == RUNNING and not self.held:
            self._run(now)

    @property
    def leaving(self):
        """A card has cleared the beam and is not counted yet: it may have left."""
        return self._sight.cleared_at is not None

    def stop(self, reason, now, settle=_nothing):
        """Stop the motor now; a running dispense ends, reported as `reason`. `settle()` is
        called once the motor is off, to hand on the beam's edges stored until then (by an
        interrupt, while the stop was on its way): a card that left before the motor stopped
        counts in the dispense's end."""
        self._motor_off()
        settle()
        self._count_due(now, force=True)
        self._stuck = False
        if self._retract_until is not None:
            self._retract_until = None
            self._drive(0)  # the last card counted only now: no retract after a stop
        if self.state == RUNNING:
            # The motor is off: what the edges handed on set to come waits no more.
            self._ramp_at = self._jam_at = self._hold_at = None
            self.held = False
            self.state = IDLE
            self._report(reason, self.counted)
        elif self.state != IDLE:
            self.state = IDLE

    def retract(self, now):
        """Pull the next card back into the hopper (only while nothing runs)."""
        if self.state == RUNNING:
            return
        self._drive(-RETRACT_DUTY)
        self._retract_until = now + self.retract_us

    def beam(self, clear, t):
        """A beam edge at time `t`: `clear` False as a card starts blocking it."""
        # A card whose clear beam was due to count before this edge counts first, however
        # late the edge is handed on.
        self._count_due(t)
        if self.state != RUNNING and not self._stuck:
            # The retract may pull a card back through the beam, and a hand clearing a jam
            # may cross it: neither is a card out.
            return
        if self.state == RUNNING and not self.held:
            self._jam_at = t + self.jam_us
        front = self._sight.edge(clear, t)
        if front and self.state == RUNNING and not self.held and self.counted >= self.limit:
            # The next card reached the beam before the host kept the last count (the main
            # loop came late to its stop): the gate stopped the motor here; hold.
            self._hold()

    def hopper_emptied(self, now):
        """The hopper switch closed: nothing more can come out until a refill."""
        if self.state == RUNNING:
            self._halt(EMPTY, now)

    def next_due(self):
        """The earliest time `poll` has something to do, or None."""
        cleared = self._sight.cleared_at
        count_at = None if cleared is None else cleared + CLEAR_US
        return earliest((self._ramp_at, count_at, self._hold_at, self._jam_at, self._retract_until))

    def poll(self, now):
        """Do what is due by `now`: the next soft-start step, a count, a hold, a jam, a
        retract's end."""
        self._count_due(now)
        if self._hold_at is not None and now >= self._hold_at:
            # The host has not kept the last count: the next card must not reach the beam.
            self._hold()
        if self._ramp_at is not None and now >= self._ramp_at:
            self._step += 1
            self._drive(SOFT_START[self._step])
            last = self._step + 1 >= len(SOFT_START)
            self._ramp_at = None if last else self._ramp_at + SOFT_START_STEP_US
        if self._jam_at is not None and now >= self._jam_at:
            self._halt(EMPTY if self._hopper_empty() else JAM, now)
        if self._retract_until is not None and now >= self._retract_until:
            self._retract_until = None
            self._drive(0)

    # -- inside

    def _run(self, now):
        self.held = False
        self._step = 0
        self._drive(SOFT_START[0])
        self._ramp_at = now + SOFT_START_STEP_US
        self._jam_at = now + self.jam_us

    def _hold(self):
        self._hold_at = self._ramp_at = self._jam_at = None
        self.held = True
        self._drive(0)

    def _allow(self):
        """The gate lets the cards now allowed leave; True when it had stopped the motor at
        the old limit (gate.py)."""
        return self._gate is not None and self.state == RUNNING and self._gate.allow(self.limit)

    def _count_due(self, now, force=False):
        cleared = self._sight.cleared_at
        if cleared is None or not self._sight.due(now, force) or self.counted >= self.asked:
            return
        self._stuck = False
        self.counted += 1
        done = self.counted == self.asked
        if done:
            fault = self.state != RUNNING
            self._motor_off()
            self.state = IDLE
            if not fault:  # never move the roller while a hand clears the slot
                self.retract(now)
        elif self.state == RUNNING and self.kept < self.counted and self._hold_at is None:
            self._hold_at = cleared + KEPT_WINDOW_US
        self._report(CARD, self.counted)
        if done:
            self._report(DONE, self.counted)

    def _halt(self, kind, now):
        self._count_due(now, force=True)
        if self.state != RUNNING:
            return  # the card that emptied the hopper was the last one asked for
        self._motor_off()
        self.state = JAMMED if kind == JAM else EMPTIED
        self._stuck = self._sight.blocked_at is not None
        self._report(kind, self.counted)

    def _motor_off(self):
        self._ramp_at = self._jam_at = self._retract_until = None
        self._hold_at = None
        self.held = False
        self._drive(0)
        if self._gate is not None:
            self._gate.disarm()
