"""The table in a browser: a live view for the room and, behind a password, a remote for
every setting and command, served on the daemon's own loop (docs/web.md).

Only `server` imports aiohttp, and only a table whose `[web]` section enables it loads it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..config import Config
    from ..shell.daemon import Daemon
    from .server import WebServer

log = logging.getLogger(__name__)


@contextlib.asynccontextmanager
async def served(config: Config, daemon: Daemon) -> AsyncIterator[WebServer | None]:
    """The table's web page while inside; nothing unless `[web]` enables it. A page that
    cannot be served (its port taken) is logged: the table plays on without it."""
    if config.web is None or not config.web.enabled:
        yield None
        return
    from .server import WebServer

    server = WebServer(config.web, daemon)
    try:
        await server.start()
    except OSError as err:
        log.error(
            "web page: cannot listen on %s: %s; the table plays on without it",
            config.web.listen,
            err.strerror or err,
        )
        yield None
        return
    try:
        yield server
    finally:
        await server.stop()
