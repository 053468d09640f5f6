"""The link never dies: whatever makes a connection attempt fail, it is logged once, the Info
screen says why in a few words, and the link tries again until it connects; a broker that is
back is reconnected within 2 s."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import socket
import ssl
import struct

import aiomqtt
import pytest
from aiomqtt.exceptions import MqttConnectError
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from controller.config import Config
from controller.errors import ConfigError
from controller.game.text import COLUMNS
from controller.mqtt import link as link_module
from controller.mqtt import why_down as why_down_module
from controller.mqtt.link import MAX_BACKOFF, TableLink
from controller.mqtt.why_down import CLOSED, REFUSED, REFUSED_V3, why_down
from controller.remote.control import DaemonControl
from controller.simulation.table import SimTable

from .broker import Broker
from .conftest import next_on, operator, table_mqtt, until

LINK_LOG = "controller.mqtt.link"


def raised_by_aiomqtt(inner: BaseException, outer: BaseException) -> BaseException:
    """`outer` as aiomqtt raises it over `inner`: "from None", the context kept."""
    try:
        try:
            raise inner
        except BaseException:
            raise outer from None
    except BaseException as err:
        return err


def told(caplog: pytest.LogCaptureFixture, text: str) -> list[logging.LogRecord]:
    """The lines the link logged at WARNING or above that mention `text`."""
    return [
        record
        for record in caplog.records
        if record.name == LINK_LOG
        and record.levelno >= logging.WARNING
        and text in record.getMessage()
    ]


@pytest.mark.parametrize(
    ("error", "stage", "words"),
    [
        (
            MqttConnectError(ReasonCode(PacketTypes.CONNACK, identifier=0x86)),
            "connecting",
            "refused: auth",
        ),
        (
            MqttConnectError(ReasonCode(PacketTypes.CONNACK, identifier=0x87)),
            "connecting",
            "refused: auth",
        ),
        (
            MqttConnectError(ReasonCode(PacketTypes.CONNACK, identifier=0x89)),
            "connecting",
            "refused: busy",
        ),
        (MqttConnectError(5), "connecting", "refused: auth"),
        (
            raised_by_aiomqtt(
                ConnectionRefusedError(111, "Connection refused"),
                aiomqtt.MqttError("[Errno 111] Connection refused"),
            ),
            "connecting",
            "no broker",
        ),
        (
            raised_by_aiomqtt(
                ssl.SSLCertVerificationError("certificate verify failed"),
                aiomqtt.MqttError("certificate verify failed"),
            ),
            "connecting",
            "bad TLS",
        ),
        (
            raised_by_aiomqtt(
                socket.gaierror(-2, "Name or service not known"),
                aiomqtt.MqttError("[Errno -2] Name or service not known"),
            ),
            "connecting",
            "unknown host",
        ),
        (
            raised_by_aiomqtt(TimeoutError(), aiomqtt.MqttError("Operation timed out")),
            "connecting",
            "no answer",
        ),
        (ConfigError("mqtt.password_file: cannot read"), "building", "bad config"),
        (ssl.SSLError("no certificate"), "building", "bad TLS"),
        (
            aiomqtt.MqttError("Disconnected during message iteration"),
            "connected",
            "connection lost",
        ),
        (ConnectionResetError(104, "reset"), "connected", "connection lost"),
        (
            raised_by_aiomqtt(
                aiomqtt.MqttCodeError(
                    ReasonCode(PacketTypes.DISCONNECT, identifier=0x8E), "Unexpected disconnection"
                ),
                aiomqtt.MqttError("Disconnected during message iteration"),
            ),
            "connected",
            "id in use",
        ),
        (struct.error("'H' format requires 0 <= number <= 65535"), "connecting", "error: see log"),
        (KeyError("surprise"), "connected", "error: see log"),
    ],
)
def test_the_info_screen_says_why_the_link_is_down_in_a_few_words(error, stage, words):
    assert why_down(error, stage=stage) == words


def test_every_reason_fits_the_info_screen():
    shown = {*REFUSED.values(), *REFUSED_V3.values(), *CLOSED.values()}
    shown |= {
        why_down_module.LOST,
        why_down_module.UNEXPECTED,
        "refused",
        "no broker",
        "no network",
    }
    assert all(len(words) <= COLUMNS for words in shown), sorted(shown, key=len)[-1]


class Gremlin:
    """Makes a connection attempt fail in a way nobody expected, until told to stop: a CONNECT
    property paho cannot pack fails it with `struct.error` after the socket is open, as an
    over-long password once did."""

    def __init__(self) -> None:
        self.present = True
        self.attempts = 0
        self.open_files: list[int] = []  # this process's, as each attempt begins
        self._client = link_module.client

    def client(self, config, identifier, **options) -> aiomqtt.Client:
        self.attempts += 1
        self.open_files.append(len(os.listdir("/proc/self/fd")))
        if self.present:
            options["properties"].UserProperty = ("gremlin", "x" * 70_000)
        return self._client(config, identifier, **options)


async def test_an_unexpected_error_in_a_connection_attempt_is_told_once_and_outlived(
    broker, tmp_path, monkeypatch, caplog
):
    caplog.set_level(logging.DEBUG, logger=LINK_LOG)
    gremlin = Gremlin()
    monkeypatch.setattr(link_module, "client", gremlin.client)
    config = Config(table_id="table18", seats=2, mqtt=table_mqtt(broker, tmp_path, "table18"))
    async with SimTable(config) as table:
        link = table.link
        assert link is not None
        await until(lambda: gremlin.attempts >= 7, "tried again")
        assert not link.connected
        assert table.daemon.mqtt_status == "error: see log"
        for seat in (1, 2):
            await table.tap(f"seat{seat}")  # the table plays on meanwhile
        assert table.events_of("seat_claimed")
        # Each failed attempt leaves nothing open behind it.
        assert gremlin.open_files[6] - gremlin.open_files[2] <= 1, gremlin.open_files

        gremlin.present = False
        await until(lambda: link.connected, "connected once the cause was gone")
        # The link hands its status to the daemon through its inbox, a moment after.
        await until(lambda: table.daemon.mqtt_status == "connected", "showed it connected")
    [line] = told(caplog, "struct.error")  # once, not once per attempt
    assert line.levelno == logging.ERROR and line.exc_info is not None
    assert "error: see log" in line.getMessage()


async def test_a_refused_login_is_told_once_and_the_info_screen_says_so(broker, tmp_path, caplog):
    caplog.set_level(logging.DEBUG, logger=LINK_LOG)
    mqtt = table_mqtt(broker, tmp_path, "table19")
    assert mqtt.password_file is not None
    mqtt.password_file.write_text("not the password\n")
    async with SimTable(Config(table_id="table19", mqtt=mqtt)) as table:
        link = table.link
        assert link is not None
        await until(
            lambda: sum("trying again" in r.getMessage() for r in caplog.records) >= 4,
            "tried again",
        )
        assert table.daemon.mqtt_status == "refused: auth"
    [line] = told(caplog, "127.0.0.1")
    assert "refused: auth" in line.getMessage() and line.levelno == logging.WARNING


class WorstJitter(random.Random):
    """Jitter that always waits the longest it may."""

    def uniform(self, a: float, b: float) -> float:
        return b


async def test_a_broker_that_is_back_is_reconnected_within_2_s(tmp_path, caplog, monkeypatch):
    """The link waits at most MAX_BACKOFF (1.5 s) between attempts, however long the broker
    was away, and its first attempt after the broker is back connects: a broker back is
    reconnected within that wait and one connection's time. Shown by the waits it chose and
    the attempts it made, not by the clock of a machine that may be busy."""
    caplog.set_level(logging.DEBUG, logger=LINK_LOG)
    loop = asyncio.get_running_loop()
    broker = Broker(tmp_path, ["table22"])
    broker.start()
    try:
        async with SimTable(Config(table_id="table22", seats=2)) as table:
            mqtt = table_mqtt(broker, tmp_path, "table22")
            link = TableLink(mqtt, "table22", DaemonControl(table.daemon), rng=WorstJitter())
            attempts: list[float] = []  # the loop's time as each attempt to connect began
            build = link._client

            def attempt() -> aiomqtt.Client:
                attempts.append(loop.time())
                return build()

            monkeypatch.setattr(link, "_client", attempt)
            running = asyncio.create_task(link.run())
            try:
                await until(lambda: link.connected, "connected")
                broker.stop()
                # Away long enough for the waits between attempts to have grown to their
                # longest: the fourth failure and on.
                await until(
                    lambda: sum("trying again" in r.getMessage() for r in caplog.records) >= 4,
                    "tried four times",
                )
                broker.start()
                back = loop.time()
                await until(lambda: link.connected, "reconnected")
                async with operator(broker) as client:  # and the broker may read why
                    await client.subscribe("flashtable/table22/state")
                    state = await next_on(client, "flashtable/table22/state")
            finally:
                link.stop()
                await running
    finally:
        broker.stop()
    waits = [
        float(re.search(r"trying again in ([\d.]+) s", r.getMessage())[1])
        for r in caplog.records
        if "trying again" in r.getMessage()
    ]
    assert max(waits) == MAX_BACKOFF < 2.0, waits  # the worst jitter: the longest wait
    # The attempt that began after the broker was back connected (one under way as it came
    # back may have connected as well: then none began after).
    assert len([t for t in attempts if t >= back]) <= 1, (attempts, back)
    assert state["last_outage"] == "no broker"


@pytest.mark.parametrize(
    ("host", "status", "service", "hinted"),
    [
        ("192.168.1.20", "no answer", True, True),
        ("broker.lan", "no network", True, True),
        ("192.168.1.20", "no answer", False, False),  # not systemd's service: no sandbox
        ("127.0.0.1", "no answer", True, False),
        ("localhost", "no answer", True, False),
        ("::1", "no answer", True, False),
        ("192.168.1.20", "refused: auth", True, False),  # it answered
        ("192.168.1.20", "no broker", True, False),
    ],
)
def test_a_broker_elsewhere_that_never_answers_names_the_services_sandbox(
    monkeypatch, host, status, service, hinted
):
    if service:
        monkeypatch.setenv("INVOCATION_ID", "0123456789abcdef")
    else:
        monkeypatch.delenv("INVOCATION_ID", raising=False)
    hint = why_down_module.sandbox_hint(host, status)
    assert ("IPAddressAllow=" in hint) is hinted


async def test_a_settings_set_is_answered_by_one_settings_message():
    """The change reaches the table as a step, and the request is answered with the
    settings: one message, however fast the sender takes what the step queued."""
    from dataclasses import replace

    from controller.config import MqttConfig
    from controller.game.engine import new_table
    from controller.mqtt.outbox import Outbox
    from controller.settings import Settings

    outbox = Outbox()
    sent: list[str] = []

    async def send_all() -> None:
        while outbox:
            message = await outbox.next()
            outbox.sent(message)
            sent.append(message.topic.rsplit("/", 1)[1])

    class Control:
        table = new_table(Settings(), 4)

        def watch(self, on_event, on_step) -> None:
            self.on_step = on_step

        async def change_settings(self, change) -> Settings:
            self.table = replace(self.table, settings=self.table.settings.replace(change.changes))
            self.on_step(self.table)
            await send_all()  # the sender is quicker than the table's answer
            return self.table.settings

        def show_link(self, status: str) -> None:
            pass

    link = TableLink(MqttConfig("broker.lan", 1883), "t1", Control(), outbox=outbox)
    await send_all()
    sent.clear()
    await link._handle("flashtable/t1/settings/set", b'{"volume": "low"}', retained=False, cid=None)
    await send_all()
    assert sent.count("settings") == 1, sent
