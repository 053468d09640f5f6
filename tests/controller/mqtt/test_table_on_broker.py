"""A simulated table on a real Mosquitto: status and its will, state, events in order,
settings in and out, every command, errors, and the ACL."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import replace

import aiomqtt
import pytest

from controller.config import Config
from controller.settings import Settings
from controller.simulation.table import SimTable
from tests.ports import free_port

from .conftest import WAIT, next_on, operator, table_mqtt

pytestmark = pytest.mark.usefixtures("broker")


def config(broker, tmp_path, table_id="table1", **settings) -> Config:
    return Config(
        table_id=table_id,
        seats=4,
        settings=Settings(settings),
        mqtt=table_mqtt(broker, tmp_path, table_id),
    )


async def online(client: aiomqtt.Client, table_id: str) -> None:
    await client.subscribe(f"flashtable/{table_id}/status")
    while await next_on(client, f"flashtable/{table_id}/status") != "online":
        pass


@contextlib.asynccontextmanager
async def watched(
    broker, tmp_path, table_id: str, *, seed: int = 0, **settings
) -> AsyncIterator[tuple[aiomqtt.Client, SimTable]]:
    """An operator's client, and a simulated table on the broker, once it says online."""
    async with (
        operator(broker) as client,
        SimTable(config(broker, tmp_path, table_id, **settings), seed=seed) as table,
    ):
        await online(client, table_id)
        yield client, table


async def seat_and_start(table: SimTable, *seats: int) -> None:
    for seat in seats:
        await table.tap(f"seat{seat}")
    await table.tap("play_pause")


async def test_status_is_online_then_offline_on_a_clean_stop(broker, tmp_path):
    async with operator(broker) as client:
        async with SimTable(config(broker, tmp_path, "table2")):
            await online(client, "table2")
        assert await next_on(client, "flashtable/table2/status") == "offline"
    async with operator(broker) as client:  # kept by the broker for whoever comes later
        await client.subscribe("flashtable/table2/status")
        assert await next_on(client, "flashtable/table2/status") == "offline"


async def test_a_played_turn_is_published_in_order_without_a_gap(broker, tmp_path):
    async with operator(broker) as client:
        await client.subscribe("flashtable/table3/event")
        async with SimTable(config(broker, tmp_path, "table3", turn_timer=4), seed=2) as table:
            await online(client, "table3")
            await seat_and_start(table, 1, 2)
            [lit] = table.lit()
            await table.tap(f"seat{lit}")
            await table.advance(4.0)  # the next player lets the time run out
            expected = [(e.seq, e.type) for e in table.events]
            received = []
            while len(received) < len(expected):
                event = await next_on(client, "flashtable/table3/event")
                received.append((event["seq"], event["type"]))
    assert received == expected
    assert [seq for seq, _ in received] == list(range(1, len(expected) + 1))
    types = [kind for _, kind in received]
    for kind in ("seat_claimed", "round_started", "turn_started", "turn_ended", "timeout"):
        assert kind in types
    assert types.index("turn_ended") < types.index("timeout")


async def test_state_is_retained_and_follows_the_table(broker, tmp_path):
    async with watched(broker, tmp_path, "table4", seed=1, turn_timer=6) as (client, table):
        await seat_and_start(table, 1, 3)
        [lit] = table.lit()
        await client.subscribe("flashtable/table4/state")
        state = await next_on(client, "flashtable/table4/state")
        while state["phase"] != "turn":
            state = await next_on(client, "flashtable/table4/state")
        assert state["seat"] == lit
        assert state["seats"] == [1, 3]
        assert state["mode"] == "table"
        assert state["seconds_left"] == 6
        await table.advance(2.0)
        while state["seconds_left"] != 4:
            state = await next_on(client, "flashtable/table4/state")
        await table.tap("play_pause")
        while not state["paused"]:
            state = await next_on(client, "flashtable/table4/state")
        assert state["phase"] == "paused"


async def test_a_setting_set_over_mqtt_changes_the_next_turn_is_retained_and_survives_a_restart(
    broker, tmp_path
):
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    async with operator(broker) as client:
        await client.subscribe("flashtable/table5/settings")
        async with SimTable(config(broker, tmp_path, "table5"), state_dir=state_dir) as table:
            await online(client, "table5")
            await client.publish("flashtable/table5/settings/set", '{"turn_timer": "9s"}', qos=1)
            while (await next_on(client, "flashtable/table5/settings"))["turn_timer"] != 9:
                pass
            await seat_and_start(table, 1, 2)
            [started] = table.events_of("turn_started")
            assert started.data["limit"] == 9
            assert table.lcd[0] == "Table   timer 9s"
    async with operator(broker) as client:
        await client.subscribe("flashtable/table5/settings")
        assert (await next_on(client, "flashtable/table5/settings"))["turn_timer"] == 9
    async with SimTable(config(broker, tmp_path, "table5"), state_dir=state_dir) as table:
        assert table.daemon.table.settings.turn_timer == 9


async def test_every_command_is_carried_out(broker, tmp_path):
    async with watched(broker, tmp_path, "table6", seed=3) as (client, table):
        await client.subscribe("flashtable/table6/event")
        for seat in (2, 4):
            await table.tap(f"seat{seat}")

        async def command(payload: dict, kind: str) -> dict:
            await client.publish("flashtable/table6/command", json.dumps(payload), qos=1)
            while True:
                event = await next_on(client, "flashtable/table6/event")
                if event["type"] == kind:
                    return event

        await command({"action": "start"}, "round_started")
        assert table.daemon.table.phase.value == "turn"
        await command({"action": "pause"}, "paused")
        assert table.daemon.table.phase.value == "paused"
        await command({"action": "resume"}, "resumed")
        assert table.daemon.table.phase.value == "turn"
        await command({"action": "new_round"}, "round_started")
        dispense = await command({"action": "dispense", "cards": 4}, "dispense")
        assert dispense["cards"] == 4
        await table.advance(5.0)
        assert table.cards_out == 4


async def test_a_command_the_table_cannot_carry_out_now_is_answered_on_error(broker, tmp_path):
    async with watched(broker, tmp_path, "table7") as (client, table):
        await client.subscribe("flashtable/table7/error")
        await client.publish("flashtable/table7/command", '{"action": "pause"}', qos=1)
        error = await next_on(client, "flashtable/table7/error")
        assert error == {
            "topic": "flashtable/table7/command",
            "reason": "pause: no turn is running (phase seating)",
        }
        assert table.daemon.table.phase.value == "seating"


async def test_a_cut_dispense_and_a_bound_past_the_other_are_answered_on_error(broker, tmp_path):
    async with watched(broker, tmp_path, "table24") as (client, table):
        await client.subscribe("flashtable/table24/error")
        await client.subscribe("flashtable/table24/event")
        deal = json.dumps({"action": "dispense", "cards": 10})
        for _ in range(11):  # 110 cards asked while no time passes: 108 are owed at most
            await client.publish("flashtable/table24/command", deal, qos=1)
        error = await next_on(client, "flashtable/table24/error")
        assert error == {
            "topic": "flashtable/table24/command",
            "reason": "dispense: 8 of 10 cards dealt; the launcher owes 108 at most (a whole deck)",
        }
        assert table.daemon.table.launcher.owed == 108
        assert [e.data["cards"] for e in table.events_of("dispense")] == [10] * 10 + [8]
        await client.publish("flashtable/table24/settings/set", '{"custom_min": 9}', qos=1)
        assert await next_on(client, "flashtable/table24/error") == {
            "topic": "flashtable/table24/settings/set",
            "reason": "custom_min (9) cannot be above custom_max (8)",
        }
        assert table.daemon.table.settings.custom_min == 1


async def test_a_retained_command_is_never_carried_out(broker, tmp_path):
    async with operator(broker) as client:
        await client.subscribe("flashtable/table8/error")
        payload = '{"action": "dispense", "cards": 6}'
        await client.publish("flashtable/table8/command", payload, qos=1, retain=True)
        try:
            async with SimTable(config(broker, tmp_path, "table8")) as table:
                error = await next_on(client, "flashtable/table8/error")
                assert "retained" in error["reason"]
                await table.advance(3.0)
                assert table.cards_out == 0
        finally:
            await client.publish("flashtable/table8/command", b"", qos=1, retain=True)


async def test_the_acl_keeps_a_table_out_of_another_tables_subtree(broker, tmp_path):
    async with operator(broker) as watcher:
        await watcher.subscribe("flashtable/#")
        async with SimTable(config(broker, tmp_path, "table9")) as table:
            await online(watcher, "table9")
            link = table.link
            assert link is not None
            # The table's own credentials, trying to steer its neighbour, then a marker.
            async with aiomqtt.Client(
                "127.0.0.1",
                broker.port,
                username="table9",
                password=link.config.password(),
                protocol=aiomqtt.ProtocolVersion.V5,
            ) as intruder:
                await intruder.publish("flashtable/table10/command", '{"action":"start"}', qos=1)
                await intruder.publish("flashtable/table9/marker", "after", qos=1)
            async with asyncio.timeout(20):
                async for message in watcher.messages:
                    assert not message.topic.matches("flashtable/table10/#")
                    if message.topic.matches("flashtable/table9/marker"):
                        break


async def test_a_table_stops_cleanly_while_it_connects_or_waits_for_a_broker(broker, tmp_path):
    nobody = replace(table_mqtt(broker, tmp_path, "table15"), port=free_port())
    async with asyncio.timeout(WAIT):
        for _ in range(3):
            async with SimTable(config(broker, tmp_path, "table15")):
                pass  # out again before the link has finished connecting
        async with SimTable(Config(table_id="table15", mqtt=nobody)) as table:
            assert table.daemon.mqtt_status in ("connecting", "no broker")


async def test_home_assistant_discovery_is_announced_and_again_when_it_comes_online(
    broker, tmp_path
):
    topic = "homeassistant/device/table16/config"
    async with watched(broker, tmp_path, "table16") as (client, _):
        await client.subscribe(topic)
        announced = await next_on(client, topic)
        assert announced["device"]["identifiers"] == ["flashtable_table16"]
        assert announced["origin"]["name"] == "flashtable"
        assert announced["availability_topic"] == "flashtable/table16/status"
        platforms = {key: c["platform"] for key, c in announced["components"].items()}
        assert sorted(platforms.items()) == sorted(
            {
                **dict.fromkeys(
                    ["mode", "phase", "seat", "seconds_left", "cards_dispensed", "jams"], "sensor"
                ),
                "launcher": "sensor",
                "player": "sensor",  # the lit seat's player's name
                **dict.fromkeys(["start", "pause", "resume", "new_round"], "button"),
                **dict.fromkeys(
                    ["mode_setting", "turn_timer_setting", "launcher_profile_setting"], "select"
                ),
                "timeout_penalty_setting": "number",
            }.items()
        )
        await client.publish("homeassistant/status", "online", qos=1)  # Home Assistant restarted
        assert await next_on(client, topic, live=True) == announced
