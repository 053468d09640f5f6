"""Hostile messages from the broker: huge ones never reach the table, correlation data over
the limit refuses the whole message, and a storm of refused messages is counted and logged
without flooding the journal."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller.config import Config
from controller.mqtt.refusals import MAX_CORRELATION, RefusalLog
from controller.requests import DealCards
from controller.simulation.table import SimTable

from .broker import Broker
from .conftest import WAIT, decode, next_on, operator, table_mqtt, until

REFUSALS_LOG = "controller.mqtt.refusals"
MiB = 1 << 20


def correlated(data: bytes) -> Properties:
    properties = Properties(PacketTypes.PUBLISH)
    properties.CorrelationData = data
    return properties


async def online(client: aiomqtt.Client, table_id: str) -> None:
    await client.subscribe(f"flashtable/{table_id}/status")
    while await next_on(client, f"flashtable/{table_id}/status") != "online":
        pass


async def answer(client: aiomqtt.Client, topic: str) -> aiomqtt.Message:
    async with asyncio.timeout(WAIT):
        async for message in client.messages:
            if message.topic.matches(topic):
                return message
    raise AssertionError("the broker closed the connection")


async def test_correlation_data_over_the_limit_refuses_the_message_whole(broker, tmp_path):
    base = "flashtable/table20"
    config = Config(table_id="table20", seats=2, mqtt=table_mqtt(broker, tmp_path, "table20"))
    too_long = b"c" * (MAX_CORRELATION + 1)
    async with operator(broker) as client, SimTable(config) as table:
        await online(client, "table20")
        await client.subscribe(f"{base}/error")
        await client.subscribe(f"{base}/settings")
        before = table.daemon.table.settings
        await client.publish(
            f"{base}/settings/set", '{"turn_timer": 9}', qos=1, properties=correlated(too_long)
        )
        refused = await answer(client, f"{base}/error")
        assert decode(refused.payload) == {
            "topic": f"{base}/settings/set",
            "reason": f"correlation data of {MAX_CORRELATION + 1} bytes is over the limit of "
            f"{MAX_CORRELATION}",
        }
        assert getattr(refused.properties, "CorrelationData", None) is None
        payload = '{"action": "dispense", "cards": 2}'
        await client.publish(f"{base}/command", payload, qos=1, properties=correlated(too_long))
        refused = await answer(client, f"{base}/error")
        assert decode(refused.payload)["topic"] == f"{base}/command"
        assert "correlation data" in decode(refused.payload)["reason"]

        # At the limit it is carried out, and the answer carries it back.
        at_limit = b"k" * MAX_CORRELATION
        await client.publish(
            f"{base}/settings/set", '{"jump_in": "on"}', qos=1, properties=correlated(at_limit)
        )
        settings = await answer(client, f"{base}/settings")
        while getattr(settings.properties, "CorrelationData", None) is None:
            settings = await answer(client, f"{base}/settings")  # not the answer yet
        assert settings.properties.CorrelationData == at_limit
        await table.advance(5.0)
        assert table.cards_out == 0 and table.events_of("dispense") == []
        assert table.daemon.table.settings.turn_timer == before.turn_timer
        assert table.daemon.table.settings.jump_in == "on"


def test_refusals_are_told_at_once_then_at_most_once_a_minute(caplog):
    caplog.set_level(logging.WARNING, logger=REFUSALS_LOG)
    refusals = RefusalLog(every=60.0)

    def lines() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name == REFUSALS_LOG]

    refusals.refused("t/command", "first", now=100.0)
    assert lines() == ["MQTT: refused a message on t/command: first"]
    assert refusals.due == 160.0
    for n in range(500):
        refusals.refused("t/command", f"bad {n}", now=100.0 + n / 10)
    assert len(lines()) == 1
    refusals.summarise(now=160.0)
    assert len(lines()) == 2
    assert "500 more messages in 60 s (501 since start)" in lines()[1]
    assert lines()[1].endswith("t/command: bad 499")
    refusals.refused("t/settings/set", "still", now=170.0)  # the storm goes on: held
    assert len(lines()) == 2
    refusals.summarise(now=220.0)
    assert "1 more message in 60 s" in lines()[2]
    refusals.summarise(now=280.0)  # nothing came: the next is told at once again
    assert len(lines()) == 3 and refusals.due is None
    refusals.refused("t/command", "later", now=900.0)
    assert lines()[3] == "MQTT: refused a message on t/command: later"
    assert refusals.count == 503


async def test_a_storm_of_refused_messages_is_counted_and_logged_in_a_line_or_two(
    broker, tmp_path, caplog
):
    caplog.set_level(logging.INFO)
    storm = 300
    base = "flashtable/table17"
    config = Config(table_id="table17", seats=2, mqtt=table_mqtt(broker, tmp_path, "table17"))
    async with operator(broker) as client, SimTable(config) as table:
        await online(client, "table17")
        await client.subscribe(f"{base}/error")
        for _ in range(storm):
            await client.publish(f"{base}/command", b"not json", qos=1)
        for _ in range(storm):
            await answer(client, f"{base}/error")
        await client.subscribe(f"{base}/state")
        while (await next_on(client, f"{base}/state"))["refused_messages"] != storm:
            pass
        during = [r for r in caplog.records if r.name == REFUSALS_LOG]
        assert len(during) == 1  # the first, at once
        assert table.link is not None and table.link.refusals.count == storm
    told = [r.getMessage() for r in caplog.records if r.name == REFUSALS_LOG]
    assert len(told) == 2  # and on the way out, how many more
    assert f"refused {storm - 1} more messages" in told[1]


def marked(message: aiomqtt.Message) -> bool:
    return getattr(message.properties, "CorrelationData", None) == b"marker"


async def deal(table: SimTable, cards: int) -> None:
    if table.cards_left < cards:
        table.refill()
    await asyncio.wrap_future(table.daemon.submit(DealCards(cards, "quick")))
    while table.daemon.table.launcher.owed:
        await table.advance(0.005)


def test_huge_messages_never_reach_the_table_nor_stall_it_while_it_deals(tmp_path, caplog):
    """A separate process sends 16 MiB and 64 MiB messages to `settings/set` and `command`
    through a real Mosquitto while the table deals card after card on its mock pins.

    The broker routed every huge message (back to the sender), yet the table refused only the
    two small ones sent after them, and never logged a message over the packet size it asked
    for: it never received the huge ones, whose reading alone holds its loop for 0.1 to 0.7 s
    (docs/mqtt.md). Meanwhile every card asked was dealt. No time is measured: a pass of the
    loop, even in its thread's CPU time, takes whatever a loaded host leaves it (in a virtual
    machine the time the host takes away is the running thread's).
    """
    caplog.set_level(logging.WARNING, logger="controller.mqtt.link")
    asyncio.run(flood_while_dealing(tmp_path))
    assert not [r for r in caplog.records if "over the maximum packet size" in r.getMessage()]


async def flood_while_dealing(directory: Path) -> None:
    base = "flashtable/table21"
    sizes = [16 * MiB, 64 * MiB]
    broker = Broker(directory, ["table21"])
    broker.start()
    sender: asyncio.subprocess.Process | None = None
    try:
        mqtt = table_mqtt(broker, directory, "table21")
        config = Config(table_id="table21", seats=2, mqtt=mqtt)
        async with operator(broker) as client, SimTable(config, seed=4) as table:
            link = table.link
            assert link is not None
            await client.subscribe(f"{base}/error")
            await until(lambda: link.connected, "connected")
            # A card dealt and a command refused before the flood (the first refusal).
            await deal(table, 2)
            await client.publish(f"{base}/command", b"[]", qos=1)
            await answer(client, f"{base}/error")
            asked = 2
            sender = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.controller.mqtt.huge_sender",
                str(broker.port),
                "table21",
                *map(str, sizes),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                cwd=Path(__file__).parents[3],  # the repository: `tests` is a package there
            )
            assert sender.stdin is not None and sender.stdout is not None
            async with asyncio.timeout(WAIT):
                assert await sender.stdout.readline() == b"ready\n"

            sender.stdin.write(b"go\n")
            await sender.stdin.drain()
            sent = asyncio.ensure_future(sender.stdout.readline())
            async with asyncio.timeout(120):  # only a limit: a broker that hangs
                while not sent.done():
                    await deal(table, 6)
                    asked += 6
                errors = []  # until the answers to the two markers, sent last
                while sum(marked(m) for m in errors) < 2:
                    errors.append(await answer(client, f"{base}/error"))
            report = sent.result().split()
            dealt, refused = table.cards_out, link.refusals.count
    finally:
        if sender is not None and sender.returncode is None:
            sender.kill()
            await sender.wait()
        broker.stop()

    assert dealt == asked > 2
    assert report[0] == b"sent"
    assert sorted(int(size) for size in report[1:]) == sorted(sizes * 2)  # the broker sent them
    # The table answered only the two markers: it never received a huge message.
    assert sorted(decode(m.payload)["topic"] for m in errors) == [
        f"{base}/command",
        f"{base}/settings/set",
    ]
    assert refused == 3  # the warm-up and the two markers
