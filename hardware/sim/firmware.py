"""The launcher firmware (firmware/) running under CPython on the launcher model.

The firmware's own `Board` and `Launcher` run on stand-ins for `machine` (hardware.sim.machine)
whose pins are the model's motor, beam and hopper switch, and whose UART is a file descriptor
(a pseudo-terminal), on which each start writes main.py's banner. The Pico's blocking main
loop becomes callbacks on the asyncio loop: bytes when the descriptor is readable, a pass
after each beam interrupt, and a timer at the time the firmware says it next has something
to do. `reset` restarts the firmware as a watchdog would, or as a power-on does (the scratch
registers lost).

The launcher's mechanics, the pins' interrupts and the board's timer run on a clock of their
own (`PhysicsClock`), apart from the main loop: `stall` stops the main loop for a while (as
a garbage collection or a long USB transfer stops a Pico's) and the roller turns on, the
interrupts stopping it where the firmware's gate says. A process that runs late (a busy
machine, a stop by SIGSTOP) catches the mechanics up edge by edge, each interrupt at its
edge's time and each motor change it makes from there, as on the board.
With a `jam_rate`, a card sticks in the slot now and then; a hand pulls it out a moment
(UNJAM_TIME) after the motor has stopped for it: it counts for the jammed dispense, and the
firmware goes on when the host asks for the rest.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Protocol

from firmware.board import BEAM, EMPTY, MOTOR_BACKWARD, MOTOR_FORWARD, Board
from firmware.launcher import banner

from ..clock import Clock, Timer
from .launcher_model import LauncherModel
from .machine import PWRON_RESET, UART, WDT_RESET, Scratch, SimMachine
from .physics_clock import PhysicsClock
from .pins import SimFactory

log = logging.getLogger(__name__)

RP2040_TICKS = 30  # MicroPython's ticks wrap at 2**30 on the RP2040, at 2**62 on a 64-bit port
UNJAM_TIME = 1.0  # seconds after the motor stopped for a jam until a hand pulls the card out


class _Link(Protocol):
    """What the simulation reads of the firmware's `Link`."""

    @property
    def idle(self) -> bool: ...

    @property
    def between_frames(self) -> bool: ...


class _Launcher(Protocol):
    """What the simulation asks of the firmware's `Launcher` (MicroPython, unannotated):
    times are the board's whole microseconds."""

    @property
    def link(self) -> _Link: ...

    def receive(self, data: bytes, now: int) -> None: ...


class _Board(Protocol):
    """What the simulation asks of the firmware's `Board`, made with a UART on
    `SimMachine`."""

    @property
    def board_id(self) -> bytes: ...

    @property
    def port(self) -> UART: ...

    def now(self) -> int: ...

    def drive(self, duty: int) -> None: ...

    def start(self, write: Callable[[bytes], int]) -> _Launcher: ...

    def service(self, launcher: _Launcher) -> tuple[int, int | None]: ...


class FirmwareSim:
    """The launcher controller on `fd`: create it inside the running loop; `close` it."""

    def __init__(
        self,
        fd: int,
        *,
        clock: Clock,
        cards: int = 54,
        rng: random.Random | None = None,
        jam_rate: float = 0.0,
        ticks_bits: int = RP2040_TICKS,
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self._ticks_mask = (1 << ticks_bits) - 1
        self._clock = clock
        self._fd = fd
        self.rng = rng or random.Random(0)
        self.physics = PhysicsClock(clock)
        self.factory = SimFactory(self.physics)
        # The model claims its beam and switch pins before the firmware's Pins take them.
        self.model = LauncherModel(
            self.factory,
            self.physics,
            forward_pin=MOTOR_FORWARD,
            backward_pin=MOTOR_BACKWARD,
            beam_pin=BEAM,
            empty_pin=EMPTY,
            cards=cards,
            rng=self.rng,
        )
        board_id = bytes(self.rng.randrange(256) for _ in range(8))
        self.machine = SimMachine(
            self.factory, self.physics, fd, board_id=board_id, on_irq=self._soon
        )
        # Each start is named by a random number, as the Pico's ring oscillator gives it;
        # drawn apart from the mechanics, so a start changes no card's travel.
        self._starts = random.Random(board_id)
        self._timer: Timer | None = None
        self._pending = False
        self._stalled_until: float | None = None
        self.jam_rate = jam_rate
        self._rolled_for = -1  # the card (by cards out before it) whose jam was decided
        self._unjam: Timer | None = None
        self._own_jam = False  # the jam is one of `jam_rate`'s, not one made from outside
        self.resets = 0
        self.closed = False
        self.received = 0  # bytes read from the line, ever: its progress
        self._boot()

    @property
    def banner(self) -> str:
        """The line the firmware writes at each start, as main.py writes it on a Pico."""
        line: str = banner(self.board.board_id)
        return line

    def _boot(self) -> None:
        start = self._starts.getrandbits(32)
        self.board: _Board = Board(
            self.machine, self._ticks_us, self._ticks_diff, link="uart", start=start
        )
        self.board.port.write(self.banner.encode())
        self.launcher = self.board.start(self.board.port.write)
        self._loop.add_reader(self._fd, self._readable)
        self._service()

    def reset(self, cause: int = WDT_RESET) -> None:
        """The firmware starts over, as after its watchdog fired: the motor stops at once and
        everything but the scratch registers is forgotten. With `PWRON_RESET` the power went
        and came back: the scratch registers are lost too."""
        self.resets += 1
        self._stalled_until = None  # a board that starts again has a main loop that runs
        self._halt()
        self.machine.cause = cause
        if cause == PWRON_RESET:
            self.machine.mem32 = Scratch()
        self._boot()

    def close(self) -> None:
        self.closed = True
        self._halt()
        self.model.close()
        self.physics.close()

    def stall(self, seconds: float) -> None:
        """The main loop stops for `seconds` (it reads, counts and answers nothing), as a
        board's does in a long garbage collection; the mechanics, the interrupts and the timer
        go on."""
        self._stalled_until = self._clock.now() + seconds
        self._stalled()

    @property
    def quiet(self) -> bool:
        """Nothing the firmware sent waits for the host's acknowledgement, no frame is half
        received and no interrupt waits for the main loop (or the firmware is off)."""
        link = self.launcher.link
        return self.closed or (not self._pending and link.idle and link.between_frames)

    def _halt(self) -> None:
        self._loop.remove_reader(self._fd)
        self._set_timer(None)
        self.machine.stop_timers()
        self.board.drive(0)

    def _set_timer(self, when: float | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None if when is None else self._clock.call_at(when, self._service)

    def _ticks_us(self) -> int:
        # In an interrupt, its edge's or tick's own time; MicroPython's ticks wrap, on the
        # RP2040 at 2**30 microseconds (18 minutes).
        edge = self.machine.interrupt_time
        now = self.physics.now() if edge is None else edge
        return round(now * 1_000_000) & self._ticks_mask

    def _ticks_diff(self, later: int, earlier: int) -> int:
        """MicroPython's `ticks_diff`: the signed distance on the wrapping count."""
        half = (self._ticks_mask + 1) // 2
        return ((later - earlier + half) & self._ticks_mask) - half

    def _stalled(self) -> bool:
        """Whether the main loop is stalled now; it then wakes at the stall's end."""
        until = self._stalled_until
        if until is None:
            return False
        if self._clock.now() < until:
            self._loop.remove_reader(self._fd)
            self._set_timer(until)
            return True
        self._stalled_until = None
        self._loop.add_reader(self._fd, self._readable)
        return False

    def _readable(self) -> None:
        if self._stalled():
            return
        data = self.board.port.read()
        if data:
            self.received += len(data)
            self.launcher.receive(data, self.board.now())
        self._service()

    def _soon(self) -> None:
        # An interrupt came in the middle of the model's own step: handle it right after.
        if not self._pending:
            self._pending = True
            self._loop.call_soon(self._service)

    def _service(self) -> None:
        """One pass of the Pico's main loop."""
        self._pending = False
        if self._stalled():
            return  # its timer wakes it at the stall's end
        now, due = self.board.service(self.launcher)
        self._jams()
        when = None if due is None else self._clock.now() + max(0, due - now) / 1_000_000
        self._set_timer(when)

    def _jams(self) -> None:
        model = self.model
        if self.jam_rate and model.card_in_beam and self._rolled_for != model.cards_out:
            self._rolled_for = model.cards_out
            if self.rng.random() < self.jam_rate:
                log.info("a card sticks in the slot")
                model.jam()
                self._own_jam = True
        # A jam made from outside (the simulated table's, on demand) waits for whoever made it.
        if self._own_jam and model.jammed and not model.motor_speed and self._unjam is None:
            self._unjam = self.physics.call_at(self.physics.now() + UNJAM_TIME, self._pull_out)

    def _pull_out(self) -> None:
        self._unjam = None
        self._own_jam = False
        log.info("a hand pulls the stuck card out of the slot")
        self.model.pull_out()
