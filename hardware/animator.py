"""One animator for every light: blinks and pulses rendered from the clock, on the event loop.

Each moving light is a `Wave` played from the moment its pattern started. The animator keeps
one timer, set for the next moment any wave changes (a blink's edge, a pulse's next frame),
and none while nothing moves: no thread per LED, nothing to stop or join, and an idle table
never wakes. A late wake-up (a busy machine) renders what the clock says now, so patterns
never drift and never queue up frames.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from .clock import Clock, Timer

FRAME = 1 / 25  # a fade's step, as smooth as gpiozero's own pulse
# A wake-up may come a hair before the moment asked for; so much early still counts as due,
# or a timer set for an edge would find the edge not yet reached and wake again at once.
SLACK = 1e-6
# A step of level smaller than this is not seen at a glance.
SEEN = 0.1

Write = Callable[[float], None]


@dataclass(frozen=True)
class Wave:
    """A repeating level from 0 to 1: fade in, hold on, fade out, hold off (seconds each)."""

    on: float
    off: float
    fade_in: float = 0.0
    fade_out: float = 0.0

    def at(self, elapsed: float) -> tuple[float, float]:
        """The level `elapsed` seconds after the start, and how long it holds from then."""
        level, hold = self._segment((elapsed + SLACK) % self.period)
        # The hold counts from the phase with its slack: add it back, so that the wake-up
        # comes at the change itself, never before it.
        return level, max(hold, 0.0) + SLACK

    @property
    def period(self) -> float:
        return self.fade_in + self.on + self.fade_out + self.off

    def _segment(self, phase: float) -> tuple[float, float]:
        if phase < self.fade_in:
            return phase / self.fade_in, _frame_left(phase, self.fade_in)
        phase -= self.fade_in
        if phase < self.on:
            return 1.0, self.on - phase
        phase -= self.on
        if phase < self.fade_out:
            return 1.0 - phase / self.fade_out, _frame_left(phase, self.fade_out)
        return 0.0, self.off - (phase - self.fade_out)


def _frame_left(phase: float, length: float) -> float:
    """Time to the next frame of a fade, counted from the fade's start; none past its end."""
    frame_end = (math.floor(phase / FRAME) + 1) * FRAME
    return min(frame_end, length) - phase


@dataclass
class _Playing:
    wave: Wave
    started: float
    write: Write
    level: float


class Animator:
    """Plays waves on outputs. Runs on the thread of `clock`'s timers (the event loop)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._playing: dict[object, _Playing] = {}
        self._timer: Timer | None = None
        self._due: float | None = None
        self.wakes = 0  # times the animator woke, for benchmarks and tests

    @property
    def moving(self) -> bool:
        return bool(self._playing)

    def play(self, key: object, wave: Wave, write: Write, *, shown: float | None = None) -> None:
        """Start `wave` now on the output `key`, written through `write`; replaces its last.

        A wave that would begin at about the level `shown`, the one the output shows now (a
        flash after a blink's "on", a pulse on a dark light), begins at its other half
        instead: a new pattern is seen at once, not up to half a period later."""
        now = self._clock.now()
        start = 0.0
        level, hold = wave.at(start)
        if shown is not None and abs(level - shown) < SEEN:
            start = wave.fade_in + wave.on
            level, hold = wave.at(start)
        self._playing[key] = _Playing(wave, now - start, write, level)
        write(level)
        self._wake_by(now + hold)

    def stop(self, key: object) -> None:
        """Stop whatever plays on `key`; its output keeps its last level."""
        self._playing.pop(key, None)
        if not self._playing and self._timer is not None:
            self._timer.cancel()
            self._timer, self._due = None, None

    def level(self, key: object) -> float | None:
        """The level `key` shows now, or None if nothing plays on it."""
        playing = self._playing.get(key)
        return None if playing is None else playing.level

    def _wake_by(self, when: float) -> None:
        if self._due is not None and self._due <= when:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._due = when
        self._timer = self._clock.call_at(when, self._wake)

    def _wake(self) -> None:
        self.wakes += 1
        self._timer, self._due = None, None
        now = self._clock.now()
        soonest = math.inf
        for playing in list(self._playing.values()):
            level, hold = playing.wave.at(now - playing.started)
            if level != playing.level:
                playing.level = level
                playing.write(level)
            soonest = min(soonest, now + hold)
        if self._playing:
            self._wake_by(soonest)
