"""Choosing the pin factory: gpiod (the kernel's GPIO chip through libgpiod, on a Raspberry
Pi or any board with a GPIO chip: hardware.gpiod_pins), or mock (the simulation's pins, which
the caller builds: hardware.sim.pins.SimFactory)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .device_errors import PinFactoryUnavailable

if TYPE_CHECKING:
    from gpiozero.pins import Factory

CHIP_FACTORY = "gpiod"
FACTORIES = (CHIP_FACTORY, "mock")


def factory_name(configured: str | None) -> str:
    """The config's choice, else gpiozero's GPIOZERO_PIN_FACTORY, else gpiod."""
    name = (configured or os.environ.get("GPIOZERO_PIN_FACTORY") or CHIP_FACTORY).lower()
    if name not in FACTORIES:
        raise PinFactoryUnavailable(
            f"pin factory must be one of {', '.join(FACTORIES)}, not {name!r}"
        )
    return name


def make_factory(name: str, *, chip: int | str | None = None) -> Factory:
    """The pin factory on a GPIO chip: the one `chip` names, else the Raspberry Pi's. Its
    backend is imported only here, when asked for."""
    if name != CHIP_FACTORY:
        raise PinFactoryUnavailable(f"{name!r} is not a pin factory on a GPIO chip")
    try:
        from .gpiod_pins import GpiodFactory
    except ImportError as err:
        raise PinFactoryUnavailable(
            f"pin factory {name!r} is not installed ({err.name}): pip install gpiod"
        ) from err
    try:
        return GpiodFactory(chip)
    except PinFactoryUnavailable:
        raise
    except Exception as err:
        raise PinFactoryUnavailable(f"pin factory {name!r} failed to open: {err}") from err
