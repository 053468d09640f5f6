"""One real Mosquitto for the whole test session, and an operator's client on it."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import aiomqtt
import pytest

from controller.config import MqttConfig

from .broker import OPERATOR, PASSWORD, Broker

TABLES = [f"table{n}" for n in range(1, 31)] + [f"fleet{n:02}" for n in range(1, 21)]
WAIT = 20.0  # seconds: only a limit for an answer that never comes, never a measurement


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
