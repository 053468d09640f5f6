"""The pin map: which BCM pin each role of the table is wired to, and its validation.

`DEFAULT_PINS` is the table in hardware/README.md. A Pi has 22 GPIO pins free once the I2C
bus (the LCD backpack, GPIO 2/3) and the UART (GPIO 14/15) are left alone, which is exactly
what 8 seats, the SLAP and launcher buttons, the buzzer and the encoder need. The optional
roles (Play/Pause, the launcher's motor, beam and hopper switch, a parallel LCD) get pins in
the config: on tables with fewer seats, the freed seat pins serve them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import cast

from .device_errors import PinMapError

MAX_SEATS = 8

SEAT_PARTS = ("button", "light")
CONTROL_ROLES = ("slap", "buzzer", "encoder.a", "encoder.b", "encoder.push")
LAUNCHER_MOTOR_ROLES = ("launcher.motor.forward", "launcher.motor.backward")
LCD_GPIO_ROLES = ("lcd.rs", "lcd.e", "lcd.d4", "lcd.d5", "lcd.d6", "lcd.d7")
OPTIONAL_ROLES = (
    "launcher",
    "play_pause",
    *LAUNCHER_MOTOR_ROLES,
    "launcher.beam",
    "launcher.empty",
    *LCD_GPIO_ROLES,
)

# Inputs are wired between the pin and ground, with the Pi's pull-up: pressed reads low.
INPUT_ROLES_FIXED = ("slap", "launcher", "play_pause", "encoder.push")

I2C_PINS = frozenset({2, 3})
PI_HEADER = range(2, 28)
# gpiozero's mock header also has GPIO 0 and 1, and the simulated LCD needs no I2C bus.
SIM_HEADER = range(0, 28)

DEFAULT_PINS: Mapping[str, int] = {
    "seat1.button": 4,
    "seat1.light": 17,
    "seat2.button": 27,
    "seat2.light": 22,
    "seat3.button": 10,
    "seat3.light": 9,
    "seat4.button": 11,
    "seat4.light": 8,
    "seat5.button": 7,
    "seat5.light": 5,
    "seat6.button": 6,
    "seat6.light": 12,
    "seat7.button": 13,
    "seat7.light": 19,
    "seat8.button": 16,
    "seat8.light": 26,
    "slap": 20,
    "launcher": 21,
    "buzzer": 18,
    "encoder.a": 23,
    "encoder.b": 24,
    "encoder.push": 25,
}

# The 6-seat table of hardware/README.md: Play/Pause and the launcher on the pins that seats
# 7 and 8 leave free, the hopper switch on GPIO 15 (the UART's, unused). The simulated table
# is this one by default, so it is a table that can be built.
LAUNCHER_TABLE_SEATS = 6
LAUNCHER_TABLE_PINS: Mapping[str, int] = {
    "play_pause": 13,
    "launcher.motor.forward": 19,
    "launcher.motor.backward": 16,
    "launcher.beam": 26,
    "launcher.empty": 15,
}

# A simulated table of 7 or 8 seats has no pins left for these on a Pi; the simulation still
# gives it every part, on the mock header's spare pins, so that each can be tried.
SIMULATION_EXTRA_PINS: Mapping[str, int] = {
    "play_pause": 14,
    "launcher.motor.forward": 15,
    "launcher.motor.backward": 2,
    "launcher.beam": 3,
    "launcher.empty": 0,
}


def seat_role(seat: int, part: str) -> str:
    return f"seat{seat}.{part}"


def seat_roles(seats: int) -> tuple[str, ...]:
    return tuple(seat_role(n, part) for n in range(1, seats + 1) for part in SEAT_PARTS)


def known_roles(seats: int = MAX_SEATS) -> frozenset[str]:
    return frozenset((*seat_roles(seats), *CONTROL_ROLES, *OPTIONAL_ROLES))


def input_roles(seats: int) -> tuple[str, ...]:
    """The push buttons and switches, in a stable order."""
    seats_in = tuple(seat_role(n, "button") for n in range(1, seats + 1))
    return (*seats_in, *INPUT_ROLES_FIXED)


@dataclass(frozen=True)
class PinMap:
    """A validated role → BCM pin map for a table with `seats` stations."""

    seats: int
    pins: Mapping[str, int]

    def __getitem__(self, role: str) -> int:
        return self.pins[role]

    def get(self, role: str) -> int | None:
        return self.pins.get(role)

    def __contains__(self, role: object) -> bool:
        return role in self.pins

    def roles_by_pin(self) -> dict[int, str]:
        """Each pin's role (a pin has one: `validate`)."""
        return {pin: role for role, pin in self.pins.items()}

    @classmethod
    def build(
        cls,
        seats: int,
        overrides: Mapping[str, object] | None = None,
        *,
        base: Mapping[str, int] = DEFAULT_PINS,
        header: range = PI_HEADER,
        i2c_in_use: bool = True,
    ) -> PinMap:
        """Merge `overrides` into `base`, keep the roles of the fitted seats, and validate."""
        if not 2 <= seats <= MAX_SEATS:
            raise PinMapError(f"seats must be 2 to {MAX_SEATS}, not {seats}")
        overrides = dict(overrides or {})
        unknown = sorted(set(overrides) - known_roles())
        if unknown:
            raise PinMapError(f"unknown role {unknown[0]!r} in the pin map")
        merged: dict[str, object] = dict(base)
        merged.update(overrides)
        wanted = known_roles(seats)
        pins = {role: pin for role, pin in merged.items() if role in wanted}
        validate(pins, seats=seats, header=header, i2c_in_use=i2c_in_use)
        numbers = cast(dict[str, int], pins)  # `validate` made sure each is a pin number
        return cls(seats=seats, pins=dict(sorted(numbers.items(), key=_role_order)))


def validate(pins: Mapping[str, object], *, seats: int, header: range, i2c_in_use: bool) -> None:
    """Raise PinMapError with a one-line reason for the first problem found."""
    owner: dict[int, str] = {}
    for role, pin in pins.items():
        if isinstance(pin, bool) or not isinstance(pin, int):
            raise PinMapError(f"pin of {role!r} must be a BCM number, not {pin!r}")
        if pin not in header:
            raise PinMapError(
                f"pin {pin} of {role!r} is outside GPIO {header.start}-{header.stop - 1}"
            )
        if i2c_in_use and pin in I2C_PINS:
            raise PinMapError(f"pin {pin} of {role!r} is on the I2C bus the LCD uses")
        if pin in owner:
            raise PinMapError(f"pin {pin} is used twice: {owner[pin]!r} and {role!r}")
        owner[pin] = role
    missing = [role for role in _required_roles(pins, seats) if role not in pins]
    if missing:
        raise PinMapError(f"role {missing[0]!r} has no pin")


def _required_roles(pins: Iterable[str], seats: int) -> list[str]:
    present = set(pins)
    required = [*seat_roles(seats), *CONTROL_ROLES]
    if present & set(LAUNCHER_MOTOR_ROLES):
        required += [*LAUNCHER_MOTOR_ROLES, "launcher.beam"]
    if present & set(LCD_GPIO_ROLES):
        required += list(LCD_GPIO_ROLES)
    return required


def _role_order(item: tuple[str, int]) -> tuple[int, str]:
    role = item[0]
    return (0 if role.startswith("seat") else 1, role)
