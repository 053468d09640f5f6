"""Choosing the pin factory: gpiod (the kernel's GPIO chip through libgpiod, on a Raspberry
Pi or any board with a GPIO chip: hardware.gpiod_pins; the former names lgpio and rpigpio
mean it too), or mock (the simulation's pins, which
the caller builds: hardware.sim.pins.SimFactory)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .device_errors import PinFactoryUnavailable

if TYPE_CHECKING:
    from collections.abc import Mapping

    from gpiozero.pins import Factory

CHIP_FACTORY = "gpiod"
FACTORIES = (CHIP_FACTORY, "mock")
# gpiozero's factories the table named before it had pins of its own: lgpio and RPi.GPIO.
# Both drove the Pi's GPIO chip, which the table's own pins now drive through the kernel, so
# a config (or GPIOZERO_PIN_FACTORY) that still names one plays on the chip, and says so: an
# upgrade never leaves a working table on "Config file bad: defaults".
FORMER = ("lgpio", "rpigpio")
NAMES = FACTORIES + FORMER  # what a config may say


def _asked(configured: str | None) -> str:
    return (configured or os.environ.get("GPIOZERO_PIN_FACTORY") or CHIP_FACTORY).lower()


def factory_name(configured: str | None) -> str:
    """The config's choice, else gpiozero's GPIOZERO_PIN_FACTORY, else gpiod; a former
    factory's name is gpiod."""
    name = _asked(configured)
    if name in FORMER:
        return CHIP_FACTORY
    if name not in FACTORIES:
        raise PinFactoryUnavailable(
            f"pin factory must be one of {', '.join(FACTORIES)}, not {name!r}"
        )
    return name


def former_note(configured: str | None) -> str | None:
    """What to tell an operator whose config names a former factory; None otherwise."""
    name = _asked(configured)
    if name not in FORMER:
        return None
    return (
        f"pin factory {name!r} is now the table's own gpiod pins, on the same GPIO chip:"
        ' write factory = "gpiod" in [gpio], or leave it out'
    )


def make_factory(
    name: str, *, chip: int | str | None = None, roles: Mapping[int, str] | None = None
) -> Factory:
    """The pin factory on a GPIO chip: the one `chip` names, else the Raspberry Pi's; `roles`,
    the pin map's role of each pin, for its errors. Its backend is imported only here, when
    asked for."""
    if name != CHIP_FACTORY:
        raise PinFactoryUnavailable(f"{name!r} is not a pin factory on a GPIO chip")
    try:
        from .gpiod_pins import GpiodFactory
    except ImportError as err:
        raise PinFactoryUnavailable(
            f"pin factory {name!r} is not installed ({err.name}): pip install gpiod"
        ) from err
    try:
        return GpiodFactory(chip, roles=roles)
    except PinFactoryUnavailable:
        raise
    except Exception as err:
        raise PinFactoryUnavailable(f"pin factory {name!r} failed to open: {err}") from err
