"""One real Mosquitto for the whole test session, and an operator's client on it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import aiomqtt
import pytest

from controller.config import Config, MqttConfig
from controller.settings import Settings
from controller.simulation.table import SimTable

from .broker import OPERATOR, PASSWORD, Broker

TABLES = [f"table{n}" for n in range(1, 31)] + [f"fleet{n:02}" for n in range(1, 21)]
WAIT = 20.0  # seconds: only a limit for an answer that never comes, never a measurement
# The score to 500 on `standings` before a game has begun.
NO_SCORE = {"target": 500, "totals": [], "round": None, "won": None}


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    running = Broker(tmp_path_factory.mktemp("broker"), TABLES)
    running.start()
    yield running
    running.stop()


def password_file(directory: Path) -> Path:
    path = directory / "mqtt-password"
    path.write_text(PASSWORD + "\n")
    os.chmod(path, 0o600)
    return path


def table_mqtt(broker: Broker, directory: Path, table_id: str, **options: object) -> MqttConfig:
    """A table's `[mqtt]` settings for the test broker, logged in under its id."""
    values: dict = {
        "host": "127.0.0.1",
        "port": broker.port,
        "username": table_id,
        "password_file": password_file(directory),
        **options,
    }
    return MqttConfig(**values)


def operator(broker: Broker, **options: object) -> aiomqtt.Client:
    return aiomqtt.Client(
        "127.0.0.1",
        broker.port,
        username=OPERATOR,
        password=PASSWORD,
        protocol=aiomqtt.ProtocolVersion.V5,
        **options,
    )


async def next_on(client: aiomqtt.Client, topic: str, *, live: bool = False) -> dict | str:
    """The next message on `topic` (a live one if asked: not the broker's retained copy)."""
    async with asyncio.timeout(WAIT):
        async for message in client.messages:
            if message.topic.matches(topic) and not (live and message.retain):
                return decode(message.payload)
    raise AssertionError("the broker closed the connection")


async def until(condition: Callable[[], bool], what: str) -> None:
    try:
        async with asyncio.timeout(WAIT):
            while not condition():
                await asyncio.sleep(0.05)  # the link's state, watched from outside
    except TimeoutError:
        raise AssertionError(f"the link never {what}") from None


def decode(payload: object) -> dict | str:
    text = payload.decode() if isinstance(payload, bytes) else str(payload)
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


class Heard:
    """Every message of the table, by topic, in order: a wait for one topic keeps the others."""

    def __init__(self, client: aiomqtt.Client) -> None:
        self.client = client
        self.seen: dict[str, list] = {}
        self.read: dict[str, int] = {}

    async def first(self, topic: str, done) -> dict:
        """The first message on `topic` not yet looked at that satisfies `done`."""
        async with asyncio.timeout(WAIT):
            while True:
                messages = self.seen.setdefault(topic, [])
                while self.read.get(topic, 0) < len(messages):
                    message = messages[self.read.get(topic, 0)]
                    self.read[topic] = self.read.get(topic, 0) + 1
                    if done(message):
                        return message
                message = await anext(self.client.messages)
                self.seen.setdefault(str(message.topic), []).append(decode(message.payload))


@contextlib.asynccontextmanager
async def table_alone(
    directory: Path, table_id: str, settings: Settings
) -> AsyncIterator[tuple[SimTable, aiomqtt.Client, Heard, Broker]]:
    """A table of four seats on a broker of its own (its retained topics are nobody else's),
    connected, and an operator hearing everything under its topics."""
    broker = Broker(directory, [table_id])
    broker.start()
    try:
        mqtt = table_mqtt(broker, directory, table_id)
        config = Config(table_id=table_id, seats=4, settings=settings, mqtt=mqtt)
        async with SimTable(config, seed=3) as table, operator(broker) as client:
            link = table.link
            assert link is not None
            await until(lambda: link.connected, "connected")
            await client.subscribe(f"flashtable/{table_id}/#")
            yield table, client, Heard(client), broker
    finally:
        broker.stop()
