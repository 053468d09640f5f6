"""Choosing the pin factory: lgpio (default, the only one on a Pi 5), rpigpio, or mock (the
simulation's pins, which the caller builds: hardware.sim.pins.SimFactory)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from .device_errors import PinFactoryUnavailable

if TYPE_CHECKING:
    from gpiozero.pins import Factory

PI_FACTORIES = ("lgpio", "rpigpio")
FACTORIES = (*PI_FACTORIES, "mock")


def factory_name(configured: str | None) -> str:
    """The config's choice, else gpiozero's GPIOZERO_PIN_FACTORY, else lgpio."""
    name = (configured or os.environ.get("GPIOZERO_PIN_FACTORY") or "lgpio").lower()
    if name not in FACTORIES:
        raise PinFactoryUnavailable(
            f"pin factory must be one of {', '.join(FACTORIES)}, not {name!r}"
        )
    return name


def make_factory(name: str, *, chip: int | None = None, work_dir: Path | None = None) -> Factory:
    """A Pi's gpiozero pin factory. Its backend is imported only here, when asked for."""
    if name not in PI_FACTORIES:
        raise PinFactoryUnavailable(f"{name!r} is not a Raspberry Pi pin factory")
    try:
        if name == "lgpio":
            # lgpio writes its notification pipes into LG_WD; the sandbox allows only ours.
            if work_dir is not None:
                os.environ.setdefault("LG_WD", str(work_dir))
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory(chip=chip)
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    except ImportError as err:
        raise PinFactoryUnavailable(
            f"pin factory {name!r} is not installed ({err.name}); install flashtable[pi]"
        ) from err
    except Exception as err:
        raise PinFactoryUnavailable(f"pin factory {name!r} failed to open: {err}") from err
