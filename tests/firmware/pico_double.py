"""The real firmware, through its own main.py, under MicroPython's unix port, on a board double:
the launcher's mechanics (hardware.sim's model) in this process, on a clock of their own, and
the firmware's `machine` (board_double/machine.py) wired to them over TCP on the loopback.

The mechanics run in a thread with an event loop of its own, on a `PhysicsClock` that follows
the monotonic clock (MicroPython's `ticks_us` on the unix port is the same clock). At each
edge of the beam or the hopper switch, and each tick of the firmware's timer, they wait until
the firmware's interrupt thread has run the handler, and apply what it wrote at the edge's
time (a hard interrupt runs within microseconds of its edge). The firmware's main loop reads
their time, told every millisecond, as its clock: a loaded machine that starves their thread
holds the firmware's time back with them, so the main loop never reads a moment whose edges
its interrupts have not seen, as on a Pico. While it has interrupts disabled they stand
still where they are, and what it writes then takes effect at that moment
(board_double/machine.py says why); what it writes otherwise (the scratch words) is applied
as it comes. The firmware's serial line is a pseudo-terminal on its standard input and
output, as USB is on a Pico; a host opens `port`. `freeze` stops its whole process
(SIGSTOP), `stall` its main loop alone, `starve` the mechanics' thread (as a loaded machine
does), `power_cut` stops the roller at that moment of the mechanics, once each edge before it
has run its handler, kills the process and starts it again with its scratch registers lost.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import random
import select
import signal
import socket
import subprocess
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.clock import LoopClock, Timer
from hardware.sim.launcher_model import LauncherModel
from hardware.sim.machine import PWRON_RESET
from hardware.sim.physics_clock import PhysicsClock
from hardware.sim.pins import SimFactory, SimPin
from tests.firmware.unix_port import micropython

ROOT = Path(__file__).resolve().parents[2]
DOUBLE = Path(__file__).with_name("board_double")
FORWARD, BACKWARD, BEAM, EMPTY = 14, 15, 16, 17  # firmware/board.py's pins
SCRATCH = 0x40058000 + 0x0C
TICKS_MASK = 2**62 - 1  # a 64-bit port's ticks period
CLOCK_S = 0.001  # the firmware's main loop is told the mechanics' time this often
WAIT = 30.0  # real seconds the mechanics wait for a handler (a frozen process comes back)


def us(seconds: float) -> int:
    return round(seconds * 1_000_000) & TICKS_MASK


class HandlerFailed(AssertionError):
    """An interrupt handler of the firmware raised (its error is on the firmware's stderr)."""


class PicoDouble:
    """Create it anywhere; `close` it. Its methods may be called from any thread."""

    def __init__(self, seed: int, log: Path, cards: int = 1_000_000) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self._log = log.open("ab")
        self._rng = random.Random(seed)
        self.board_id = bytes(self._rng.randrange(256) for _ in range(8))
        self._process: subprocess.Popen[bytes] | None = None
        self._events: socket.socket | None = None
        self._writes: socket.socket | None = None
        self._buffer = bytearray()
        self._deferred: list[bytes] = []  # lines to take up once the edge in hand is done
        self._masked: list[bytes] | None = None  # edges while the main loop has interrupts off
        self._timers: list[Timer] = []
        self.scratch = [0, 0, 0, 0]
        self.interrupt_stops = 0  # the motor stopped by an interrupt handler of the firmware
        self.failed: str | None = None
        # Called on the mechanics' thread as the main loop disables interrupts, before it may
        # go on: a test acts at that moment.
        self.on_hold: Callable[[], None] | None = None
        self._server = socket.create_server(("127.0.0.1", 0))
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._call(lambda: self._build(cards))
        self._call(lambda: self._boot(PWRON_RESET))

    # -- from any thread -----------------------------------------------------------------

    @property
    def cards_out(self) -> int:
        """The cards out of the slot by now: the mechanics, whose clock runs on their own
        thread, are caught up to now there first (a card may have left since they last ran)."""
        return int(self._call(self._out_now))

    @property
    def gate_stops(self) -> int:
        return self.interrupt_stops

    def stall(self, seconds: float) -> None:
        self._loop.call_soon_threadsafe(self._lockstep, b"P %d\n" % round(seconds * 1000))

    def starve(self, seconds: float) -> None:
        """The mechanics' thread gets no processor for `seconds`, as on a loaded machine: they
        fall behind the firmware's clock, and catch up after, each edge at its own time."""
        self._loop.call_soon_threadsafe(time.sleep, seconds)

    def freeze(self, seconds: float) -> None:
        process = self._process
        if process is not None:
            process.send_signal(signal.SIGSTOP)
            threading.Timer(seconds, process.send_signal, (signal.SIGCONT,)).start()

    def power_cut(self) -> None:
        self._loop.call_soon_threadsafe(self._power_cut)

    def close(self) -> None:
        self._call(self._halt)
        self._call(self.physics.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()
        self._server.close()
        self._log.close()
        os.close(self.master)
        os.close(self.slave)

    def _call(self, work: Callable[[], Any]) -> Any:
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(work())
            except BaseException as error:
                done.set_exception(error)

        self._loop.call_soon_threadsafe(run)
        return done.result(timeout=60)

    # -- on the mechanics' thread --------------------------------------------------------

    def _build(self, cards: int) -> None:
        self.physics = PhysicsClock(LoopClock(self._loop))
        factory = SimFactory(self.physics)
        self.model = LauncherModel(
            factory, self.physics, forward_pin=FORWARD, backward_pin=BACKWARD, beam_pin=BEAM,
            empty_pin=EMPTY, cards=cards, rng=self._rng,
        )  # fmt: skip
        self._motor = {n: factory.pin(n) for n in (FORWARD, BACKWARD)}
        for pin in self._motor.values():
            pin.function = "output"
        self._inputs: dict[int, SimPin] = {}
        self._listeners = {n: self._edge_of(n) for n in (BEAM, EMPTY)}  # gpiozero holds weakly
        for number, listener in self._listeners.items():
            pin = self._inputs[number] = factory.pin(number)
            pin.function = "input"
            pin.pull = "up"
            pin.edges = "both"
            pin.when_changed = listener

    def _edge_of(self, number: int) -> Callable[[float, bool], None]:
        def changed(ticks: float, state: bool) -> None:
            event = b"E %d %d %d\n" % (number, 1 if state else 0, us(ticks))
            if self._masked is not None:
                self._masked.append(event)  # interrupts are off: its handler runs after
            else:
                self._lockstep(event)

        return changed

    def _boot(self, cause: int) -> None:
        now = us(self.physics.now())  # caught up while nothing is powered to hear an edge
        words = [str(w) for w in self.scratch]
        args = [str(self._server.getsockname()[1]), str(cause), self.board_id.hex(), *words]
        self._process = subprocess.Popen(
            [str(micropython()), str(DOUBLE / "run_main.py"), *args, str(ROOT)],
            stdin=self.master,
            stdout=self.master,
            stderr=self._log,
        )
        self._server.settimeout(WAIT)
        self._events = self._server.accept()[0]
        self._writes = self._server.accept()[0]
        self._buffer.clear()
        self._deferred.clear()
        assert self._line(wait=True) == b"hello"
        for number, pin in self._inputs.items():
            self._events.sendall(b"E %d %d 0\n" % (number, 1 if pin.state else 0))
        self._events.sendall(b"N %d\nR\n" % now)  # its clock, then go
        self._writes.setblocking(False)
        self._loop.add_reader(self._writes.fileno(), self._written)
        self._every(CLOCK_S, self._tell_time)

    def _halt(self) -> None:
        """The board loses its power: the driver's inputs fall low and the roller stops at that
        moment, whatever the process was about to do; then the process goes. What the board
        wrote before is taken up, and the mechanics are carried to the moment, the board
        still powered, each edge on the way running its handler as it did on the board (a
        frozen process answers when it comes back); they stand there while the power goes,
        however long that took."""
        self._written()
        self.physics.catch_up()
        self.physics.hold(catch_up=False)
        events, writes = self._events, self._writes
        self._events = self._writes = None  # no power: no handler runs any more
        self._deferred.clear()
        self._buffer.clear()
        for pin in self._motor.values():
            pin.state = 0
        for timer in self._timers:
            timer.cancel()
        self._timers = []
        self.physics.release()
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None
        if writes is not None:
            self._loop.remove_reader(writes.fileno())
        for connection in (events, writes):
            if connection is not None:
                connection.close()

    def _out_now(self) -> int:
        self.physics.catch_up()
        return self.model.cards_out

    def _power_cut(self) -> None:
        self._halt()
        self.scratch = [0, 0, 0, 0]
        self._boot(PWRON_RESET)

    def _line(self, wait: bool) -> bytes | None:
        """The next line the firmware wrote, or None (with `wait`, it waits for one)."""
        connection = self._writes
        while b"\n" not in self._buffer:
            if connection is None:
                return None
            if wait and not select.select([connection], [], [], WAIT)[0]:
                raise AssertionError("the firmware did not answer within its time")
            try:
                data = connection.recv(65536)
            except BlockingIOError:
                return None
            if not data:
                return None
            self._buffer += data
        end = self._buffer.index(b"\n")
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        return line

    def _written(self) -> None:
        """What the main loop wrote, in order. It takes effect where the mechanics stand: the
        main loop's clock is theirs, so they have passed every moment it has read."""
        while (
            line := self._deferred.pop(0) if self._deferred else self._line(wait=False)
        ) is not None:
            if line == b"I":
                self._critical()
            else:
                self._apply(line, handler=False)

    def _critical(self) -> None:
        """The main loop has disabled interrupts ("I"): the mechanics stand still where they
        are, no edge handled, until it enables them ("U"), and what it writes meanwhile takes
        effect at that moment. On the RP2040 interrupts are off for microseconds: no edge comes
        in between, and the power goes before or after (a power cut waits for the end here,
        however long the firmware's process is frozen in between)."""
        self.physics.hold(catch_up=False)
        if self.on_hold is not None:
            self.on_hold()
        # An edge that a write makes at this very moment (a roller reversed with a card's
        # front just at the beam) waits, as on the board, for interrupts to be enabled.
        self._masked = masked = []
        depth = 0
        line: bytes | None = b"I"
        try:
            while line is not None:
                if line == b"I":  # nested: the inner one enables nothing
                    depth += 1
                    if self._events is not None:
                        self._events.sendall(b"A\n")
                elif line == b"U":
                    depth -= 1
                    if not depth:
                        break
                else:
                    self._apply(line, handler=False)
                line = self._deferred.pop(0) if self._deferred else self._line(wait=True)
        finally:
            self._masked = None
            for event in masked:
                self._lockstep(event)
            self.physics.release()

    def _lockstep(self, event: bytes) -> None:
        """Hand the firmware an event and wait for its handler's end, applying what it wrote;
        then what its main loop wrote meanwhile, at the event's moment."""
        if self._events is None:
            return  # no power: nothing runs
        self._events.sendall(event)
        handler = False  # the main loop's writes come first, the handler's after "H"
        while (line := self._line(wait=True)) != b"K":
            if line is None:
                return  # the board went
            if line == b"H":
                handler = True
            elif not handler and (self._deferred or line == b"I"):
                # The main loop disables interrupts: taken up after this edge, and what it
                # wrote after, in the order written.
                self._deferred.append(line)
            else:
                self._apply(line, handler=handler)
        self._written()

    def _apply(self, line: bytes, *, handler: bool) -> None:
        kind, *numbers = line.split()
        if kind == b"D":
            pin = self._motor[int(numbers[0])]
            duty = int(numbers[1]) / 65535
            if handler and pin.state > 0 and duty == 0 and pin is self._motor[FORWARD]:
                self.interrupt_stops += 1
            pin.state = duty
        elif kind == b"M":
            self.scratch[(int(numbers[0]) - SCRATCH) // 4] = int(numbers[1])
        elif kind == b"T":
            timer = int(numbers[0])
            self._every(int(numbers[1]) / 1000, lambda t: self._lockstep(b"F %d %d\n" % (timer, t)))
        elif kind == b"X":
            self.failed = "an interrupt handler of the firmware raised: see its log"
            raise HandlerFailed(self.failed)

    def _tell_time(self, ticks: int) -> None:
        """The firmware's main loop reads its clock from here (board_double/ticks.py): the
        mechanics' time, which so never runs ahead of the edges its interrupts have seen. What
        it wrote in the meantime is taken up first, where the mechanics stand."""
        self._written()
        if self._events is not None:
            self._events.sendall(b"N %d\n" % ticks)

    def _every(self, period: float, act: Callable[[int], None]) -> None:
        """`act(ticks)` every `period` seconds of the mechanics' time, until the power goes."""

        def fire() -> None:
            self._timers.remove(handle)
            self._every(period, act)
            act(us(self.physics.now()))

        handle = self.physics.call_at(self.physics.now() + period, fire)
        self._timers.append(handle)
