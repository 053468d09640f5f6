"""The table's connection to the broker: MQTT 5 over aiomqtt, reconnecting with backoff and
jitter, the will on `status`, and the outbox drained while connected. Game events and state
only ever go into the outbox, so the table never waits for the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import ssl
from typing import Any

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..config import ConfigError, MqttConfig
from ..game import Table
from ..publish import GameEvent
from . import discovery
from .control import TableControl
from .inbound import Refused, order, reply, settings_update
from .outbox import Outbox, Outgoing
from .topics import OFFLINE, ONLINE, Topics, encode, settings_payload, state_snapshot

log = logging.getLogger(__name__)


# How paho tells of a connection that the broker dropped or that stopped answering.
_SOCKET_LOST = ("failed to receive on socket", "timeout on socket")


class _LostSocket(logging.Filter):
    """paho logs a lost connection at ERROR; the link warns of the same loss itself, and
    says when it tries again. paho's line, which holds the socket's own error, is kept at
    INFO: a broker that goes away is no error of the table's."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.ERROR and str(record.msg).startswith(_SOCKET_LOST):
            record.levelno, record.levelname = logging.INFO, "INFO"
            return _client_log.isEnabledFor(logging.INFO)
        return True


_client_log = logging.getLogger(f"{__name__}.client")  # paho's and aiomqtt's own lines
_client_log.addFilter(_LostSocket())

FIRST_BACKOFF = 1.0  # seconds before the first retry; doubles up to MAX_BACKOFF
MAX_BACKOFF = 60.0
SEND_TIMEOUT = 10.0  # a publish not acknowledged by then counts as a lost connection
# Publishes awaiting the broker's acknowledgement at once: below what brokers accept from a
# client (MQTT 5's Receive Maximum: Mosquitto says 20) and paho's own limit (20).
IN_FLIGHT = 10
DRAIN_TIME = 1.0  # seconds a clean stop gives the last events to leave
MAX_CORRELATION = 64  # bytes of correlation data echoed in a reply


def client(config: MqttConfig, identifier: str, **options: Any) -> aiomqtt.Client:
    """An MQTT 5 client for the config's broker; TLS checked against `tls_ca` if given
    (checks are never turned off)."""
    tls = None if config.tls_ca is None else ssl.create_default_context(cafile=str(config.tls_ca))
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


class TableLink:
    """One table on one broker. `run` until cancelled; on the way out it says offline."""

    def __init__(
        self,
        config: MqttConfig,
        table_id: str,
        control: TableControl,
        *,
        rng: random.Random | None = None,
        outbox: Outbox | None = None,
    ) -> None:
        self.config = config
        self.topics = Topics(table_id)
        self.control = control
        self.outbox = outbox or Outbox()
        self._rng = rng or random.Random()
        self._table: Table = control.table
        self._state: dict[str, object] | None = None
        self.connected = False
        self._stopping = asyncio.Event()
        control.watch(self._on_event, self._on_step)
        self._on_step(control.table)

    # -- from the daemon (loop thread; never waits) ------------------------------------

    def _on_event(self, event: GameEvent) -> None:
        payload = {"seq": event.seq, "type": event.type, **event.data}
        self.outbox.event(Outgoing(self.topics.event, payload))

    def _on_step(self, table: Table) -> None:
        previous, self._table = self._table, table
        if self._state is None or table.settings is not previous.settings:
            self._publish_settings()
        self._publish_state()

    def _publish_state(self, *, always: bool = False) -> None:
        state = state_snapshot(self._table, dropped_events=self.outbox.dropped)
        if always or state != self._state:
            self._state = state
            self.outbox.retained(Outgoing(self.topics.state, state, retain=True))

    def _publish_settings(self, correlation: bytes | None = None) -> None:
        payload = settings_payload(self._table.settings)
        self.outbox.retained(Outgoing(self.topics.settings, payload, True, correlation))

    def stop(self) -> None:
        """Ask `run` to finish: the events still waiting get DRAIN_TIME to leave, then
        `status` says offline and the connection closes."""
        self._stopping.set()

    # -- the connection ----------------------------------------------------------------

    def _client(self) -> aiomqtt.Client:
        return client(
            self.config,
            f"flashtable-{self.topics.table_id}",
            will=aiomqtt.Will(self.topics.status, OFFLINE, qos=1, retain=True),
            keepalive=self.config.keepalive,
            logger=_client_log,
        )

    async def run(self) -> None:
        """Connect, and connect again whenever the connection is lost, until `stop`."""
        backoff = FIRST_BACKOFF
        where = f"{self.config.host}:{self.config.port}"
        while not self._stopping.is_set():
            self._show("connecting")
            try:
                client = self._client()
                async with client:
                    log.info("MQTT: connected to %s as table %s", where, self.topics.table_id)
                    backoff = FIRST_BACKOFF
                    await self._session(client)
            except (aiomqtt.MqttError, ConfigError, OSError, ssl.SSLError) as err:
                self.connected = False
                wait = backoff * self._rng.uniform(0.5, 1.0)  # jitter: tables spread out
                log.warning("MQTT: %s: %s; trying again in %.1f s", where, err, wait)
                self._show("no broker")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), wait)
                backoff = min(backoff * 2, MAX_BACKOFF)
        self._show("stopped")

    async def _session(self, client: aiomqtt.Client) -> None:
        inbound = [(self.topics.settings_set, 1), (self.topics.command, 1)]
        if self.config.discovery:
            inbound.append((f"{self.config.discovery_prefix}/status", 1))
        await client.subscribe(inbound)
        await client.publish(self.topics.status, ONLINE, qos=1, retain=True)
        self.connected = True
        self._show("connected")
        self._announce()
        self._publish_settings()
        self._publish_state(always=True)  # with the drop count of the time away
        sending = asyncio.create_task(self._send(client))
        receiving = asyncio.create_task(self._receive(client))
        stopping = asyncio.create_task(self._stopping.wait())
        try:
            await asyncio.wait([sending, receiving, stopping], return_when=asyncio.FIRST_COMPLETED)
            if stopping.done():
                receiving.cancel()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.outbox.emptied(), DRAIN_TIME)
                # A clean stop says so itself: the broker sends the will only for a loss.
                if not sending.done():
                    await client.publish(self.topics.status, OFFLINE, qos=1, retain=True)
        finally:
            self.connected = False
            for task in (sending, receiving, stopping):
                task.cancel()
            await asyncio.gather(sending, receiving, stopping, return_exceptions=True)
            self.outbox.returned()  # unacknowledged: sent again on the next connection
        for task in (sending, receiving):
            if task.done() and not task.cancelled():
                task.result()  # raises the connection's error, for `run` to retry on

    async def _send(self, client: aiomqtt.Client) -> None:
        """Publish what the outbox holds with up to IN_FLIGHT awaiting their
        acknowledgement, so that a burst (a timeout brings four events and a state) pays
        one round trip to the broker, not one per message."""
        await asyncio.gather(*(self._send_one_by_one(client) for _ in range(IN_FLIGHT)))

    async def _send_one_by_one(self, client: aiomqtt.Client) -> None:
        while True:
            message = await self.outbox.next()
            properties = None
            if message.correlation is not None:
                properties = Properties(PacketTypes.PUBLISH)
                properties.CorrelationData = message.correlation
            # From taking a message to handing it to the client nothing waits, so the
            # broker receives them in the outbox's order, whichever sender took each.
            await client.publish(
                message.topic,
                encode(message.payload),
                qos=1,
                retain=message.retain,
                properties=properties,
            )
            self.outbox.sent(message)

    async def _receive(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            payload = message.payload
            data = payload if isinstance(payload, bytes) else str(payload).encode()
            correlation = getattr(message.properties, "CorrelationData", None)
            if correlation is not None and len(correlation) > MAX_CORRELATION:
                correlation = None
            try:
                await self._handle(
                    str(message.topic), data, retained=message.retain, cid=correlation
                )
            except Refused as refused:
                log.warning("MQTT: refused a message on %s: %s", message.topic, refused)
                body = reply(str(message.topic), str(refused))
                await self.outbox.reply(Outgoing(self.topics.error, body, correlation=correlation))

    async def _handle(
        self, topic: str, payload: bytes, *, retained: bool, cid: bytes | None
    ) -> None:
        if topic == f"{self.config.discovery_prefix}/status":
            if payload == ONLINE.encode():
                self._announce()  # Home Assistant restarted: it forgot the device
            return
        if retained:
            # Kept by the broker from some earlier time: carrying it out on every
            # reconnect would deal cards again and again.
            raise Refused("a retained message is not carried out; publish without retain")
        if topic == self.topics.settings_set:
            settings = settings_update(payload, self._table.settings)
            await self.control.use_settings(settings)
            self._publish_settings(cid)  # the answer, even when nothing changed
        elif topic == self.topics.command:
            await self.control.carry_out(order(payload))

    def _announce(self) -> None:
        if self.config.discovery:
            where = discovery.topic(self.config.discovery_prefix, self.topics.table_id)
            self.outbox.retained(Outgoing(where, discovery.config(self.topics), retain=True))

    def _show(self, status: str) -> None:
        self.control.show_link(status)
