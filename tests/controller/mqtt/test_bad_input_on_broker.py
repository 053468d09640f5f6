"""Generated bad payloads through a real broker: each is answered on `error` (but one over
the table's maximum packet size, which the broker never delivers), nothing changes, and the
table plays on."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller.config import Config
from controller.mqtt.refusals import MAX_PACKET
from controller.simulation.table import SimTable

from ..remote.test_inbound import bad_commands, bad_settings
from .conftest import WAIT, decode, operator, table_mqtt

TOPIC = "flashtable/table11"
# Payloads up to this size surely reach the table: the topic, the correlation data and the
# headers take far less than the rest of a packet. None is generated between it and the
# maximum packet size, where whether the broker delivers it depends on those bytes.
DELIVERED = MAX_PACKET - 256
messages = st.lists(
    st.one_of(
        bad_settings.map(lambda p: ("settings/set", p)), bad_commands.map(lambda p: ("command", p))
    ).filter(lambda message: not DELIVERED < len(message[1]) <= MAX_PACKET),
    min_size=25,
    max_size=40,
)


async def flood(broker, directory, sent: list[tuple[str, bytes]]) -> None:
    config = Config(table_id="table11", seats=3, mqtt=table_mqtt(broker, directory, "table11"))
    async with operator(broker) as client, SimTable(config, seed=5) as table:
        await client.subscribe(f"{TOPIC}/error")
        await client.subscribe(f"{TOPIC}/status")
        async with asyncio.timeout(WAIT):
            async for message in client.messages:
                if decode(message.payload) == "online":
                    break
        for seat in (1, 2):
            await table.tap(f"seat{seat}")
        await table.tap("play_pause")
        settings_before, phase_before = table.daemon.table.settings, table.daemon.table.phase
        last = len(sent)  # a small bad message after the rest: its answer comes last
        for n, (sub, payload) in enumerate([*sent, ("command", b"[]")]):
            properties = Properties(PacketTypes.PUBLISH)
            properties.CorrelationData = str(n).encode()
            await client.publish(f"{TOPIC}/{sub}", payload, qos=1, properties=properties)
        answered: dict[int, dict] = {}
        async with asyncio.timeout(WAIT):
            async for message in client.messages:
                if message.topic.matches(f"{TOPIC}/error"):
                    n = int(message.properties.CorrelationData)
                    assert n not in answered
                    answered[n] = decode(message.payload)
                    if n == last:
                        break
        delivered = {n for n, (_, payload) in enumerate(sent) if len(payload) <= DELIVERED}
        assert set(answered) == {*delivered, last}
        for n in delivered:
            assert answered[n]["topic"] == f"{TOPIC}/{sent[n][0]}"
            assert answered[n]["reason"]
        assert table.daemon.table.settings == settings_before
        assert table.daemon.table.phase == phase_before
        [lit] = table.lit()
        await table.tap(f"seat{lit}")  # and the table keeps playing
        assert table.events[-1].type == "turn_started"
        assert table.events_of("turn_ended")


@settings(
    max_examples=30,
    deadline=None,
    # Huge strings are the point here, and one table serves a whole list of them.
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(messages)
def test_thousands_of_bad_payloads_are_each_answered_and_change_nothing(broker, tmp_path, sent):
    asyncio.run(flood(broker, tmp_path, sent))
