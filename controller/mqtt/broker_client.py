"""The MQTT client a table (and the fleet command) talks to its broker with: MQTT 5 over
aiomqtt, TLS checked against the config's own CA certificates, and the client's own log
lines, a lost connection among them at INFO (the link says it itself); and the way out of an
attempt that failed once its socket was open, through aiomqtt's own exit.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiomqtt

from ..config import MqttConfig

log = logging.getLogger(__name__)

SEND_TIMEOUT = 10.0  # a publish not acknowledged by then counts as a lost connection
ABANDON_TIME = 1.0  # seconds a failed attempt is given to close its socket


# How paho tells of a connection that the broker dropped or that stopped answering.
_SOCKET_LOST = ("failed to receive on socket", "timeout on socket")


class _LostSocket(logging.Filter):
    """paho logs a lost connection at ERROR; the link warns of the same loss itself, and
    says when it tries again. paho's line, which holds the socket's own error, is kept at
    INFO: a broker that goes away is no error of the table's."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.ERROR and str(record.msg).startswith(_SOCKET_LOST):
            record.levelno, record.levelname = logging.INFO, "INFO"
            return client_log.isEnabledFor(logging.INFO)
        return True


client_log = logging.getLogger(f"{__name__}.client")  # paho's and aiomqtt's own lines
client_log.addFilter(_LostSocket())


def client(config: MqttConfig, identifier: str, **options: Any) -> aiomqtt.Client:
    """An MQTT 5 client for the config's broker; TLS checked against `tls_ca` if given
    (checks are never turned off)."""
    tls = config.tls_context()
    return aiomqtt.Client(
        config.host,
        config.port,
        username=config.username,
        password=config.password(),
        identifier=identifier,
        protocol=aiomqtt.ProtocolVersion.V5,
        tls_context=tls,
        timeout=SEND_TIMEOUT,
        **options,
    )


async def abandon(attempt: aiomqtt.Client) -> None:
    """Close the socket of an attempt that failed once it was open (no answer to CONNECT in
    time, an error aiomqtt does not expect): aiomqtt leaves it open and watched by the loop,
    and every retry would keep one more. Its context's exit says DISCONNECT, and the client
    closes the socket and stops watching it; an exit that fails or takes too long is let go,
    as tidying up must not be what ends the link."""
    try:
        async with asyncio.timeout(ABANDON_TIME):
            await attempt.__aexit__(None, None, None)
    except Exception as err:
        log.debug("MQTT: closing a failed attempt: %s", err)
