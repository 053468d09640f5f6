"""MQTT: the table's state, events and settings out; settings and commands in; Home
Assistant discovery; the fleet command. Topics and payloads are documented in docs/mqtt.md.

Only `link` imports the MQTT client, and only a table with an `[mqtt]` section loads it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..config import Config
    from ..shell.daemon import Daemon
    from .link import TableLink

STOP_TIME = 15.0  # seconds for a clean stop, past a publish's own timeout


@contextlib.asynccontextmanager
async def linked(config: Config, daemon: Daemon) -> AsyncIterator[TableLink | None]:
    """The daemon on the config's broker while inside; nothing without an `[mqtt]` section.
    On the way out the link stops cleanly, saying offline."""
    if config.mqtt is None:
        yield None
        return
    from ..remote.control import DaemonControl
    from .link import TableLink

    link = TableLink(config.mqtt, config.table_id, DaemonControl(daemon))
    task = asyncio.create_task(link.run())
    try:
        yield link
    finally:
        link.stop()
        await asyncio.wait([task], timeout=STOP_TIME)
        while not task.done():  # a broker that does not answer at all
            task.cancel()
            await asyncio.wait([task], timeout=1.0)
