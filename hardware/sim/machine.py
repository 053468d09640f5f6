"""Stand-ins for MicroPython's `machine` module, so the launcher firmware runs under CPython.

Each is the small part of the real one that `firmware/board.py` uses, acting on simulated
pins: `Pin` (input with pull-up and an edge interrupt), `PWM` (duty on an output pin, which
the launcher model reads as motor drive), `Timer` (periodic, in interrupt context), `UART` (a
file descriptor: a pseudo-terminal), `WDT`, `disable_irq` and `enable_irq`, `unique_id`,
`reset_cause` and `mem32` (the watchdog scratch registers, which keep their words across a
reset, as the RP2040's do, and lose them at a power-on).

Pins, interrupts and timers run on the hardware's own clock (`PhysicsClock`), apart from the
firmware's main loop: an interrupt runs at its edge's time and a timer at its tick's, whatever
the main loop is doing, and `interrupt_time` is that time (the time the handler's `ticks_us`
gives, as on the Pico, where it runs within microseconds of the edge).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from ..clock import Timer as ClockTimer
from .physics_clock import PhysicsClock
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
        physics: PhysicsClock,
        port_fd: int,
        *,
        board_id: bytes,
        on_irq: Callable[[], None],
    ) -> None:
        self.factory = factory
        self.physics = physics
        self.port_fd = port_fd
        self.board_id = board_id
        self.on_irq = on_irq  # after an interrupt handler ran: the main loop has work
        self.cause = PWRON_RESET
        self.mem32 = Scratch()
        self.feeds = 0
        self.interrupt_time: float | None = None  # the edge's time, while its handler runs
        self.timers: list[Timer] = []
        machine = self

        class BoundPin(Pin):
            _machine = machine

        class BoundTimer(Timer):
            _machine = machine

        self.Pin = BoundPin
        self.Timer = BoundTimer

    def interrupt(self, handler: Callable[[], None], at: float, *, wakes: bool) -> None:
        """Run an interrupt handler at the hardware's time `at`; if it `wakes` the main loop
        (a pin's edge, for it to take), the main loop has work after."""
        self.interrupt_time = at
        try:
            handler()
        finally:
            self.interrupt_time = None
        if wakes:
            self.on_irq()

    def disable_irq(self) -> int:
        self.physics.hold()
        return 0

    def enable_irq(self, _state: int) -> None:
        self.physics.release()

    def stop_timers(self) -> None:
        """The board resets: its timers stop."""
        for timer in self.timers:
            timer.deinit()
        self.timers = []

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
        self._machine.physics.catch_up()
        return 1 if self.sim.state else 0

    def irq(self, handler: Callable[[Pin], None], trigger: int, *, hard: bool = False) -> None:
        rising, falling = trigger & self.IRQ_RISING, trigger & self.IRQ_FALLING
        self.sim.edges = "both" if rising and falling else "rising" if rising else "falling"
        self._handler = handler
        # SimPin's own code sets this to None when it closes, which is all mypy sees of it.
        self.sim.when_changed = self._changed  # type: ignore[assignment]

    def _changed(self, ticks: float, _state: bool) -> None:
        handler = self._handler
        if handler is not None:
            self._machine.interrupt(lambda: handler(self), ticks, wakes=True)


class Timer:
    """A periodic hardware timer: `callback(timer)` every `period` ms, on the hardware's clock."""

    PERIODIC = 1
    _machine: SimMachine

    def __init__(
        self, *, mode: int, period: int, callback: Callable[[Timer], None], hard: bool = False
    ) -> None:
        if mode != self.PERIODIC:
            raise ValueError("only periodic timers are simulated")
        self._period = period / 1000
        self._callback = callback
        self._next: ClockTimer | None = None
        self._machine.timers.append(self)
        self._schedule(self._machine.physics.now())

    def deinit(self) -> None:
        if self._next is not None:
            self._next.cancel()
            self._next = None

    def _schedule(self, last: float) -> None:
        self._next = self._machine.physics.call_at(last + self._period, self._fire)

    def _fire(self) -> None:
        now = self._machine.physics.now()
        self._schedule(now)
        self._machine.interrupt(lambda: self._callback(self), now, wakes=False)


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
