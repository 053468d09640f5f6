"""The motor's own stop: at the count the host allows, and at a jam, whatever the main loop does.

The dispenser (dispenser.py) runs in the main loop, and a main loop can stall (a garbage
collection, a long USB transfer). So the dispenser's motor goes through a `Gate`, which the
beam's interrupt tells every edge and a hardware timer ticks: it counts the cards leaving by
the dispenser's own rule (beam.py), and stops the motor at once when a card's front reaches
the beam while the cards that have left already number the `limit` the dispenser set (the
cards asked for, or one beyond the count the host has kept), or when the motor has driven
forwards for the jam time with no beam edge. A forward drive is refused from then on, until
the dispenser allows more cards (`allow`) or starts a new dispense (`arm`).

`edge` and `tick` run in a hard interrupt (on a Pi, on the pin backend's thread): they
allocate nothing and touch only fields made here. The main loop's calls change those fields
inside `hold`/`let_go` (machine.disable_irq and enable_irq on the board; a lock on a Pi), so
an interrupt never sees a change half made, and never stops the motor between the main loop's
look at the gate and its drive.
"""

from .beam import MIN_CARD_US, CardSight, minus

JAM_US = 800000


def _no_hold():
    return 0


def _no_let_go(_state):
    pass


class Gate:
    """`motor(duty)`: per mille, negative backwards, 0 off; `ticks()` the time now in
    microseconds, `diff(later, earlier)` their difference."""

    def __init__(self, motor, ticks, diff=minus, hold=_no_hold, let_go=_no_let_go):
        self._motor = motor
        self._ticks = ticks
        self._diff = diff
        self._hold = hold
        self._let_go = let_go
        self._sight = CardSight(diff)
        self.jam_us = JAM_US
        self.limit = 0  # cards of the dispense that may leave
        self.left = 0  # cards that have left since `arm`
        self.armed = False  # a dispense runs: fronts beyond the limit stop the motor
        self.tripped = False  # stopped at the limit: no forward drive until `allow`
        self.jammed = False  # stopped by the jam time: no forward drive until `arm`
        self.stops = 0  # how often the gate stopped the motor itself
        self._forward = False
        self._moved_at = 0  # the last beam edge, or the motor's start

    def arm(self, limit, card_in_beam, jam_us):
        """A dispense starts: count its cards from none, `limit` of them may leave."""
        state = self._hold()
        now = self._ticks()
        # A card already in the beam counts when it leaves, however little of it is left.
        self._sight.start(now - MIN_CARD_US if card_in_beam else None)
        self.left = 0
        self.limit = limit
        self.jam_us = jam_us
        self.tripped = self.jammed = False
        self.armed = True
        self._let_go(state)

    def allow(self, limit):
        """`limit` cards of the running dispense may leave now. True when the gate had stopped
        the motor at the old limit and lets it go: the motor stands, and the dispenser (which
        may not have been handed that edge yet) must start it again."""
        state = self._hold()
        self.limit = limit
        freed = self.tripped and self.left < limit
        if self.left < limit:
            self.tripped = False
        self._let_go(state)
        return freed

    def disarm(self):
        """No dispense runs: nothing to stop at (the motor only retracts, or is off)."""
        state = self._hold()
        self.armed = self.tripped = False
        self._let_go(state)

    def drive(self, duty):
        """The dispenser's motor: a forward drive is refused while the gate holds it stopped."""
        state = self._hold()
        if duty > 0:
            if self.tripped or self.jammed:
                self._let_go(state)
                return
            if not self._forward:
                self._moved_at = self._ticks()  # the jam time counts from the start
            self._forward = True
        else:
            self._forward = False
        self._motor(duty)
        self._let_go(state)

    def edge(self, clear, t):
        """A beam edge at `t` (the interrupt's time): a front beyond the limit stops the motor."""
        state = self._hold()
        self._moved_at = t
        sight = self._sight
        if sight.due(t):
            self.left += 1
        if sight.edge(clear, t) and self.armed and self.left >= self.limit:
            self.tripped = True
            self._stop()
        self._let_go(state)

    def tick(self, now):
        """The timer's tick: a motor driving forwards with no beam edge for the jam time stops."""
        state = self._hold()
        if self._forward and self._diff(now, self._moved_at) >= self.jam_us:
            self.jammed = True
            self._stop()
        self._let_go(state)

    def _stop(self):
        if self._forward:
            self._forward = False
            self.stops += 1
            self._motor(0)
