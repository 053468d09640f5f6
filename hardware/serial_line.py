"""A serial port kept open: opened again whenever it goes away (a board reset, a cable pulled).

While the port is gone it is tried again every RECONNECT seconds; the first failure is
logged, the retries are not, so an unplugged board does not fill the journal. Closed, it is
let go of for certain: `closed` returns once the port's descriptor is closed, a port still
opening when the close came included.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import serial
import serial_asyncio_fast

log = logging.getLogger(__name__)

RECONNECT = 0.25  # seconds between tries to open the port


class _Protocol(asyncio.Protocol):
    def __init__(self, line: SerialLine) -> None:
        self._line = line

    def data_received(self, data: bytes) -> None:
        self._line.on_data(data)

    def connection_lost(self, exc: Exception | None) -> None:
        # The port is closed by now: the transport closes it in a worker thread first.
        self._line.port_closed(exc)


class SerialLine:
    """`port` at `baud`, kept open. `on_open(write)` when it opens, `on_data(bytes)` as bytes
    come, `on_lost()` when it has closed. Create it inside the running loop; `close` it, and
    await `closed` to know the port is let go of."""

    def __init__(
        self,
        port: str,
        baud: int,
        *,
        on_open: Callable[[Callable[[bytes], None]], None],
        on_data: Callable[[bytes], None],
        on_lost: Callable[[], None],
    ) -> None:
        self.port = port
        self.baud = baud
        self.on_data = on_data
        self._on_open = on_open
        self._on_lost = on_lost
        self._lost = asyncio.Event()  # the open port closed (or `close` was asked)
        self._shut = asyncio.Event()  # no port is open
        self._shut.set()
        self._closing = False
        self._transport: asyncio.Transport | None = None
        self._task = asyncio.get_running_loop().create_task(self._keep_open())

    def close(self) -> None:
        """Let go of the port: no more tries, and the port open now is closed (which takes a
        moment in a worker thread; `closed` waits for it)."""
        self._closing = True
        self._lost.set()
        self._close_transport()

    async def closed(self) -> None:
        """Wait until the port is let go of: a port that was opening when `close` came is
        closed too, once it has opened."""
        await self._task
        await self._shut.wait()

    def port_closed(self, exc: Exception | None) -> None:
        """The transport has closed the port (on the loop, from its protocol)."""
        if not self._closing:
            log.warning("port %s closed: %s", self.port, exc or "end of file")
        self._shut.set()
        self._lost.set()

    async def _keep_open(self) -> None:
        loop = asyncio.get_running_loop()
        complained = False
        while not self._closing:
            try:
                # Not cancelled while it opens: a port opened after a cancel would stay open.
                transport, _ = await serial_asyncio_fast.create_serial_connection(
                    loop, lambda: _Protocol(self), self.port, baudrate=self.baud
                )
            except (OSError, serial.SerialException) as err:
                if not complained:
                    log.warning("port %s cannot be opened: %s", self.port, err)
                    complained = True
                await self._pause(RECONNECT)
                continue
            self._transport = transport
            self._shut.clear()
            if self._closing:  # closed while it was opening
                self._close_transport()
                return
            complained = False
            log.info("port %s open", self.port)
            self._on_open(transport.write)
            await self._lost.wait()
            self._lost.clear()
            self._close_transport()
            if self._closing:
                return
            self._on_lost()
            await self._pause(RECONNECT)

    async def _pause(self, seconds: float) -> None:
        """Wait `seconds` before the next try, or until `close`."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._lost.wait(), seconds)
        if not self._closing:
            self._lost.clear()

    def _close_transport(self) -> None:
        if self._transport is not None:
            self._transport.close()
        self._transport = None
