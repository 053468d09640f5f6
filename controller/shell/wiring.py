"""What a daemon drives: the pins, the LCD and the clock, handed to `Daemon` as one value."""

from __future__ import annotations

from dataclasses import dataclass

from hardware.clock import Clock
from hardware.display import TextDisplay
from hardware.pinmap import PinMap


@dataclass(frozen=True)
class Wiring:
    """What a daemon drives: the pins (by role, and the factory that makes them), the LCD,
    and the clock. `flashtable run` wires the Pi's (or simulated pins in real time), the
    simulated table its models in virtual time."""

    pinmap: PinMap
    pin_factory: object
    display: TextDisplay
    clock: Clock
