"""Names and the score to target_score on a real Mosquitto: `command` names a seat and enters
a hand's points; the LCD, `state`, `standings` and the events follow; a refusal is answered
on `error` with the table's reason. A broker of its own: its retained topics are nobody
else's."""

from __future__ import annotations

import json

from controller.game.holds import WIN_HOLD
from controller.settings import Settings

from .conftest import table_alone

TABLE = "names1"
BASE = f"flashtable/{TABLE}"


async def test_names_and_points_by_mqtt_reach_the_lcd_the_state_and_the_standings(tmp_path):
    settings = Settings({"turn_timer": 6, "sleep_time": "off", "target_score": 100})
    async with table_alone(tmp_path, TABLE, settings) as (table, client, heard, _):

        async def command(**payload: object) -> None:
            await client.publish(f"{BASE}/command", json.dumps(payload), qos=1)

        for seat in (1, 2):
            await table.tap(f"seat{seat}")
        await command(action="name", seat=1, name="Anna")
        await command(action="name", seat=2, name="李小龙")
        named = await heard.first(f"{BASE}/state", lambda m: len(m["names"]) == 2)
        assert named["names"] == {"1": "Anna", "2": "李小龙"}
        await command(action="start")
        state = await heard.first(f"{BASE}/state", lambda m: m["phase"] == "turn")
        [lit] = table.lit()
        assert state["player"] == {1: "Anna", 2: "李小龙"}[lit]
        # The LCD shows the name it can, and the seat's number for the one it cannot.
        assert table.lcd[1].startswith({1: "Anna turn", 2: "Seat 2 turn"}[lit])

        await command(action="points", seat=lit, points=10)  # no round is waiting yet
        error = await heard.first(f"{BASE}/error", lambda m: True)
        assert error == {
            "topic": f"{BASE}/command",
            "reason": "points: no round is waiting for its points",
        }

        await table.hold(f"seat{lit}", WIN_HOLD + 0.1)
        other = 3 - lit
        await command(action="points", seat=other, points=104)
        won = await heard.first(f"{BASE}/event", lambda m: m["type"] == "game_won")
        assert (won["seat"], won["total"], won["target"]) == (lit, 104, 100)
        assert won["name"] == {1: "Anna", 2: "李小龙"}[lit]
        standings = await heard.first(f"{BASE}/standings", lambda m: m["score"]["won"] is not None)
        assert standings["score"]["totals"] == [
            {"seat": 1, "name": "Anna", "total": 104 if lit == 1 else 0},
            {"seat": 2, "name": "李小龙", "total": 104 if lit == 2 else 0},
        ]
        assert table.lcd[1] == "the game!    104"

        await command(action="name", seat=1, name="Ann\na")
        error = await heard.first(f"{BASE}/error", lambda m: True)
        assert error["reason"] == "name: a name may not hold the character U+000A"
        assert table.daemon.table.names[1] == "Anna"
