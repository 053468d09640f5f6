"""The table's connection to the broker: MQTT 5 over aiomqtt, reconnecting with backoff and
jitter whatever went wrong, the will on `status`, and the outbox drained while connected.
Game events and state only ever go into the outbox, so the table never waits for the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import os
import random
import socket
import ssl
from collections.abc import Iterator
from typing import Any

import aiomqtt
import paho.mqtt.client as paho
from aiomqtt.exceptions import MqttConnectError
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from ..config import MqttConfig
from ..errors import ConfigError, MessageRefused
from ..game import Table
from ..shell.publish import GameEvent
from . import discovery
from .control import TableControl
from .inbound import (
    MAX_CORRELATION,
    MAX_PACKET,
    RefusalLog,
    correlation,
    order,
    reply,
    settings_update,
)
from .outbox import Outbox, Outgoing
from .topics import (
    OFFLINE,
    ONLINE,
    Topics,
    encode,
    event_payload,
    settings_payload,
    standings_payload,
    state_snapshot,
)

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

FIRST_BACKOFF = 0.25  # seconds before the first retry; doubles up to MAX_BACKOFF
# A broker that is back is reconnected within 2 s wherever the table was in its backoff: the
# longest wait, plus a connection's round trips. Trying more often than needed costs a
# refused TCP connection each time, and nothing in the log (a reason is logged once).
MAX_BACKOFF = 1.5
SEND_TIMEOUT = 10.0  # a publish not acknowledged by then counts as a lost connection
# Publishes awaiting the broker's acknowledgement at once: below what brokers accept from a
# client (MQTT 5's Receive Maximum: Mosquitto says 20) and paho's own limit (20).
IN_FLIGHT = 10
DRAIN_TIME = 1.0  # seconds a clean stop gives the last events to leave

# What the Info screen says of the link (16 columns at most).
CONNECTING, CONNECTED, STOPPED = "connecting", "connected", "stopped"
LOST = "connection lost"
UNEXPECTED = "error: see log"  # a cause the link has no words for; the log has it whole
# A broker's refusal (CONNACK) by MQTT 5 reason code, and by MQTT 3's return code.
REFUSED = {
    0x84: "refused: version",
    0x85: "refused: id",
    0x86: "refused: auth",
    0x87: "refused: auth",
    0x88: "refused: busy",
    0x89: "refused: busy",
    0x8A: "refused: banned",
    0x8C: "refused: auth",
    0x95: "refused: size",
    0x97: "refused: busy",
    0x9F: "refused: busy",
}
REFUSED_V3 = {
    1: "refused: version",
    2: "refused: id",
    3: "refused: busy",
    4: "refused: auth",
    5: "refused: auth",
}
# Why a broker closed a connection it had accepted (its DISCONNECT), where it says more.
CLOSED = {0x8B: "broker stopped", 0x8E: "id in use", 0x87: "refused: auth"}
UNREACHABLE = (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN)
KNOWN = (aiomqtt.MqttError, ConfigError, OSError)  # what a network, a broker or a config does


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


def _causes(err: BaseException) -> Iterator[BaseException]:
    # aiomqtt hides the socket's own error behind its MqttError ("from None" keeps it as
    # the context), and a lost connection's reason code behind "Disconnected during ...".
    seen: list[BaseException] = []
    cause: BaseException | None = err
    while cause is not None and cause not in seen and len(seen) < 8:
        seen.append(cause)
        yield cause
        cause = cause.__cause__ or cause.__context__


def _code(rc: object) -> int | None:
    return rc.value if isinstance(rc, ReasonCode) else rc if isinstance(rc, int) else None


def why_down(err: BaseException, *, stage: str) -> str:
    """Why the link is down, in a few words that fit the Info screen. `stage` is where it
    failed: "building" the client (the config's files), "connecting" or "connected"."""
    if stage == "building":
        if isinstance(err, ssl.SSLError) or "tls_ca" in str(err):
            return "bad TLS"
        return "bad config" if isinstance(err, (*KNOWN, ValueError)) else UNEXPECTED
    for cause in _causes(err):
        if isinstance(cause, MqttConnectError):
            words = REFUSED if isinstance(cause.rc, ReasonCode) else REFUSED_V3
            return words.get(_code(cause.rc) or 0, "refused")
        if isinstance(cause, aiomqtt.MqttCodeError) and _code(cause.rc) in CLOSED:
            return CLOSED[_code(cause.rc) or 0]
        if isinstance(cause, ConfigError):
            return "bad config"
        if isinstance(cause, ssl.SSLError) and stage == "connecting":
            return "bad TLS"  # once connected, TLS's own errors are a lost connection's
        if isinstance(cause, socket.gaierror):
            return "unknown host"
        if isinstance(cause, ConnectionRefusedError):
            return "no broker"
        if isinstance(cause, TimeoutError):
            return "no answer"
        if isinstance(cause, OSError) and cause.errno in UNREACHABLE:
            return "no network"
    if not isinstance(err, KNOWN):
        return UNEXPECTED
    return LOST if stage == "connected" else "no broker"


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
        self.outbox = outbox if outbox is not None else Outbox()  # an empty one is falsy
        self._rng = rng or random.Random()
        self._table: Table = control.table
        self._state: dict[str, object] | None = None
        self.connected = False
        self.status = ""  # what the Info screen says of the link
        self.last_outage: str | None = None  # why the link was last down, in those words
        self.refusals = RefusalLog()
        self._summary: asyncio.TimerHandle | None = None  # the refusals' next log line
        self._oversize_told = False
        self._stopping = asyncio.Event()
        # While a `settings/set` is carried out: its answer publishes the settings, once.
        self._answering_settings = False
        control.watch(self._on_event, self._on_step)
        self._on_step(control.table)

    # -- from the daemon (loop thread; never waits) ------------------------------------

    def _on_event(self, event: GameEvent) -> None:
        self.outbox.event(Outgoing(self.topics.event, event_payload(event)))

    def _on_step(self, table: Table) -> None:
        previous, self._table = self._table, table
        if self._state is None or (
            table.settings is not previous.settings and not self._answering_settings
        ):
            self._publish_settings()
        kept = (table.standings, table.score, table.names)
        if self._state is None or kept != (previous.standings, previous.score, previous.names):
            self._publish_standings()
        self._publish_state()

    def _publish_state(self, *, always: bool = False) -> None:
        state = state_snapshot(
            self._table,
            dropped_events=self.outbox.dropped,
            refused_messages=self.refusals.count,
            last_outage=self.last_outage,
        )
        if always or state != self._state:
            self._state = state
            self.outbox.retained(Outgoing(self.topics.state, state, retain=True))

    def _publish_standings(self) -> None:
        payload = standings_payload(self._table)
        self.outbox.retained(Outgoing(self.topics.standings, payload, retain=True))

    def _publish_settings(self, correlation: bytes | None = None) -> None:
        payload = settings_payload(self._table.settings)
        self.outbox.retained(Outgoing(self.topics.settings, payload, True, correlation))

    def stop(self) -> None:
        """Ask `run` to finish: the events still waiting get DRAIN_TIME to leave, then
        `status` says offline and the connection closes."""
        self._stopping.set()

    # -- the connection ----------------------------------------------------------------

    def _client(self) -> aiomqtt.Client:
        # The broker sends nothing larger (MQTT 5 Maximum Packet Size): the client reads a
        # packet whole before anyone sees its size, on the table's one event loop.
        connect = Properties(PacketTypes.CONNECT)
        connect.MaximumPacketSize = MAX_PACKET
        return client(
            self.config,
            f"flashtable-{self.topics.table_id}",
            will=aiomqtt.Will(self.topics.status, OFFLINE, qos=1, retain=True),
            keepalive=self.config.keepalive,
            logger=_client_log,
            properties=connect,
        )

    async def run(self) -> None:
        """Connect, and connect again whenever the connection is lost or an attempt fails,
        whatever the cause, until `stop`. Each cause is logged once, until it changes or
        the link connects, so a broker that stays away does not fill the journal."""
        backoff = FIRST_BACKOFF
        where = f"{self.config.host}:{self.config.port}"
        told: str | None = None  # the failure last logged
        self._show(CONNECTING)
        try:
            while not self._stopping.is_set():
                stage = "building"
                try:
                    client = self._client()
                    stage = "connecting"
                    async with client:
                        stage = "connected"
                        log.info("MQTT: connected to %s as table %s", where, self.topics.table_id)
                        backoff, told = FIRST_BACKOFF, None
                        await self._session(client)
                except Exception as err:  # any cause: the link must never die for good
                    self.connected = False
                    if stage == "connecting":
                        _abandon(client)
                    status = why_down(err, stage=stage)
                    self.last_outage = status
                    self._show(status)
                    wait = backoff * self._rng.uniform(0.5, 1.0)  # jitter: tables spread out
                    cause = _told(err)
                    if cause != told:
                        told = cause
                        say = log.error if status == UNEXPECTED else log.warning
                        say(
                            "MQTT: %s: %s (%s); trying again in %.1f s and on till connected%s",
                            where,
                            cause,
                            status,
                            wait,
                            sandbox_hint(self.config.host, status),
                            exc_info=err if status == UNEXPECTED else None,
                        )
                    else:
                        log.debug("MQTT: %s: %s again; trying again in %.1f s", where, cause, wait)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._stopping.wait(), wait)
                    backoff = min(backoff * 2, MAX_BACKOFF)
        finally:
            if self._summary is not None:
                self._summary.cancel()
                self._summary = None
            self.refusals.summarise(asyncio.get_running_loop().time())  # what was held back
            self._show(STOPPED)

    async def _session(self, client: aiomqtt.Client) -> None:
        inbound = [(self.topics.settings_set, 1), (self.topics.command, 1)]
        if self.config.discovery:
            inbound.append((f"{self.config.discovery_prefix}/status", 1))
        await client.subscribe(inbound)
        await client.publish(self.topics.status, ONLINE, qos=1, retain=True)
        self.connected = True
        self._show(CONNECTED)
        self._announce()
        self._publish_settings()
        self._publish_standings()
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
            topic, payload = str(message.topic), message.payload
            data = payload if isinstance(payload, bytes) else str(payload).encode()
            if len(data) > MAX_PACKET and not self._oversize_told:
                self._oversize_told = True
                log.warning(
                    "MQTT: the broker sent %d bytes on %s, over the maximum packet size of %d "
                    "the table asked for: limit the broker's message size (docs/mqtt.md)",
                    len(data),
                    topic,
                    MAX_PACKET,
                )
            cid = getattr(message.properties, "CorrelationData", None)
            try:
                await self._handle(topic, data, retained=message.retain, cid=cid)
            except MessageRefused as refused:
                # Correlation data refused for its size is not echoed either.
                echo = cid if cid is not None and len(cid) <= MAX_CORRELATION else None
                await self._refuse(topic, str(refused), echo)

    async def _refuse(self, topic: str, reason: str, cid: bytes | None) -> None:
        loop = asyncio.get_running_loop()
        self.refusals.refused(topic, reason, loop.time())
        self._tell_refusals_later()
        self._publish_state()  # with the count
        await self._answer_on_error(topic, reason, cid)

    async def _answer_on_error(self, topic: str, reason: str, cid: bytes | None) -> None:
        await self.outbox.reply(Outgoing(self.topics.error, reply(topic, reason), correlation=cid))

    def _tell_refusals_later(self) -> None:
        due = self.refusals.due
        if due is not None and self._summary is None:
            self._summary = asyncio.get_running_loop().call_at(due, self._tell_refusals)

    def _tell_refusals(self) -> None:
        self._summary = None
        self.refusals.summarise(asyncio.get_running_loop().time())
        self._tell_refusals_later()

    async def _handle(
        self, topic: str, payload: bytes, *, retained: bool, cid: bytes | None
    ) -> None:
        if topic == f"{self.config.discovery_prefix}/status":
            if payload == ONLINE.encode():
                self._announce()  # Home Assistant restarted: it forgot the device
            return
        # A reply the sender cannot match to its request is no answer: refuse it whole.
        cid = correlation(cid)
        if retained:
            # Kept by the broker from some earlier time: carrying it out on every
            # reconnect would deal cards again and again.
            raise MessageRefused("a retained message is not carried out; publish without retain")
        if topic == self.topics.settings_set:
            change = settings_update(payload)
            self._answering_settings = True
            try:
                await self.control.change_settings(change)
            finally:
                self._answering_settings = False
            self._publish_settings(cid)  # the answer, even when nothing changed
        elif topic == self.topics.command:
            done = await self.control.carry_out(order(payload))
            if not done.whole and done.said is not None:  # less than asked: the asker hears
                await self._answer_on_error(topic, done.said, cid)

    def _announce(self) -> None:
        if self.config.discovery:
            where = discovery.topic(self.config.discovery_prefix, self.topics.table_id)
            self.outbox.retained(Outgoing(where, discovery.config(self.topics), retain=True))

    def _show(self, status: str) -> None:
        if status != self.status:
            self.status = status
            self.control.show_link(status)


def _abandon(attempt: aiomqtt.Client) -> None:
    """Close the socket of an attempt that failed once it was open (no answer to CONNECT in
    time, an error aiomqtt does not expect): aiomqtt leaves it open and watched by the loop
    for good, and every retry would keep one more."""
    client = getattr(attempt, "_client", None)  # aiomqtt's paho client; no public way to it
    sock = client.socket() if isinstance(client, paho.Client) else None
    if client is None or sock is None:
        return
    try:
        fd = sock.fileno()
        if fd >= 0:
            asyncio.get_running_loop().remove_writer(fd)
        on_close = client.on_socket_close  # aiomqtt's: it stops watching it, and its timer
        if on_close is not None:
            on_close(client, client.user_data_get(), sock)
        sock.close()
    except Exception as err:  # tidying up must not be what ends the link
        log.debug("MQTT: closing a failed attempt's socket: %s", err)


SANDBOX_HINT = (
    ". The service's sandbox lets the table reach only this machine unless a drop-in "
    "allows the broker's address (IPAddressAllow=, docs/deploy.md); without one, every "
    "attempt to reach a broker elsewhere ends so"
)


def sandbox_hint(host: str, status: str) -> str:
    """What to add to the log line of a broker on another machine that never answers, when
    the table runs as systemd's service (which sets INVOCATION_ID): its sandbox drops the
    packets to any address a drop-in has not allowed, and all the link sees is silence."""
    if status not in ("no answer", "no network") or "INVOCATION_ID" not in os.environ:
        return ""
    if host == "localhost":
        return ""
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(host).is_loopback:
            return ""
    return SANDBOX_HINT


def _told(err: BaseException) -> str:
    """The cause as the log says it: an error the link knows by its text, any other by its
    type as well, since its text alone may say little ("required argument is not ...")."""
    text = str(err)
    if isinstance(err, KNOWN) and text:
        cause = err.__cause__  # "Disconnected during message iteration": what disconnected
        return f"{text}: {cause}" if cause is not None and str(cause) else text
    kind = type(err)
    name = kind.__qualname__
    if kind.__module__ != "builtins":
        name = f"{kind.__module__}.{name}"
    return f"{name}: {text}" if text else name
