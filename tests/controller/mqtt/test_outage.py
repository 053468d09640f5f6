"""When the table or the broker goes away: the will says offline, the table plays on, and
what happened meanwhile arrives in order, up to the buffer's bound, with the loss counted."""

from __future__ import annotations

import asyncio
import logging
import signal
import subprocess
import sys
import time

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller.config import Config
from controller.mqtt.outbox import EVENT_LIMIT
from controller.simulation.table import SimTable

from .broker import Broker
from .conftest import NO_SCORE, WAIT, decode, next_on, operator, password_file, table_mqtt, until

KEEPALIVE = 2


async def test_a_killed_table_goes_offline_through_its_will(broker, tmp_path):
    config = tmp_path / "flashtable.toml"
    config.write_text(
        f'[table]\nid = "table12"\n[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
        f'username = "table12"\npassword_file = "{password_file(tmp_path)}"\n'
        f"keepalive = {KEEPALIVE}\n"
    )
    async with operator(broker) as client:
        await client.subscribe("flashtable/table12/status")
        command = ["run", "--sim", "--config", str(config), "--state-dir", str(tmp_path)]
        process = subprocess.Popen(
            [sys.executable, "-m", "controller", *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        try:
            while await next_on(client, "flashtable/table12/status") != "online":
                pass
            process.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            assert await next_on(client, "flashtable/table12/status") == "offline"
            took = time.monotonic() - killed
        finally:
            process.kill()
            out = process.communicate()[0].decode()
    assert took < 1.5 * KEEPALIVE, f"offline {took:.2f} s after the kill"
    assert "connected to 127.0.0.1" in out
    assert "s3cret" not in out  # the password never reaches the log


def persistent_broker(directory) -> Broker:
    """A broker that keeps sessions across a restart, so a reader that is away meanwhile
    misses nothing: it proves the table's own buffer, not the reader's luck."""
    broker = Broker(directory, ["table13"])
    with (directory / "mosquitto.conf").open("a") as conf:
        conf.write(f"persistence true\npersistence_location {directory}/\nmax_queued_messages 0\n")
    return broker


def watcher(broker: Broker) -> aiomqtt.Client:
    keep = Properties(PacketTypes.CONNECT)
    keep.SessionExpiryInterval = 3600
    return operator(broker, identifier="outage-watcher", clean_start=False, properties=keep)


async def test_a_broker_that_forgot_everything_gets_the_state_again(tmp_path):
    broker = Broker(tmp_path, ["table14"])  # keeps nothing across a restart
    broker.start()
    try:
        config = Config(table_id="table14", seats=3, mqtt=table_mqtt(broker, tmp_path, "table14"))
        async with SimTable(config) as table:
            link = table.link
            assert link is not None
            await until(lambda: link.connected, "connected")
            for seat in (1, 3):
                await table.tap(f"seat{seat}")
            await link.outbox.emptied()
            broker.stop()
            await until(lambda: not link.connected, "disconnected")
            broker.start()  # nothing happens at the table meanwhile
            await until(lambda: link.connected, "reconnected")
            await link.outbox.emptied()
            async with operator(broker) as client:
                await client.subscribe("flashtable/table14/+")
                got = {}
                while len(got) < 4:  # every retained topic: status, state, settings, standings
                    async with asyncio.timeout(WAIT):
                        message = await anext(aiter(client.messages))
                    got[str(message.topic).rsplit("/", 1)[1]] = decode(message.payload)
    finally:
        broker.stop()
    assert got["status"] == "online"
    assert got["state"]["seats"] == [1, 3]
    assert got["settings"]["mode"] == "table"
    assert got["standings"] == {"rounds": 0, "seats": [], "score": NO_SCORE}


async def test_the_broker_stopped_and_started_again(tmp_path):
    broker = persistent_broker(tmp_path)
    broker.start()
    try:
        config = Config(table_id="table13", seats=2, mqtt=table_mqtt(broker, tmp_path, "table13"))
        async with watcher(broker) as client:
            await client.subscribe("flashtable/table13/#", qos=1)
        async with SimTable(config, seed=7) as table:
            link = table.link
            assert link is not None
            await until(lambda: link.connected, "connected")
            for seat in (1, 2):
                await table.tap(f"seat{seat}")
            await table.tap("play_pause")
            before = table.events[-1].seq
            await link.outbox.emptied()  # all that happened so far has reached the broker

            broker.stop()
            await until(lambda: not link.connected, "disconnected")
            # The link hands its status to the daemon through its inbox, a moment after.
            outage = ("connection lost", "no broker")
            await until(lambda: table.daemon.mqtt_status in outage, "showed the outage")
            turns = (EVENT_LIMIT + 200) // 2  # each turn is two events: ended, started
            for _ in range(turns):
                [lit] = table.lit()
                await table.tap(f"seat{lit}")  # the table plays on without its broker
            last = table.events[-1].seq
            assert len(link.outbox) <= EVENT_LIMIT + 4  # memory stays bounded
            assert link.outbox.dropped == last - before - EVENT_LIMIT

            broker.start()
            await until(lambda: link.connected, "reconnected")
            await link.outbox.emptied()

        seqs, state = [], None
        async with watcher(broker) as client:
            async with asyncio.timeout(WAIT):
                async for message in client.messages:
                    body = decode(message.payload)
                    if message.topic.matches("flashtable/table13/event"):
                        seqs.append(body["seq"])
                    elif message.topic.matches("flashtable/table13/state") and seqs:
                        state = body
                    if seqs and seqs[-1] == last and state is not None:
                        break
    finally:
        broker.stop()
    first_kept = last - EVENT_LIMIT + 1
    after = [seq for seq in seqs if seq > before]
    assert after == list(range(first_kept, last + 1))  # in order, no gap, up to the bound
    assert state is not None and state["dropped_events"] == first_kept - before - 1


async def test_a_burst_is_in_flight_at_once_and_survives_the_broker_dying_under_it(
    tmp_path, caplog
):
    caplog.set_level(logging.INFO, logger="controller.mqtt.link")
    caplog.set_level(logging.INFO, logger="controller.mqtt.broker_client")  # the client's own
    broker = persistent_broker(tmp_path)
    broker.start()
    try:
        async with watcher(broker) as client:
            await client.subscribe("flashtable/table13/event", qos=1)
        broker.stop()  # the watcher's session is on disk now, to outlive a kill
        broker.start()
        config = Config(table_id="table13", seats=3, mqtt=table_mqtt(broker, tmp_path, "table13"))
        async with SimTable(config) as table:
            link = table.link
            assert link is not None and broker.process is not None
            await until(lambda: link.connected, "connected")
            await link.outbox.emptied()
            before = table.events[-1].seq if table.events else 0

            broker.process.send_signal(signal.SIGSTOP)  # it reads and acknowledges nothing
            for seat in (1, 2, 3):
                await table.tap(f"seat{seat}")
            last = table.events[-1].seq
            await until(lambda: link.outbox.in_flight == len(link.outbox), "sent them all")
            in_flight = link.outbox.in_flight
            broker.process.kill()  # never having read them
            broker.process.wait()
            broker.process = None
            await until(lambda: not link.connected, "disconnected")

            broker.start()
            await until(lambda: link.connected, "reconnected")
            await until(lambda: not link.outbox, "sent again what was in flight")

        seqs = []
        async with watcher(broker) as client:
            async with asyncio.timeout(WAIT):
                async for message in client.messages:
                    seqs.append(decode(message.payload)["seq"])
                    if seqs[-1] == last:
                        break
    finally:
        broker.stop()
    assert in_flight >= last - before == 3  # three events (and states) awaiting one answer
    assert [seq for seq in seqs if seq > before] == list(range(before + 1, last + 1))
    # The loss is told as the warning that says when the link tries again, the socket's own
    # error at INFO beside it: a broker going away is no error of the table's.
    lost = [record for record in caplog.records if "trying again" in record.getMessage()]
    assert lost and all(record.levelno == logging.WARNING for record in lost)
    assert any(
        record.levelno == logging.INFO and "socket" in record.getMessage()
        for record in caplog.records
    )
    assert [
        record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR
    ] == []
