"""Telling systemd how the daemon is doing: one datagram to $NOTIFY_SOCKET (sd_notify(3)).

READY=1 once the table runs, WATCHDOG=1 while the event loop is alive (a hung loop stops the
pings and systemd restarts the service), STOPPING=1 on the way out. Without systemd, as on a
laptop, there is no socket and nothing is sent.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket

from ..storage.statefile import reason_of

log = logging.getLogger(__name__)


def notify(message: str) -> bool:
    """Send `message`; False when not run by systemd or the socket refused it."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.sendto(message.encode(), address)
    except OSError as err:
        log.warning("cannot tell systemd %r: %s", message, reason_of(err))
        return False
    return True


def watchdog_interval() -> float | None:
    """Half the watchdog time systemd asks for, in seconds; None when it asks for none."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec.isdigit() or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 2_000_000


async def keep_watchdog_fed(interval: float) -> None:
    """Ping the watchdog every `interval` seconds, for as long as the event loop runs."""
    while True:
        notify("WATCHDOG=1")
        await asyncio.sleep(interval)
