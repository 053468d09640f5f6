"""The serial line to a launcher controller (firmware/PROTOCOL.md), below what is said on it:
the port kept open (serial_line.py), the firmware's own frames, acknowledgements and
resending (firmware/link.py, run here under CPython on the host's clock), and a STATUS
heartbeat, so that the controller knows the host is there and the host notices a controller
fallen silent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from firmware import protocol as p
from firmware.link import Link

from .clock import Clock, Timer
from .serial_line import SerialLine

HEARTBEAT = 0.5  # STATUS this often, so the controller knows the host is there
LINK_TIMEOUT = 1.2  # no good frame for this long: the link is down

Frame = tuple[int, bytes]  # a frame's kind and payload


class _Link(Protocol):
    """What `ControllerLink` asks of the firmware's `Link` (MicroPython, unannotated): times
    are whole microseconds, frames (kind, payload)."""

    @property
    def last_heard(self) -> int | None: ...

    @property
    def idle(self) -> bool: ...

    @property
    def between_frames(self) -> bool: ...

    def send(self, kind: int, payload: bytes, now: int) -> None: ...

    def receive(self, data: bytes, now: int) -> list[Frame]: ...

    def next_due(self) -> int | None: ...

    def poll(self, now: int) -> None: ...

    def forget(self) -> None: ...


class ControllerLink:
    """`port` at `baud`, kept open, framed. `on_open()` when the port has opened (frames may
    be sent from then on), `on_frames(frames)` as whole frames come, `on_down()` when the
    controller has said nothing good for LINK_TIMEOUT or the port has gone. Create it inside
    the running loop; `close` it."""

    def __init__(
        self,
        port: str,
        baud: int,
        *,
        clock: Clock,
        on_open: Callable[[], None],
        on_frames: Callable[[list[Frame]], None],
        on_down: Callable[[], None],
    ) -> None:
        self._clock = clock
        self._on_open = on_open
        self._on_frames = on_frames
        self._on_down = on_down
        self._link: _Link | None = None
        self.received = 0  # bytes read from the port, ever: the line's progress
        self._resend: Timer | None = None
        self._beat: Timer | None = None
        self._line = SerialLine(
            port, baud, on_open=self._opened, on_data=self._received, on_lost=self._lost
        )

    @property
    def connected(self) -> bool:
        """The port is open (the controller may not have answered yet)."""
        return self._link is not None

    @property
    def idle(self) -> bool:
        """The port is open and nothing sent waits for the controller's acknowledgement."""
        return self._link is not None and self._link.idle

    @property
    def quiet(self) -> bool:
        """Nothing sent waits for the controller's acknowledgement and no frame is half
        received (true while the port is closed)."""
        link = self._link
        return link is None or (link.idle and link.between_frames)

    def send(self, kind: int, payload: bytes) -> None:
        """Send a frame, resent until acknowledged (nothing while the port is closed)."""
        if self._link is not None:
            self._link.send(kind, payload, self._us())
            self._arm_resend()

    def forget(self) -> None:
        """Drop what was sent and not yet acknowledged (a controller that started anew)."""
        if self._link is not None:
            self._link.forget()

    def close(self) -> None:
        """Let go of the port (its task ends on the loop's next turn); no `on_down`."""
        self._line.close()
        self._stop()

    async def closed(self) -> None:
        """Wait until the port is let go of, after `close`."""
        await self._line.closed()

    def _opened(self, write: Callable[[bytes], None]) -> None:
        self._link = Link(write)
        self._beat = self._clock.call_at(self._clock.now() + HEARTBEAT, self._heartbeat)
        self._on_open()

    def _lost(self) -> None:
        self._stop()
        self._on_down()

    def _stop(self) -> None:
        for timer in (self._resend, self._beat):
            if timer is not None:
                timer.cancel()
        self._resend = self._beat = None
        self._link = None

    def _heartbeat(self) -> None:
        link = self._link
        if link is None:
            return
        heard = link.last_heard
        if heard is None or self._us() - heard > LINK_TIMEOUT * 1_000_000:
            self._on_down()
        if link.idle:
            self.send(p.STATUS, b"")
        self._beat = self._clock.call_at(self._clock.now() + HEARTBEAT, self._heartbeat)

    def _us(self) -> int:
        return round(self._clock.now() * 1_000_000)

    def _arm_resend(self) -> None:
        if self._resend is not None:
            self._resend.cancel()
            self._resend = None
        due = None if self._link is None else self._link.next_due()
        if due is not None:
            self._resend = self._clock.call_at(due / 1_000_000, self._poll)

    def _poll(self) -> None:
        self._resend = None
        if self._link is not None:
            self._link.poll(self._us())
            self._arm_resend()

    def _received(self, data: bytes) -> None:
        link = self._link
        if link is None:
            return
        self.received += len(data)
        self._on_frames(link.receive(data, self._us()))
        self._arm_resend()
