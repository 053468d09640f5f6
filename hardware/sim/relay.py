"""A bad cable: a relay between two file descriptors that drops, duplicates, corrupts and
delays bytes, each at its own rate, in both directions.

Bytes keep their order, as on a serial line: a delay holds back everything behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
from collections import deque
from dataclasses import dataclass

from ..clock import Clock, Timer

log = logging.getLogger(__name__)

DELAY = 0.05  # how long a delayed byte is held back, seconds


@dataclass(frozen=True)
class LineFaults:
    """The chance of each fault, per byte, 0 to 1."""

    drop: float = 0.0
    duplicate: float = 0.0
    corrupt: float = 0.0
    delay: float = 0.0

    def __post_init__(self) -> None:
        for name in ("drop", "duplicate", "corrupt", "delay"):
            rate = getattr(self, name)
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"the {name} rate must be between 0 and 1, not {rate}")

    @property
    def any(self) -> bool:
        return any((self.drop, self.duplicate, self.corrupt, self.delay))


class _Direction:
    """One way through the relay: from `source` to `sink`."""

    def __init__(self, relay: Relay, source: int, sink: int) -> None:
        self._relay = relay
        self.source, self.sink = source, sink
        self._held: deque[tuple[float, bytes]] = deque()
        self._timer: Timer | None = None
        self._last_release = float("-inf")

    def readable(self) -> None:
        try:
            data = os.read(self.source, 4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._relay.source_gone(self)
            return
        self._pass_on(self._relay.damage(data))

    def _pass_on(self, chunks: list[tuple[bool, bytes]]) -> None:
        clock = self._relay.clock
        for delayed, chunk in chunks:
            release = max(self._last_release, clock.now() + (DELAY if delayed else 0.0))
            self._last_release = release
            self._held.append((release, chunk))
        self._flush()

    def _flush(self) -> None:
        clock = self._relay.clock
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        out = bytearray()
        while self._held and self._held[0][0] <= clock.now():
            out += self._held.popleft()[1]
        if out:
            # Nobody at the other end: the bytes are lost, as on a loose cable.
            with contextlib.suppress(OSError):
                os.write(self.sink, bytes(out))
        if self._held:
            self._timer = clock.call_at(self._held[0][0], self._flush)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Relay:
    """Bytes from `a` go to `b` and back, damaged by `faults`. Create it inside the loop."""

    def __init__(
        self, a: int, b: int, faults: LineFaults, *, clock: Clock, rng: random.Random
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self.clock = clock
        self.faults = faults
        self.rng = rng
        self.counts = {"bytes": 0, "drop": 0, "duplicate": 0, "corrupt": 0, "delay": 0}
        self._ways: list[_Direction] = []
        self.connect(a, b)

    def connect(self, a: int, b: int) -> None:
        """(Re)join `a` and `b`: after one end was closed and made anew."""
        self.close()
        for fd in (a, b):
            os.set_blocking(fd, False)
        self._ways = [_Direction(self, a, b), _Direction(self, b, a)]
        for way in self._ways:
            self._loop.add_reader(way.source, way.readable)

    def close(self) -> None:
        for way in self._ways:
            self._loop.remove_reader(way.source)
            way.close()
        self._ways = []

    def source_gone(self, way: _Direction) -> None:
        # The other end hung up: stop listening to it until `connect` is called again.
        self._loop.remove_reader(way.source)

    def damage(self, data: bytes) -> list[tuple[bool, bytes]]:
        """The bytes as they come out of the cable, as (held back, bytes) pieces."""
        f, rng, counts = self.faults, self.rng, self.counts
        counts["bytes"] += len(data)
        if not f.any:
            return [(False, data)]
        out: list[tuple[bool, bytes]] = []
        for byte in data:
            if rng.random() < f.drop:
                counts["drop"] += 1
                continue
            if rng.random() < f.corrupt:
                counts["corrupt"] += 1
                byte ^= rng.randrange(1, 256)
            piece = bytes((byte, byte)) if rng.random() < f.duplicate else bytes((byte,))
            if len(piece) == 2:
                counts["duplicate"] += 1
            delayed = rng.random() < f.delay
            if delayed:
                counts["delay"] += 1
            out.append((delayed, piece))
        return out
