"""An asyncio loop whose time is virtual, for tests that talk through real file descriptors.

Time jumps to the next timer whenever nothing is readable, so seconds of protocol timeouts
pass in milliseconds of real time. A pseudo-terminal hands written bytes to its other end a
moment after `write` returns (the kernel does it in a worker thread: much later on a busy
machine), so after a write to a pseudo-terminal whose other end this loop reads, the loop
waits in real time, up to SETTLE, for that end to become readable before time may jump
(another descriptor's readiness does not end the wait; bytes a test's cable drops or a
port's flush throws away never come: SETTLE is what each such write costs). While a thread
of the loop's executor works (opening a serial port), time stands still.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import selectors
import struct

SETTLE = 2.0  # real seconds a written byte may take to arrive before time jumps anyway
TIOCGPTN = 0x80045430  # the number of a pseudo-terminal's master (Linux)

End = tuple[int, bool]  # a pseudo-terminal's number; whether it is the master


def pty_end(fd: int) -> End | None:
    """Which end of which pseudo-terminal `fd` is, if it is one."""
    try:
        return struct.unpack("I", fcntl.ioctl(fd, TIOCGPTN, b"\0\0\0\0"))[0], True
    except OSError:
        pass
    try:
        name = os.ttyname(fd)
    except OSError:
        return None
    number = name.removeprefix("/dev/pts/")
    return (int(number), False) if number.isdigit() else None


class _JumpingSelector(selectors.DefaultSelector):
    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__()
        self._loop = loop

    def select(self, timeout: float | None = None):  # type: ignore[override]
        loop = self._loop
        if timeout is None or loop.working:
            return super().select(timeout)
        ready = super().select(0)
        if not ready and timeout > 0 and loop.wrote and self._read_here(loop.wrote):
            # Bytes were written to an end this loop reads and have not shown up: give the
            # kernel its moment.
            ready = super().select(min(timeout, SETTLE))
        if ready:
            # Only the ends that showed up are no longer awaited: another descriptor's
            # readiness says nothing of bytes still on their way to this one.
            loop.wrote -= {pty_end(key.fd) for key, _ in ready}
            return ready
        if timeout > 0:
            # Nothing awaited here, or the moment passed with nothing: what was written
            # never comes (a byte a test's cable dropped, a flush). Time jumps.
            loop.wrote = set()
            loop.virtual += timeout
        return []

    def _read_here(self, ends: set[End]) -> bool:
        """Whether this loop reads one of `ends`."""
        return any(
            key.events & selectors.EVENT_READ and pty_end(key.fd) in ends
            for key in self.get_map().values()
        )


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        super().__init__(_JumpingSelector(self))
        self.virtual = 1000.0
        self.working = 0
        self.wrote: set[End] = set()  # the ends bytes were written to since the last jump
        self._os_write = os.write

        def write(fd: int, data: bytes) -> int:
            n = self._os_write(fd, data)
            end = pty_end(fd)
            if n and end is not None:
                self.wrote.add((end[0], not end[1]))  # the other end gets them
            return n

        os.write = write

    def close(self) -> None:
        os.write = self._os_write
        super().close()

    def time(self) -> float:
        return self.virtual

    def run_in_executor(self, executor, func, *args):  # type: ignore[override]
        self.working += 1
        future = super().run_in_executor(executor, func, *args)

        def done(_: object) -> None:
            self.working -= 1

        future.add_done_callback(done)
        return future


def run(coro):
    """Run `coro` to the end on a fresh virtual-time loop."""
    loop = VirtualTimeLoop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()
