"""Two remotes at the same moment, the web page and MQTT, each changing its own setting: both
changes are kept, since each names only what it changes and the table merges it with its own
settings in the step that carries it out."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
from collections.abc import Iterator
from dataclasses import replace

import aiohttp

from controller.requests import ChangeSettings, Request
from controller.settings import Settings
from controller.shell.daemon import Daemon
from controller.simulation.table import SimTable

from ..web.conftest import web_config
from ..web.test_server import Page
from .conftest import next_on, operator, table_mqtt

Answer = concurrent.futures.Future[object]


@contextlib.contextmanager
def held_until(daemon: Daemon, count: int) -> Iterator[None]:
    """Settings changes to `daemon` wait at its door until `count` have come, then go in, in
    order: each remote has made its request before the table carries out either."""
    submit = daemon.submit
    waiting: list[tuple[Request, Answer]] = []

    def hand_over(answered: Answer, mine: Answer) -> None:
        error = answered.exception()
        if error is None:
            mine.set_result(answered.result())
        else:
            mine.set_exception(error)

    def held(request: Request) -> Answer:
        if not isinstance(request, ChangeSettings):
            return submit(request)  # the link's own news (its status) goes in as ever
        mine: Answer = concurrent.futures.Future()
        waiting.append((request, mine))
        if len(waiting) == count:
            for waited, future in waiting:
                submit(waited).add_done_callback(lambda done, f=future: hand_over(done, f))
        return mine

    daemon.submit = held  # type: ignore[method-assign]
    try:
        yield
    finally:
        del daemon.submit


async def test_a_web_change_and_an_mqtt_change_at_once_are_both_kept(broker, tmp_path):
    config = replace(
        web_config(tmp_path),
        table_id="table23",
        settings=Settings({"turn_timer": 6, "slap_window": 3}),
        mqtt=table_mqtt(broker, tmp_path, "table23"),
    )
    jar = aiohttp.CookieJar(unsafe=True)
    async with (
        operator(broker) as client,
        SimTable(config, seed=1) as table,
        aiohttp.ClientSession(cookie_jar=jar) as session,
    ):
        page = Page(table, session)
        assert await page.sign_in() == 200
        await client.subscribe("flashtable/table23/settings")
        assert (await next_on(client, "flashtable/table23/settings"))["slap_window"] == 3

        async def over_mqtt() -> dict:
            change = json.dumps({"slap_window": 5})
            await client.publish("flashtable/table23/settings/set", change, qos=1)
            return await next_on(client, "flashtable/table23/settings", live=True)

        with held_until(table.daemon, 2):
            (status, answer), published = await asyncio.gather(
                page.post("/settings", {"turn_timer": 9}), over_mqtt()
            )
        settings = table.daemon.table.settings
        assert (settings.turn_timer, settings.slap_window) == (9, 5)
        assert status == 200 and answer["settings"]["turn_timer"] == 9
        assert published["slap_window"] == 5
