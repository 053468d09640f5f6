"""When a card passing the beam counts: the one rule, for the main loop and the interrupt.

A card counts once its back end has cleared the beam and the beam has stayed clear for
CLEAR_US: blocked again before that, it is the same card going on (a flicker inside it). A
blocking shorter than MIN_CARD_US is a glitch, never a card. `CardSight` follows the edges
of one beam by that rule; the dispenser (dispenser.py) keeps one in the main loop and the
gate (gate.py) another in the beam's interrupt, fed the same edges, so both count the same
cards. It allocates nothing: a hard interrupt may use it. Times are whole microseconds,
compared with the `diff` it is given (`time.ticks_diff` for ticks that wrap).
"""

MIN_CARD_US = 4000  # a card blocks the beam 25 ms or more even at the slowest feed
CLEAR_US = 3000  # the beam stays clear this long after a card before the card counts


def minus(later, earlier):
    """The difference of two times on a count that does not wrap."""
    return later - earlier


class CardSight:
    def __init__(self, diff=minus):
        self._diff = diff
        self.blocked_at = None  # when the card now in the beam started blocking it
        self.cleared_at = None  # a card that cleared the beam, not counted yet

    def start(self, blocked_at):
        """Look afresh; `blocked_at` the time a card already in the beam counts from, or None."""
        self.blocked_at = blocked_at
        self.cleared_at = None

    def due(self, now, force=False):
        """Whether a card that cleared the beam counts by `now` (with `force`, at once); it is
        then taken: the next call says False."""
        cleared = self.cleared_at
        if cleared is None or not (force or self._diff(now, cleared) >= CLEAR_US):
            return False
        self.cleared_at = self.blocked_at = None
        return True

    def edge(self, clear, t):
        """A beam edge at `t` (call `due(t)` first). True when it is a card's front: the beam
        blocked, and not by the card that cleared it a moment ago."""
        if not clear:
            if self.cleared_at is not None:
                self.cleared_at = None  # the same card goes on
                return False
            self.blocked_at = t
            return True
        blocked = self.blocked_at
        if blocked is None or self._diff(t, blocked) < MIN_CARD_US:
            self.blocked_at = None  # a glitch, not a card
            return False
        self.cleared_at = t
        return False
