"""Outputs: the seat lights (PWM LEDs with patterns) and the buzzer (tones and tunes), on
gpiozero; what they are told to show and play is hardware.patterns."""

from __future__ import annotations

from collections.abc import Sequence

from gpiozero import PWMLED, PWMOutputDevice
from gpiozero.pins import Factory, Pin
from gpiozero.tones import Tone

from .animator import Animator
from .clock import Clock, Timer
from .patterns import STEADY, WAVES, Note, Pattern


class Light:
    """A seat's button light. `pattern` is what it shows now, for the game and the simulator.

    Steady patterns are one write; moving ones are played by the board's `Animator`. Every
    level is scaled by `brightness` as it is written.
    """

    def __init__(self, pin: int, animator: Animator, *, pin_factory: Factory | None = None) -> None:
        self._led = PWMLED(pin, pin_factory=pin_factory)
        self._animator = animator
        self._scale = 1.0
        self._level = 0.0  # before brightness
        self.pattern = Pattern.OFF

    @property
    def pin(self) -> Pin:
        return self._led.pin

    @property
    def brightness(self) -> float:
        return self._scale

    @brightness.setter
    def brightness(self, value: float) -> None:
        value = min(max(value, 0.0), 1.0)
        if value != self._scale:
            self._scale = value
            self._write(self._level)

    def show(self, pattern: Pattern) -> None:
        if pattern == self.pattern:
            return
        self.pattern = pattern
        wave = WAVES.get(pattern)
        if wave is None:
            self._animator.stop(self)
            self._write(STEADY[pattern])
        else:
            self._animator.play(self, wave, self._write, shown=self._level)

    def _write(self, level: float) -> None:
        self._level = level
        self._led.value = level * self._scale

    def close(self) -> None:
        self._animator.stop(self)
        self._led.close()


# A piezo is loudest at half duty and quieter as the pulses get narrower.
VOLUME_DUTY = {"off": 0.0, "low": 0.04, "high": 0.5}


class Buzzer:
    """A piezo buzzer playing tunes: sequences of notes timed on the given clock."""

    def __init__(self, pin: int, clock: Clock, *, pin_factory: Factory | None = None) -> None:
        self._pwm = PWMOutputDevice(pin, frequency=440, pin_factory=pin_factory)
        self._clock = clock
        self._timer: Timer | None = None
        self.duty = VOLUME_DUTY["high"]
        self.playing: str | None = None

    @property
    def pin(self) -> Pin:
        return self._pwm.pin

    @property
    def volume(self) -> str:
        return next(name for name, duty in VOLUME_DUTY.items() if duty == self.duty)

    @volume.setter
    def volume(self, name: str) -> None:
        self.duty = VOLUME_DUTY[name]

    def play(self, name: str, tune: Sequence[Note]) -> None:
        """Start `tune` now, cutting off whatever was playing."""
        self.stop()
        if not self.duty or not tune:
            return
        self.playing = name
        self._step(list(tune), 0, self._clock.now())

    def _step(self, tune: list[Note], index: int, start: float) -> None:
        if index == len(tune):
            self.stop()
            return
        note, length = tune[index]
        if note is None:
            self._pwm.value = 0
        else:
            self._pwm.frequency = Tone(note).frequency
            self._pwm.value = self.duty
        self._timer = self._clock.call_at(
            start + length, lambda: self._step(tune, index + 1, start + length)
        )

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.playing = None
        self._pwm.value = 0

    def close(self) -> None:
        self.stop()
        self._pwm.close()
