"""The hardware layer's errors, under one base, `HardwareError`; each message is one line
naming what cannot be opened or wired. (The controller's errors: controller/errors.py.)"""

from __future__ import annotations


class HardwareError(Exception):
    """A device of the table cannot be used here; the message says why in one line."""


class PinFactoryUnavailable(HardwareError, RuntimeError):
    """The pin factory cannot be opened here; the message says why in one line."""


class DisplayUnavailable(HardwareError, RuntimeError):
    """The LCD cannot be opened here; the message is one line saying why."""


class PinMapError(HardwareError, ValueError):
    """A pin map that cannot be wired; the message is one line naming the role and pin."""
