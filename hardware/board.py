"""The board: every role of the pin map as a gpiozero device, built on one pin factory."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol, TypeVar

from gpiozero import Motor, RotaryEncoder
from gpiozero.pins import Factory

from .animator import Animator
from .clock import Clock
from .display import TextDisplay
from .inputs import EdgeCallback, EdgeInput
from .outputs import Buzzer, Light
from .pinmap import PinMap, input_roles, seat_role

log = logging.getLogger(__name__)

TurnCallback = Callable[[int], None]


class _Device(Protocol):
    """What the board keeps of each device it made: a way to close it."""

    def close(self) -> None: ...


_D = TypeVar("_D", bound=_Device)


def input_name(role: str) -> str:
    """The name the game knows an input by: "seat3" for "seat3.button", else the role."""
    return role.removesuffix(".button")


class Board:
    """The table's devices. Input callbacks run on the pin factory's thread."""

    def __init__(
        self,
        pinmap: PinMap,
        *,
        pin_factory: Factory | None,
        clock: Clock,
        display: TextDisplay,
        on_edge: EdgeCallback,
        on_turn: TurnCallback,
    ) -> None:
        self.pinmap = pinmap
        self.pin_factory = pin_factory
        self.display = display
        self.inputs: dict[str, EdgeInput] = {}
        self.lights: dict[int, Light] = {}
        self.animator = Animator(clock)
        self._devices: list[_Device] = []
        try:
            for role in input_roles(pinmap.seats):
                if role in pinmap:
                    name = input_name(role)
                    self.inputs[name] = self._keep(
                        EdgeInput(pinmap[role], role=name, on_edge=on_edge, pin_factory=pin_factory)
                    )
            for seat in range(1, pinmap.seats + 1):
                pin = pinmap[seat_role(seat, "light")]
                self.lights[seat] = self._keep(Light(pin, self.animator, pin_factory=pin_factory))
            self.buzzer = self._keep(Buzzer(pinmap["buzzer"], clock, pin_factory=pin_factory))
            self.encoder = self._keep(
                RotaryEncoder(pinmap["encoder.a"], pinmap["encoder.b"], pin_factory=pin_factory)
            )
            self.encoder.when_rotated_clockwise = lambda: on_turn(+1)
            self.encoder.when_rotated_counter_clockwise = lambda: on_turn(-1)
            self.motor: Motor | None = None
            self.beam: EdgeInput | None = None
            self.empty: EdgeInput | None = None
            if "launcher.motor.forward" in pinmap:
                self.motor = self._keep(
                    Motor(
                        pinmap["launcher.motor.forward"],
                        pinmap["launcher.motor.backward"],
                        pwm=True,
                        pin_factory=pin_factory,
                    )
                )
                # A break-beam receiver pulls its line low while it sees the light, so this
                # input is active while the beam is clear and goes inactive as a card passes.
                self.beam = self._keep(
                    EdgeInput(
                        pinmap["launcher.beam"],
                        role="launcher.beam",
                        on_edge=on_edge,
                        pin_factory=pin_factory,
                    )
                )
            if "launcher.empty" in pinmap:
                # The hopper switch closes to ground when the last card has gone.
                self.empty = self._keep(
                    EdgeInput(
                        pinmap["launcher.empty"],
                        role="launcher.empty",
                        on_edge=on_edge,
                        pin_factory=pin_factory,
                    )
                )
        except Exception:
            self.close()
            raise

    def _keep(self, device: _D) -> _D:
        self._devices.append(device)
        return device

    def pressed_now(self) -> list[str]:
        """Inputs held down right now (at start-up these are stuck buttons)."""
        return [name for name, device in self.inputs.items() if device.is_active]

    def all_off(self) -> None:
        for light in self.lights.values():
            light.show(light.pattern.OFF)
        self.buzzer.stop()
        if self.motor is not None:
            self.motor.stop()

    def shut_down(self, lines: tuple[str, str]) -> None:
        """Dark and still for good: lights, buzzer and motor off, `lines` on an unlit LCD,
        every device closed."""
        try:
            self.all_off()
            self.display.show(lines)
            self.display.backlight(False)
        finally:
            self.display.close()
            self.close()

    def close(self) -> None:
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:  # closing must go on for the rest
                log.exception("closing %r failed", device)
        self._devices.clear()
