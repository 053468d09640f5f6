"""Outputs: the seat lights (PWM LEDs with patterns) and the buzzer (tones and tunes)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from gpiozero import PWMLED, PWMOutputDevice
from gpiozero.tones import Tone

from .clock import Clock, Timer


class Pattern(Enum):
    """What a light does; the game decides, the light carries it out."""

    OFF = "off"
    ON = "on"
    DIM = "dim"
    PULSE = "pulse"
    BLINK = "blink"
    BLINK_FAST = "blink_fast"
    FLASH = "flash"


DIM_LEVEL = 0.15
_BLINKS = {
    # pattern: (on, off, fade in, fade out) seconds
    Pattern.PULSE: (0.0, 0.0, 0.6, 0.6),
    Pattern.BLINK: (0.4, 0.4, 0.0, 0.0),
    Pattern.BLINK_FAST: (0.12, 0.12, 0.0, 0.0),
    Pattern.FLASH: (0.06, 0.06, 0.0, 0.0),
}


class _DimmableLED(PWMLED):
    """A PWM LED whose every write, steady or blinking, is scaled by `scale` (brightness)."""

    def __init__(self, pin: int, *, pin_factory=None) -> None:
        self.scale = 1.0
        super().__init__(pin, pin_factory=pin_factory)

    def _write(self, value) -> None:
        super()._write(float(value) * self.scale)


class Light:
    """A seat's button light. `pattern` is what it shows now, for the game and the simulator."""

    def __init__(self, pin: int, *, pin_factory=None) -> None:
        self._led = _DimmableLED(pin, pin_factory=pin_factory)
        self.pattern = Pattern.OFF

    @property
    def pin(self):
        return self._led.pin

    @property
    def brightness(self) -> float:
        return self._led.scale

    @brightness.setter
    def brightness(self, value: float) -> None:
        value = min(max(value, 0.0), 1.0)
        if value == self._led.scale:
            return
        self._led.scale = value
        # A blink picks the new scale up at its next step; a steady light is written again.
        if self.pattern in (Pattern.ON, Pattern.DIM):
            pattern, self.pattern = self.pattern, Pattern.OFF
            self.show(pattern)

    def show(self, pattern: Pattern) -> None:
        if pattern == self.pattern:
            return
        self.pattern = pattern
        if pattern is Pattern.OFF:
            self._led.off()
        elif pattern is Pattern.ON:
            self._led.on()
        elif pattern is Pattern.DIM:
            self._led.value = DIM_LEVEL
        else:
            self._led.blink(*_BLINKS[pattern])

    def close(self) -> None:
        self._led.close()


Note = tuple[str | None, float]  # (note name such as "A4", or None for a rest; seconds)

# A piezo is loudest at half duty and quieter as the pulses get narrower.
VOLUME_DUTY = {"off": 0.0, "low": 0.04, "high": 0.5}


class Buzzer:
    """A piezo buzzer playing tunes: sequences of notes timed on the given clock."""

    def __init__(self, pin: int, clock: Clock, *, pin_factory=None) -> None:
        self._pwm = PWMOutputDevice(pin, frequency=440, pin_factory=pin_factory)
        self._clock = clock
        self._timer: Timer | None = None
        self.duty = VOLUME_DUTY["high"]
        self.playing: str | None = None

    @property
    def pin(self):
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
