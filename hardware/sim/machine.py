"""Stand-ins for MicroPython's `machine` module, so the launcher firmware runs under CPython.

Each is the small part of the real one that `firmware/board.py` uses, acting on simulated
pins: `Pin` (input with pull-up and an edge interrupt), `PWM` (duty on an output pin, which
the launcher model reads as motor drive), `UART` (a file descriptor: a pseudo-terminal),
`WDT`, `unique_id`, `reset_cause` and `mem32` (the watchdog scratch registers, which keep
their words across a reset, as the RP2040's do, and lose them at a power-on).

An edge interrupt runs while the line's edge is the time: `interrupt_time` is the model's time
of the edge (the time the interrupt's `ticks_us` gives, as on the Pico, where the interrupt
runs within microseconds of the edge), however late this process got round to it.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from .pins import SimFactory, SimPin

PWRON_RESET = 1
WDT_RESET = 3
SOFT_RESET = 5


class Scratch(dict[int, int]):
    """Memory words by address: unwritten words read 0, as after a power-on."""

    def __missing__(self, address: int) -> int:
        return 0

    def __setitem__(self, address: int, value: int) -> None:
        super().__setitem__(address, value & 0xFFFFFFFF)


class SimMachine:
    """One board's `machine` module: build a fresh one for each power-on, keep it across a
    reset (set `cause` first)."""

    PWRON_RESET = PWRON_RESET
    WDT_RESET = WDT_RESET
    SOFT_RESET = SOFT_RESET

    def __init__(
        self,
        factory: SimFactory,
        port_fd: int,
        *,
        board_id: bytes,
        on_irq: Callable[[], None],
    ) -> None:
        self.factory = factory
        self.port_fd = port_fd
        self.board_id = board_id
        self.on_irq = on_irq  # after an interrupt handler ran: the main loop has work
        self.cause = PWRON_RESET
        self.mem32 = Scratch()
        self.feeds = 0
        self.interrupt_time: float | None = None  # the edge's time, while its handler runs
        machine = self

        class BoundPin(Pin):
            _machine = machine

        self.Pin = BoundPin

    def PWM(self, pin: Pin, *, freq: int, duty_u16: int = 0) -> PWM:
        return PWM(pin, freq=freq, duty_u16=duty_u16)

    def UART(self, uart_id: int, *, baudrate: int, tx: Pin, rx: Pin) -> UART:
        return UART(self.port_fd)

    def WDT(self, *, timeout: int) -> WDT:
        return WDT(self)

    def unique_id(self) -> bytes:
        return self.board_id

    def reset_cause(self) -> int:
        return self.cause


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8
    _machine: SimMachine

    def __init__(self, number: int, mode: int | None = None, pull: int | None = None) -> None:
        self.sim: SimPin = self._machine.factory.pin(number)
        self._handler: Callable[[Pin], None] | None = None
        if mode == self.IN:
            self.sim.function = "input"
            if pull == self.PULL_UP:
                self.sim.pull = "up"

    def value(self) -> int:
        return 1 if self.sim.state else 0

    def irq(self, handler: Callable[[Pin], None], trigger: int, *, hard: bool = False) -> None:
        rising, falling = trigger & self.IRQ_RISING, trigger & self.IRQ_FALLING
        self.sim.edges = "both" if rising and falling else "rising" if rising else "falling"
        self._handler = handler
        # SimPin's own code sets this to None when it closes, which is all mypy sees of it.
        self.sim.when_changed = self._changed  # type: ignore[assignment]

    def _changed(self, ticks: float, _state: bool) -> None:
        if self._handler is not None:
            machine = self._machine
            machine.interrupt_time = ticks
            try:
                self._handler(self)
            finally:
                machine.interrupt_time = None
            machine.on_irq()


class PWM:
    def __init__(self, pin: Pin, *, freq: int, duty_u16: int = 0) -> None:
        self._pin = pin.sim
        self._pin.function = "output"
        self._pin.frequency = freq  # type: ignore[assignment]  # None only when closed
        self.duty_u16(duty_u16)

    def duty_u16(self, value: int) -> None:
        self._pin.state = max(0, min(value, 65535)) / 65535


class UART:
    """A UART on a file descriptor: `read` never blocks and gives None when nothing came."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)

    def read(self, size: int = 4096) -> bytes | None:
        try:
            return os.read(self.fd, size) or None
        except (BlockingIOError, OSError):
            # OSError: the other end is closed (EIO on a pseudo-terminal), like a cable out.
            return None

    def write(self, data: bytes) -> int:
        try:
            return os.write(self.fd, data)
        except (BlockingIOError, OSError):
            return 0  # nobody listening: a UART's bytes go out on the wire all the same


class WDT:
    def __init__(self, machine: SimMachine) -> None:
        self._machine = machine

    def feed(self) -> None:
        self._machine.feeds += 1
