"""A serial port kept open: opened again whenever it goes away (a board reset, a cable pulled).

While the port is gone it is tried again every RECONNECT seconds; the first failure is
logged, the retries are not, so an unplugged board does not fill the journal.
"""

from __future__ import annotations

import asyncio
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
        log.warning("port %s closed: %s", self._line.port, exc or "end of file")
        self._line.lost.set()


class SerialLine:
    """`port` at `baud`, kept open. `on_open(write)` when it opens, `on_data(bytes)` as bytes
    come, `on_lost()` when it has closed. Create it inside the running loop; `close` it."""

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
        self.lost = asyncio.Event()
        self._transport: asyncio.Transport | None = None
        self._task = asyncio.get_running_loop().create_task(self._keep_open())

    def close(self) -> None:
        """Let go of the port (its task ends on the loop's next turn)."""
        self._task.cancel()
        self._close_transport()

    async def _keep_open(self) -> None:
        loop = asyncio.get_running_loop()
        complained = False
        while True:
            try:
                transport, _ = await serial_asyncio_fast.create_serial_connection(
                    loop, lambda: _Protocol(self), self.port, baudrate=self.baud
                )
            except (OSError, serial.SerialException) as err:
                if not complained:
                    log.warning("port %s cannot be opened: %s", self.port, err)
                    complained = True
                await asyncio.sleep(RECONNECT)
                continue
            complained = False
            log.info("port %s open", self.port)
            self._transport = transport
            self._on_open(transport.write)
            await self.lost.wait()
            self.lost.clear()
            self._close_transport()
            self._on_lost()
            await asyncio.sleep(RECONNECT)

    def _close_transport(self) -> None:
        if self._transport is not None:
            self._transport.close()
        self._transport = None
