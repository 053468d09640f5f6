"""An asyncio loop whose time is virtual, for tests that talk through real file descriptors.

Time jumps to the next timer whenever nothing is readable, so seconds of protocol timeouts
pass in milliseconds of real time. A pseudo-terminal hands written bytes to its other end a
moment after `write` returns (the kernel does it in a worker thread, later on a busy
machine), so after any write the loop waits in real time, up to SETTLE, for something to
become readable before time may jump. While a thread of the loop's executor works (opening
a serial port), time stands still.
"""

from __future__ import annotations

import asyncio
import os
import selectors

SETTLE = 0.5  # real seconds a written byte may take to arrive before time jumps anyway


class _JumpingSelector(selectors.DefaultSelector):
    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__()
        self._loop = loop

    def select(self, timeout: float | None = None):  # type: ignore[override]
        loop = self._loop
        if timeout is None or loop.working:
            return super().select(timeout)
        ready = super().select(0)
        if ready or timeout <= 0:
            loop.wrote = loop.wrote and not ready
            return ready
        if loop.wrote:
            # Bytes were written and nothing has shown up since: give the kernel its moment.
            loop.wrote = False
            ready = super().select(min(timeout, SETTLE))
            if ready:
                return ready
        loop.virtual += timeout
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        super().__init__(_JumpingSelector(self))
        self.virtual = 1000.0
        self.working = 0
        self.wrote = False
        self._os_write = os.write

        def write(fd: int, data: bytes) -> int:
            n = self._os_write(fd, data)
            self.wrote = True
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
