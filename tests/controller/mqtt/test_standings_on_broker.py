"""The evening's standings and the places on a real Mosquitto: `standings` retained and
following the rounds, `state` naming the finish and the places, and the events of a round for
places. A broker of its own: its retained topics are nobody else's."""

from __future__ import annotations

import asyncio

import aiomqtt

from controller.config import Config
from controller.game.holds import WIN_HOLD
from controller.settings import Settings
from controller.simulation.table import SimTable

from .broker import Broker
from .conftest import WAIT, decode, next_on, operator, table_mqtt, until

TABLE = "evening1"
BASE = f"flashtable/{TABLE}"


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


async def test_standings_are_retained_and_follow_a_round_for_places(tmp_path):
    broker = Broker(tmp_path, [TABLE])
    broker.start()
    try:
        settings = Settings({"finish": "places", "turn_timer": "off", "sleep_time": "off"})
        config = Config(
            table_id=TABLE, seats=4, settings=settings, mqtt=table_mqtt(broker, tmp_path, TABLE)
        )
        async with SimTable(config, seed=3) as table, operator(broker) as client:
            link = table.link
            assert link is not None
            await until(lambda: link.connected, "connected")
            await client.subscribe(f"{BASE}/#")
            heard = Heard(client)
            empty = await heard.first(f"{BASE}/standings", lambda m: True)
            assert empty == {"rounds": 0, "seats": []}

            for seat in (1, 2, 3):
                await table.tap(f"seat{seat}")
            await table.tap("play_pause")
            [lit] = table.lit()
            first = next(seat for seat in (1, 2, 3) if seat != lit)
            await table.hold(f"seat{first}", WIN_HOLD + 0.1)
            state = await heard.first(f"{BASE}/state", lambda m: m["places"] == [first])
            assert state["finish"] == "places" and state["phase"] == "turn"
            event = await heard.first(f"{BASE}/event", lambda m: m["type"] == "place_taken")
            assert (event["seat"], event["place"]) == (first, 1)

            second = next(seat for seat in (1, 2, 3) if seat not in (first, lit))
            await table.hold(f"seat{second}", WIN_HOLD + 0.1)
            over = await heard.first(f"{BASE}/event", lambda m: m["type"] == "round_over")
            assert over["places"] == [first, second, lit]
            standings = await heard.first(f"{BASE}/standings", lambda m: m["rounds"] == 1)
            assert standings == over["standings"]
            assert [(s["seat"], s["wins"], s["average_place"]) for s in standings["seats"]] == [
                (seat, int(seat == first), float([first, second, lit].index(seat) + 1))
                for seat in (1, 2, 3)
            ]
            await link.outbox.emptied()

        async with operator(broker) as late:  # retained: a scoreboard that comes later has it
            await late.subscribe(f"{BASE}/standings")
            kept = await next_on(late, f"{BASE}/standings")
            assert kept == standings
    finally:
        broker.stop()
