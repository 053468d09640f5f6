"""The card launcher: a roller motor, a hopper of cards and the break-beam at the slot's mouth.

Each card's feed takes about one cycle of roller travel: the roller pushes the bottom card out
of the hopper towards the mouth, its front reaches the beam, and when its back end clears the
beam the card has left. Time only moves with the clock, and the next beam edge is a timer that is
moved whenever the motor, a fault or the hopper changes, so any pattern of motor changes is
followed exactly. A timer that fires late (a busy process) changes nothing: the card is carried
through every edge it passed meanwhile, and each edge reaches the pin with its own time.
"""

from __future__ import annotations

import random

from ..clock import Clock, Timer
from ..pinmap import PinMap
from .pins import SimFactory, SimPin

# At full drive the roller feeds 8 cards a second: one feed cycle takes 125 ms.
FULL_SPEED_CYCLES = 8.0
# Below this net duty the motor cannot overcome the roller's friction; above it the speed
# grows linearly with the duty, as a small DC motor's does with its mean voltage.
STALL_DUTY = 0.2
# The part of a cycle a card spends in the beam (its own length): 31 ms at full speed.
IN_BEAM = 0.25
# The roller's grip on a fresh card varies, so the travel to the beam varies from card to card;
# with the card's own length it makes one cycle on average.
PICK = 1.0 - IN_BEAM
PICK_SPREAD = 0.15
GLITCH = 0.002
# Timers fire at the time they were computed for; this only absorbs rounding.
_EPS = 1e-9


class GroundingPin(SimPin):
    """A line that a switch or an open-collector output pulls to ground; else its pull sets it.

    Both the hopper switch and the beam receiver are wired this way, so the level survives the
    daemon setting (or a restart re-setting) the pull-up on the pin."""

    @property
    def grounded(self) -> bool:
        return self.driven is False

    @grounded.setter
    def grounded(self, value: bool) -> None:
        self.ground(value)

    def ground(self, value: bool, at: float | None = None) -> None:
        """Pull the line to ground, or let it go, from `at` (an edge's own time) or now."""
        if value:
            self.drive_low(at)
        else:
            self.release(at)


class LauncherModel:
    """The launcher's mechanics on the motor, beam and (optional) hopper-switch pins.

    Build it before the devices on its pins: it claims the beam and switch pins as
    `GroundingPin`s. The card counts are exact at every moment of virtual time."""

    def __init__(
        self,
        factory: SimFactory,
        clock: Clock,
        *,
        forward_pin: int,
        backward_pin: int,
        beam_pin: int,
        empty_pin: int | None = None,
        cards: int = 54,
        rng: random.Random | None = None,
    ) -> None:
        if cards < 0:
            raise ValueError("a hopper cannot hold fewer than no cards")
        self._clock = clock
        self._rng = rng or random.Random(0)
        self._forward = factory.pin(forward_pin)
        self._backward = factory.pin(backward_pin)
        self._beam = _claim(factory, beam_pin)
        self._switch = None if empty_pin is None else _claim(factory, empty_pin)
        self.cards_out = 0
        self.cards_left = cards
        self._jammed = False
        self._in_beam = False
        self._phase = 0.0  # how far the current card has been fed, in roller cycles
        self._beam_at = self._pick()
        self._rate = 0.0  # cycles a second, negative when the roller pulls the card back
        self._since = clock.now()
        self._timer: Timer | None = None
        self._glitch_until = float("-inf")
        self._closed = False
        self.drive_log: list[tuple[float, float]] = [(clock.now(), self.motor_speed)]
        for pin in (self._forward, self._backward):
            pin.listeners.append(self._motor_changed)
        self._update()

    @classmethod
    def for_pinmap(
        cls,
        factory: SimFactory,
        clock: Clock,
        pinmap: PinMap,
        *,
        cards: int = 54,
        rng: random.Random | None = None,
    ) -> LauncherModel:
        """The model on the launcher roles of `pinmap`."""
        return cls(
            factory,
            clock,
            forward_pin=pinmap["launcher.motor.forward"],
            backward_pin=pinmap["launcher.motor.backward"],
            beam_pin=pinmap["launcher.beam"],
            empty_pin=pinmap.get("launcher.empty"),
            cards=cards,
            rng=rng,
        )

    @property
    def motor_speed(self) -> float:
        """Net drive: forward duty minus backward duty, -1.0 to 1.0."""
        return float(self._forward.state) - float(self._backward.state)

    @property
    def stop_times(self) -> list[float]:
        """The moments the motor's drive fell to zero."""
        log = self.drive_log
        return [
            t for (t, speed), (_, before) in zip(log[1:], log, strict=False) if not speed and before
        ]

    @property
    def card_in_beam(self) -> bool:
        """A card sticks out of the slot's mouth, through the beam."""
        return self._in_beam

    @property
    def card_in_slot(self) -> bool:
        """The next card has been pushed off its rest in the hopper."""
        return self.cards_left > 0 and (self._phase > 0.0 or self._in_beam)

    @property
    def jammed(self) -> bool:
        return self._jammed

    def refill(self, cards: int) -> None:
        """Put `cards` more cards into the hopper."""
        if cards < 0:
            raise ValueError("refill takes a number of cards to add")
        self._update()
        if not self.cards_left:
            self._fresh_card()
        self.cards_left += cards
        self._update()

    def empty(self) -> int:
        """Take every card out of the hopper and the slot (uncounted); returns how many."""
        self._update()
        taken, self.cards_left = self.cards_left, 0
        self._fresh_card()
        self._update()
        return taken

    def jam(self) -> None:
        """The card sticks where it is: the roller turns but nothing moves until cleared."""
        self._update()
        self._jammed = True
        self._update()

    def clear_jam(self) -> None:
        """The stuck card is freed and goes on from where it stuck."""
        self._update()
        self._jammed = False
        self._update()

    def pull_out(self) -> None:
        """A hand pulls the card stuck through the beam out of the slot: it is out, the beam
        clear behind it; the jam is over."""
        self._update()
        self._jammed = False
        if self._in_beam:
            self.cards_out += 1
            self.cards_left -= 1
            self._fresh_card()
        self._update()

    def glitch(self, duration: float = GLITCH) -> None:
        """The receiver misses the light for `duration` seconds (motor noise, a speck of dust)."""
        if duration <= 0:
            raise ValueError("a glitch lasts some time")
        until = self._glitch_until = max(self._glitch_until, self._clock.now() + duration)
        self._clock.call_at(until, lambda: self._drive_lines(until))
        self._drive_lines()

    def close(self) -> None:
        """Let go of the motor pins and the pending beam edge."""
        self._update()
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        for pin in (self._forward, self._backward):
            if self._motor_changed in pin.listeners:
                pin.listeners.remove(self._motor_changed)

    # -- mechanics

    def _pick(self) -> float:
        return PICK * self._rng.uniform(1.0 - PICK_SPREAD, 1.0 + PICK_SPREAD)

    def _fresh_card(self) -> None:
        self._phase, self._in_beam, self._beam_at = 0.0, False, self._pick()

    def _card_rate(self) -> float:
        speed = self.motor_speed
        if self._jammed or not self.cards_left or abs(speed) < STALL_DUTY:
            return 0.0
        rate = FULL_SPEED_CYCLES * (abs(speed) - STALL_DUTY) / (1.0 - STALL_DUTY)
        return rate if speed > 0 else -rate

    def _next_mark(self) -> float | None:
        """The phase where the card's motion next changes a line or stops, or None."""
        if self._rate > 0:
            return self._beam_at + IN_BEAM if self._in_beam else self._beam_at
        if self._rate < 0:
            if self._in_beam:
                return self._beam_at
            # Back on its rest the card stays put while the roller slips over it.
            return 0.0 if self._phase > 0.0 else None
        return None

    def _update(self) -> None:
        """Carry the card to now at the rate it has moved since the last change, then take up
        the current drive and set the timer for the next mark."""
        if self._closed:
            return
        now = self._clock.now()
        while (mark := self._next_mark()) is not None:
            when = self._since + (mark - self._phase) / self._rate
            if when > now + _EPS:
                break
            self._phase, self._since = mark, min(max(when, self._since), now)
            self._reach(mark)
            self._rate = self._card_rate()
            # Driving the beam may re-enter (the daemon stops the motor on the edge); all
            # state is settled before it, and the loop re-reads it after. The edge is stamped
            # with the moment the card got there, not the moment this pass runs.
            self._drive_lines(self._since)
        self._phase += self._rate * (now - self._since)
        self._since = now
        self._rate = self._card_rate()
        self._drive_lines()
        self._schedule()

    def _reach(self, mark: float) -> None:
        if self._rate < 0:
            # Pulled back: a card leaving the beam backwards is never a card out.
            self._in_beam = False
        elif not self._in_beam:
            self._in_beam = True
        else:
            # The back end clears the beam: this card is out, count it before the edge shows.
            self.cards_out += 1
            self.cards_left -= 1
            self._fresh_card()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        mark = self._next_mark()
        if mark is not None:
            when = self._since + (mark - self._phase) / self._rate
            self._timer = self._clock.call_at(when, self._update)

    def _drive_lines(self, at: float | None = None) -> None:
        """Set the beam and switch lines as they are at `at` (a past edge's time) or now."""
        if self._closed:
            return
        when = self._clock.now() if at is None else at
        glitching = when < self._glitch_until
        self._beam.ground(not (self._in_beam or glitching), at)
        if self._switch is not None:
            self._switch.ground(not self.cards_left, at)

    def _motor_changed(self, _value: float) -> None:
        self._update()
        now, speed = self._clock.now(), self.motor_speed
        # Motor.forward() turns the backward pin off first; a change and its undoing at the
        # same moment never reached the roller, so the log keeps only what lasted.
        if self.drive_log and self.drive_log[-1][0] == now:
            self.drive_log.pop()
        if not self.drive_log or self.drive_log[-1][1] != speed:
            self.drive_log.append((now, speed))


def _claim(factory: SimFactory, number: int) -> GroundingPin:
    pin = factory.pin(number, pin_class=GroundingPin)
    if not isinstance(pin, GroundingPin):
        raise ValueError(
            f"pin {number} already exists; build the launcher model before the devices on it"
        )
    return pin
