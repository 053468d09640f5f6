"""The table's connection to the broker: MQTT 5 over aiomqtt, reconnecting with backoff and
jitter whatever went wrong, the will on `status`, and the outbox drained while connected.
Game events and state only ever go into the outbox, so the table never waits for the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..config import MqttConfig
from ..errors import MessageRefused
from ..game import Table
from ..remote.control import TableControl
from ..remote.inbound import order, settings_update
from ..remote.payloads import event_payload, settings_payload, standings_payload, state_snapshot
from ..shell.publish import GameEvent
from . import discovery
from .broker_client import abandon, client, client_log
from .outbox import Outbox, Outgoing
from .refusals import MAX_CORRELATION, MAX_PACKET, RefusalLog, correlation, reply
from .topics import OFFLINE, ONLINE, Topics, encode
from .why_down import CONNECTED, CONNECTING, STOPPED, UNEXPECTED, sandbox_hint, told_as, why_down

log = logging.getLogger(__name__)


FIRST_BACKOFF = 0.25  # seconds before the first retry; doubles up to MAX_BACKOFF
# A broker that is back is reconnected within 2 s wherever the table was in its backoff: the
# longest wait, plus a connection's round trips. Trying more often than needed costs a
# refused TCP connection each time, and nothing in the log (a reason is logged once).
MAX_BACKOFF = 1.5
# Publishes awaiting the broker's acknowledgement at once: below what brokers accept from a
# client (MQTT 5's Receive Maximum: Mosquitto says 20) and paho's own limit (20).
IN_FLIGHT = 10
DRAIN_TIME = 1.0  # seconds a clean stop gives the last events to leave


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
            logger=client_log,
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
                        await abandon(client)
                    status = why_down(err, stage=stage)
                    self.last_outage = status
                    self._show(status)
                    wait = backoff * self._rng.uniform(0.5, 1.0)  # jitter: tables spread out
                    cause = told_as(err)
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
