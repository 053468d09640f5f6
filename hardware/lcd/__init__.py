"""The 16x2 character LCD: RPLCD drives the HD44780, a small bus carries the last hop.

`open_display` builds the real one (I2C backpack or GPIO pins); the simulation puts the same
driver on a model of the controller (hardware.sim.hd44780.simulated_display).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gpiozero.pins import Factory

from ..device_errors import DisplayUnavailable
from ..display import INTERFACES
from .bus import NibbleBus
from .character import CharacterDisplay
from .pcf8574 import DEFAULT_ADDRESS, DEFAULT_PORT

__all__ = ["INTERFACES", "CharacterDisplay", "DisplayUnavailable", "NibbleBus", "open_display"]


def open_display(
    interface: str,
    *,
    pins: Mapping[str, int] | None = None,
    pin_factory: Factory | None = None,
    i2c_port: int = DEFAULT_PORT,
    i2c_address: int = DEFAULT_ADDRESS,
    glyphs: Sequence[Sequence[int]] = (),
    charmap: str = "A00",
    substitutes: Mapping[str, int] | None = None,
) -> CharacterDisplay:
    """The LCD on an I2C PCF8574 backpack ("i2c") or on the lcd.* GPIO pins ("gpio"), with
    `glyphs` in its CGRAM and `substitutes` for characters its ROM lacks (CharacterDisplay).

    Raises DisplayUnavailable when the bus cannot be opened; an LCD that does not answer is not an
    error here: the display keeps retrying (see `CharacterDisplay.healthy`).
    """
    if interface == "i2c":
        from .pcf8574 import Pcf8574Bus

        bus: NibbleBus = Pcf8574Bus(i2c_port, i2c_address)
    elif interface == "gpio":
        from .gpio import GpioBus

        bus = GpioBus(pins or {}, pin_factory=pin_factory)
    else:
        raise DisplayUnavailable(
            f"LCD interface must be one of {', '.join(INTERFACES)}, not {interface!r}"
        )
    return CharacterDisplay(bus, glyphs=glyphs, charmap=charmap, substitutes=substitutes)
