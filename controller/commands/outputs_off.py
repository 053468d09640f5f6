"""`flashtable outputs-off`: every output of the pin map driven to its safe level, the
launcher's motor stopped and the lights and the buzzer dark.

systemd runs it after the daemon ends in any way (`ExecStopPost=`): a GPIO line keeps its
level when the process that drove it dies, so after a SIGKILL, an out-of-memory kill or a
watchdog abort the motor would otherwise run on until the next start.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..config import Config

# Driven low, each is off: the motor driver's inputs (coast), the lights' sinks, the buzzer.
SAFE_LOW = ("launcher.motor.forward", "launcher.motor.backward", "buzzer")


def output_roles(config: Config) -> list[str]:
    """The roles of the config's pin map that are outputs, the motor's first."""
    pinmap = config.pinmap(simulated=False)
    lights = [f"seat{seat}.light" for seat in range(1, pinmap.seats + 1)]
    return [role for role in (*SAFE_LOW, *lights) if role in pinmap]


def outputs_off(config: Config, state_dir: Path, *, pin_factory: object = None) -> int:
    """Drive the outputs low on the config's pins (or `pin_factory`'s); 1 if the pins
    cannot be driven here, with the reason."""
    from gpiozero import DigitalOutputDevice
    from gpiozero.exc import GPIOZeroError

    from hardware.device_errors import PinFactoryUnavailable
    from hardware.factory import factory_name, make_factory

    pinmap = config.pinmap(simulated=False)
    roles = output_roles(config)
    try:
        if pin_factory is None:
            name = factory_name(config.pin_factory)
            if name == "mock":
                # Simulated pins are the daemon's own, gone with it: no line kept a level.
                print("outputs off: the pins are simulated (mock), nothing to drive")
                return 0
            pin_factory = make_factory(name, chip=config.gpio_chip, roles=pinmap.roles_by_pin())
        for role in roles:
            DigitalOutputDevice(pinmap[role], initial_value=False, pin_factory=pin_factory)
    except (PinFactoryUnavailable, GPIOZeroError, OSError) as err:
        print(f"flashtable: cannot drive the outputs off: {err}", file=sys.stderr)
        return 1
    print(f"outputs off: {', '.join(roles)}")
    return 0
