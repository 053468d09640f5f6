"""A settings change from MQTT steps the engine once and draws the lights and the LCD once,
as a detent of the encoder or a press does (tests/controller/test_one_step_per_input.py)."""

from __future__ import annotations

from controller.config import Config
from controller.simulation.table import SimTable

from ..test_menu import lcd
from ..test_one_step_per_input import QUIET, Counts, counted
from .conftest import next_on, operator, table_mqtt


async def test_a_settings_change_over_mqtt_is_one_step_and_one_drawing(broker, tmp_path):
    config = Config(
        table_id="table30", settings=QUIET, mqtt=table_mqtt(broker, tmp_path, "table30")
    )
    async with operator(broker) as client, SimTable(config, seed=3) as table:
        await client.subscribe("flashtable/table30/settings")
        assert (await next_on(client, "flashtable/table30/settings"))["turn_timer"] == 4
        with counted(table) as counts:
            await client.publish("flashtable/table30/settings/set", '{"turn_timer": 7}', qos=1)
            while (await next_on(client, "flashtable/table30/settings"))["turn_timer"] != 7:
                pass
        assert lcd(table)[0] == "Table   timer 7s"
        assert counts == Counts(steps=1, draws=1)
