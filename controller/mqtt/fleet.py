"""`flashtable fleet`: every table on a broker, from the retained topics, and a settings
change sent to one or all of them, each table's answer reported."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..config import MqttConfig
from ..settings import setting
from .broker_client import client
from .topics import ONLINE, ROOT, Topics

ANSWER_TIME = 5.0  # seconds a table has to answer a change
GATHER_TIME = 5.0  # at most this long for the retained topics (the probe says when it is all)


@dataclass
class Seen:
    """One table as the broker's retained topics tell it."""

    table_id: str
    status: str = "?"
    state: dict[str, object] = field(default_factory=dict)

    @property
    def online(self) -> bool:
        return self.status == ONLINE


@dataclass(frozen=True)
class Answer:
    table_id: str
    ok: bool
    text: str


def connect(config: MqttConfig) -> aiomqtt.Client:
    return client(config, f"flashtable-fleet-{uuid.uuid4().hex[:12]}")


async def tables(connection: aiomqtt.Client) -> dict[str, Seen]:
    """Every table that left a retained `status` or `state`, by id."""
    await connection.subscribe([(f"{ROOT}/+/status", 1), (f"{ROOT}/+/state", 1)])
    # The broker sends the retained messages of a subscription before anything published
    # after it: our own probe coming back means they have all arrived.
    probe = f"{ROOT}-fleet/{uuid.uuid4().hex}"
    await connection.subscribe(probe, qos=1)
    await connection.publish(probe, b"probe", qos=1)
    seen: dict[str, Seen] = {}
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(GATHER_TIME):
            async for message in connection.messages:
                topic = str(message.topic)
                if topic == probe:
                    break
                _, table_id, kind = topic.split("/")
                table = seen.setdefault(table_id, Seen(table_id))
                if kind == "status":
                    table.status = _text(message.payload)
                else:
                    table.state = _json(message.payload)
    return dict(sorted(seen.items()))


async def change(
    connection: aiomqtt.Client, targets: list[str], changes: Mapping[str, str]
) -> list[Answer]:
    """Send `changes` to each table in `targets`; each one's new values or its reason."""
    await connection.subscribe([(f"{ROOT}/+/settings", 1), (f"{ROOT}/+/error", 1)])
    asked: dict[bytes, str] = {}
    for table_id in targets:
        tag = uuid.uuid4().bytes
        asked[tag] = table_id
        properties = Properties(PacketTypes.PUBLISH)
        properties.CorrelationData = tag
        payload = json.dumps(dict(changes)).encode()
        await connection.publish(
            Topics(table_id).settings_set, payload, qos=1, properties=properties
        )
    answers: dict[str, Answer] = {}
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(ANSWER_TIME):
            async for message in connection.messages:
                cid = getattr(message.properties, "CorrelationData", None)
                who = asked.get(cid) if isinstance(cid, bytes) else None
                if who is None or who in answers:
                    continue  # another client's answer, or a retained one from before
                body = _json(message.payload)
                if str(message.topic).endswith("/error"):
                    answers[who] = Answer(who, False, f"refused: {body.get('reason')}")
                else:
                    values = ", ".join(
                        f"{key} = {setting(key).text(body[key])}"  # type: ignore[arg-type]
                        for key in changes
                        if key in body
                    )
                    answers[who] = Answer(who, True, values)
                if len(answers) == len(targets):
                    break
    return [
        answers.get(t, Answer(t, False, f"no answer within {ANSWER_TIME:g} s")) for t in targets
    ]


def _text(payload: object) -> str:
    return payload.decode(errors="replace") if isinstance(payload, bytes) else str(payload)


def _json(payload: object) -> dict[str, object]:
    try:
        value = json.loads(_text(payload))
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}
