"""The edges of a GPIO chip's lines, handed to gpiozero on a thread of their own that sleeps
in the kernel until one comes.

An input's edges wait in the kernel, timestamped there (CLOCK_MONOTONIC, the clock of
`time.monotonic()` and of the event loop). The thread blocks in epoll on the line requests'
descriptors, with no timeout: nothing wakes it but an edge (or a change of what it watches),
so an idle table costs nothing. When a descriptor is readable, the edges waiting on every
line are read (again while more came meanwhile), then handed over in the order of their
kernel times, each with its time, so a burst on several lines (an encoder's A and B, a SLAP
race) is handed over in the order it happened however late the thread comes to it.

A thread, not the event loop: gpiozero calls back on its pin factory's thread, and the
launcher's beam is told to its ejector's gate there before the loop hears of it
(docs/architecture.md, "The thread border"), so a stalled loop lets no card past the count.
"""

from __future__ import annotations

import logging
import os
import select
import threading
from typing import Protocol

import gpiod

log = logging.getLogger(__name__)

# Reads of the waiting lines per wakeup at most: a line that never falls quiet cannot keep
# the others' edges waiting.
READS = 4


class EdgePin(Protocol):
    def read_edges(self) -> list[gpiod.EdgeEvent]: ...

    def edge(self, ticks: float, level: bool) -> None: ...


class EdgeThread:
    """One thread for all the watched lines of a chip; it starts at the first `watch` and
    ends at `close`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # `_pins` and the requests they read, against `unwatch`
        self._pins: dict[int, EdgePin] = {}  # descriptor: its pin
        self._epoll: select.epoll | None = None
        self._wake = (-1, -1)  # a pipe whose write ends the thread's wait
        self._thread: threading.Thread | None = None
        self._handing: set[int] = set()  # descriptors whose edges are read, not handed over
        self._closed_by_itself: threading.Thread | None = None  # a thread that ran `close`

    def handing(self, fd: int) -> bool:
        """Whether edges read from `fd` are being handed over now (any thread)."""
        with self._lock:
            return fd in self._handing

    def watch(self, fd: int, pin: EdgePin) -> None:
        with self._lock:
            if self._epoll is None:
                self._epoll = select.epoll()
                self._wake = os.pipe()
                self._epoll.register(self._wake[0], select.EPOLLIN)
                self._thread = threading.Thread(target=self._run, name="gpiod edges", daemon=True)
                self._thread.start()
            self._pins[fd] = pin
            self._epoll.register(fd, select.EPOLLIN)

    def unwatch(self, fd: int) -> None:
        """No more edges read from `fd`: once this returns, its request may be released."""
        with self._lock:
            if self._pins.pop(fd, None) is not None and self._epoll is not None:
                self._epoll.unregister(fd)

    def close(self) -> None:
        """The thread ended, then its epoll and pipe closed (by the thread itself, as it
        ends, when it is the one closing); a `watch` after this starts another."""
        with self._lock:
            thread, self._thread = self._thread, None
            if thread is None:
                return
            epoll, wake = self._epoll, self._wake
            os.write(wake[1], b"x")
            self._epoll, self._pins = None, {}
            if thread is threading.current_thread():
                self._closed_by_itself = thread
                return
        thread.join()
        _release(epoll, wake)

    def _run(self) -> None:
        me = threading.current_thread()
        epoll, wake = self._epoll, self._wake
        assert epoll is not None
        try:
            self._serve(me, epoll)
        except Exception:
            log.exception("the GPIO chip's edges are no longer read: the table's inputs are deaf")
            raise
        finally:
            if self._closed_by_itself is me:
                _release(epoll, wake)

    def _serve(self, me: threading.Thread, epoll: select.epoll) -> None:
        while True:
            epoll.poll()  # no timeout: only an edge or `close` wakes it
            edges = []
            with self._lock:
                if self._thread is not me:
                    return
                # Every line with edges waiting, read again while any came meanwhile: the
                # lines that woke it are not all (another's edge may have come between two
                # of theirs while the thread waited for the CPU).
                for _ in range(READS):
                    ready = [fd for fd, _ in epoll.poll(0) if fd in self._pins]
                    for fd in ready:
                        pin = self._pins[fd]
                        edges += [(e.timestamp_ns, pin, e) for e in pin.read_edges()]
                        self._handing.add(fd)
                    if not ready:
                        break
            edges.sort(key=lambda edge: edge[0])
            for stamp, pin, event in edges:
                # One handler's fault is logged and the others' edges go on: an input that
                # raised once must not leave every other deaf.
                try:
                    pin.edge(stamp / 1e9, event.event_type is gpiod.EdgeEvent.Type.RISING_EDGE)
                except Exception:
                    log.exception("a GPIO edge's handler failed")
            with self._lock:
                self._handing.clear()


def _release(epoll: select.epoll | None, wake: tuple[int, int]) -> None:
    if epoll is not None:
        epoll.close()
    for end in wake:
        os.close(end)
