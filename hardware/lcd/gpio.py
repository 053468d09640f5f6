"""The LCD wired straight to the Pi: RS, E and D4-D7 on six GPIO pins, RW tied to ground."""

from __future__ import annotations

import time
from collections.abc import Mapping

from gpiozero import DigitalOutputDevice, GPIOZeroError
from gpiozero.pins import Factory

from ..device_errors import DisplayUnavailable

ROLES = ("lcd.rs", "lcd.e", "lcd.d4", "lcd.d5", "lcd.d6", "lcd.d7")

# An HD44780 needs 37 us to execute a transfer (more on slow clones); 50 us covers both.
SETTLE = 50e-6


class GpioBus:
    """A `NibbleBus` on gpiozero output pins. The backlight is wired on: there is no pin for it."""

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        pin_factory: Factory | None = None,
        settle: float = SETTLE,
    ) -> None:
        missing = [role for role in ROLES if pins.get(role) is None]
        if missing:
            raise DisplayUnavailable(f"the parallel LCD needs a pin for {missing[0]!r}")
        self._devices: list[DigitalOutputDevice] = []
        try:
            for role in ROLES:
                self._devices.append(
                    DigitalOutputDevice(pins[role], initial_value=False, pin_factory=pin_factory)
                )
        except GPIOZeroError as err:
            self.close()
            raise DisplayUnavailable(f"the LCD's {role!r} pin cannot be used: {err}") from err
        self._rs, self._e, *self._data = self._devices
        self._settle = settle
        self._ready_at = 0.0

    def write_nibble(self, rs: bool, nibble: int) -> None:
        if self._settle:
            # A spin, not a sleep: the wait is tens of microseconds, below the scheduler's grain.
            while time.perf_counter() < self._ready_at:
                pass
        self._rs.value = rs
        for bit, device in enumerate(self._data):
            device.value = bool(nibble >> bit & 1)
        # Python's own overhead keeps E high well beyond the 450 ns the controller needs.
        self._e.on()
        self._e.off()
        if self._settle:
            self._ready_at = time.perf_counter() + self._settle

    def set_backlight(self, on: bool) -> None:
        pass

    def close(self) -> None:
        for device in self._devices:
            device.close()
        self._devices = []
