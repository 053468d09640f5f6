"""The firmware's own modules as the host runs them under CPython, typed: the firmware is
MicroPython and unannotated (firmware/README.md), so what the host asks of each is written
down here and checked by mypy where it is used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class LinkFace(Protocol):
    """What hardware.controller_session asks of the firmware's `Link` (firmware/link.py): times are
    whole microseconds, frames (kind, payload)."""

    @property
    def last_heard(self) -> int | None: ...

    @property
    def idle(self) -> bool: ...

    @property
    def between_frames(self) -> bool: ...

    def send(self, kind: int, payload: bytes, now: int) -> None: ...

    def receive(self, data: bytes, now: int) -> list[tuple[int, bytes]]: ...

    def next_due(self) -> int | None: ...

    def poll(self, now: int) -> None: ...

    def forget(self) -> None: ...


class DispenserFace(Protocol):
    """What hardware.gpio_ejector asks of the firmware's `Dispenser` (firmware/dispenser.py):
    times and counts are whole microseconds and cards."""

    jam_us: int
    state: int
    asked: int
    counted: int
    kept: int
    held: bool

    @property
    def stuck(self) -> bool: ...

    def start(self, count: int, now: int) -> None: ...

    def keep(self, counted: int, now: int) -> None: ...

    def add(self, count: int) -> None: ...

    def restart(self, now: int) -> None: ...

    def stop(self, reason: int | str, now: int, settle: Callable[[], None] = ...) -> None: ...

    def beam(self, clear: bool, t: int) -> None: ...

    def hopper_emptied(self, now: int) -> None: ...

    def next_due(self) -> int | None: ...

    def poll(self, now: int) -> None: ...


class GateFace(Protocol):
    """What hardware.gpio_ejector asks of the firmware's `Gate` (firmware/gate.py)."""

    def drive(self, duty: int) -> None: ...

    def edge(self, clear: bool, t: int) -> None: ...
