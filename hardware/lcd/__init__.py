"""The 16x2 character LCD: RPLCD drives the HD44780, a small bus carries the last hop.

`open_display` builds the real one (I2C backpack or GPIO pins); `simulated_display` puts the
same driver on a model of the controller, so the simulator shows what the real LCD would.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpiozero.pins import Factory

from .bus import DisplayError, NibbleBus
from .character import CharacterDisplay
from .glyphs import (
    ARROW_DOWN,
    ARROW_LEFT,
    ARROW_RIGHT,
    ARROW_UP,
    BAR,
    BAR_1,
    BAR_2,
    BAR_3,
    BAR_4,
    BAR_FULL,
    CUSTOM_CHARS,
    readable,
    timer_bar,
)
from .pcf8574 import DEFAULT_ADDRESS, DEFAULT_PORT

if TYPE_CHECKING:
    from ..sim.hd44780 import HD44780

INTERFACES = ("i2c", "gpio")

__all__ = [
    "ARROW_DOWN",
    "ARROW_LEFT",
    "ARROW_RIGHT",
    "ARROW_UP",
    "BAR",
    "BAR_1",
    "BAR_2",
    "BAR_3",
    "BAR_4",
    "BAR_FULL",
    "CUSTOM_CHARS",
    "INTERFACES",
    "CharacterDisplay",
    "DisplayError",
    "NibbleBus",
    "open_display",
    "readable",
    "simulated_display",
    "timer_bar",
]


def open_display(
    interface: str,
    *,
    pins: Mapping[str, int] | None = None,
    pin_factory: Factory | None = None,
    i2c_port: int = DEFAULT_PORT,
    i2c_address: int = DEFAULT_ADDRESS,
    charmap: str = "A00",
) -> CharacterDisplay:
    """The LCD on an I2C PCF8574 backpack ("i2c") or on the lcd.* GPIO pins ("gpio").

    Raises DisplayError when the bus cannot be opened; an LCD that does not answer is not an
    error here: the display keeps retrying (see `CharacterDisplay.healthy`).
    """
    if interface == "i2c":
        from .pcf8574 import Pcf8574Bus

        return CharacterDisplay(Pcf8574Bus(i2c_port, i2c_address), charmap=charmap)
    if interface == "gpio":
        from .gpio import GpioBus

        return CharacterDisplay(GpioBus(pins or {}, pin_factory=pin_factory), charmap=charmap)
    raise DisplayError(f"LCD interface must be one of {', '.join(INTERFACES)}, not {interface!r}")


def simulated_display(*, charmap: str = "A00") -> tuple[CharacterDisplay, HD44780]:
    """The real driver on a model HD44780; read the glass from the model's `lines`."""
    from ..sim.hd44780 import HD44780, ModelBus

    model = HD44780(rom=charmap)
    return CharacterDisplay(ModelBus(model), charmap=charmap), model
