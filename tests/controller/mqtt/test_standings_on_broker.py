"""The evening's standings and the places on a real Mosquitto: `standings` retained and
following the rounds, `state` naming the finish and the places, and the events of a round for
places. A broker of its own: its retained topics are nobody else's."""

from __future__ import annotations

from controller.game.holds import WIN_HOLD
from controller.settings import Settings

from .conftest import NO_SCORE, next_on, operator, table_alone

TABLE = "evening1"
BASE = f"flashtable/{TABLE}"


async def test_standings_are_retained_and_follow_a_round_for_places(tmp_path):
    settings = Settings({"finish": "places", "turn_timer": "off", "sleep_time": "off"})
    async with table_alone(tmp_path, TABLE, settings) as (table, _, heard, broker):
        empty = await heard.first(f"{BASE}/standings", lambda m: True)
        assert empty == {"rounds": 0, "seats": [], "score": NO_SCORE}

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
        assert {k: v for k, v in standings.items() if k != "score"} == over["standings"]
        assert [(s["seat"], s["wins"], s["average_place"]) for s in standings["seats"]] == [
            (seat, int(seat == first), float([first, second, lit].index(seat) + 1))
            for seat in (1, 2, 3)
        ]
        assert table.link is not None
        await table.link.outbox.emptied()

        async with operator(broker) as late:  # retained: a scoreboard that comes later has it
            await late.subscribe(f"{BASE}/standings")
            kept = await next_on(late, f"{BASE}/standings")
            assert kept == standings
