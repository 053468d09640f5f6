"""The page's server on a simulated table: one stream with the MQTT bridge's own payloads,
resumed where a page left off; a remote that changes the table only for a signed-in page of
its own origin, through the daemon's door, with a clear reason whenever it refuses."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from yarl import URL

from controller.remote.payloads import event_payload, settings_payload, state_snapshot
from controller.simulation.table import SimTable
from controller.web import connections as connections_module
from controller.web import feed as feed_module
from controller.web.live_view import LiveViews
from controller.web.sessions import LIFETIME
from controller.web.sign_in import FAIL_DELAY

from .conftest import PASSWORD, web_config
from .sse import EventReader


class Page:
    """A browser's view of the table's server: its own origin, its cookie jar."""

    def __init__(self, table: SimTable, session: aiohttp.ClientSession) -> None:
        assert table.web is not None
        self.table = table
        self.session = session
        self.origin = f"http://127.0.0.1:{table.web.port}"

    async def post(self, path: str, body: object, **headers: str) -> tuple[int, dict]:
        sent = {"Origin": self.origin, **headers}
        data = body if isinstance(body, bytes | str) else None
        async with self.session.post(
            self.origin + path,
            json=None if data is not None else body,
            data=data,
            headers=sent,
        ) as response:
            return response.status, await response.json()

    async def sign_in(self, password: str = PASSWORD) -> int:
        status, _ = await self.post("/login", {"password": password})
        return status

    def stream(
        self, since: str | None = None, **headers: str
    ) -> aiohttp.client._RequestContextManager:
        query = "" if since is None else f"?since={since}"
        return self.session.get(f"{self.origin}/events{query}", headers=headers)


@contextlib.asynccontextmanager
async def serving(
    tmp_path, *, firmware: bool = False, **options: object
) -> AsyncIterator[tuple[SimTable, Page]]:
    """A simulated table serving its page, and a browser's view of it."""
    jar = aiohttp.CookieJar(unsafe=True)  # the table is an IP address
    async with (
        SimTable(web_config(tmp_path, **options), seed=2, firmware=firmware) as table,
        aiohttp.ClientSession(cookie_jar=jar) as session,
    ):
        yield table, Page(table, session)


async def test_the_stream_carries_the_mqtt_bridges_state_settings_and_events(tmp_path):
    async with serving(tmp_path) as (table, page), page.stream() as response:
        assert response.headers["Content-Type"] == "text/event-stream"
        reader = EventReader(response)
        await reader.until(lambda m: m.kind == "reset")
        state = reader.of("state")[-1].data
        assert state == state_snapshot(table.daemon.table)
        assert reader.of("settings")[-1].data == settings_payload(table.daemon.table.settings)
        board = reader.of("board")[-1].data
        assert board["lcd"] == list(table.lcd) and board["lights"][0]["pattern"] == "off"
        await table.tap("seat1")
        claimed = await reader.until(lambda m: m.kind == "game")
        [event] = table.events_of("seat_claimed")
        assert claimed.data == event_payload(event) and claimed.seq == event.seq
        # What the table shows and its state after the step, in whichever order they come.
        await reader.until(lambda m: bool(reader.of("board")[1:] and reader.of("state")[1:]))
        assert reader.of("board")[1].data["lights"][0] == {
            "seat": 1,
            "pattern": "on",
            "label": "(1)",
            "meaning": "steady: seated, or out",
        }
        assert reader.of("state")[1].data["seats"] == [1]


async def test_a_page_that_comes_back_resumes_after_the_last_event_it_saw(tmp_path):
    async with serving(tmp_path) as (table, page):
        for seat in ("seat1", "seat2", "seat3"):
            await table.tap(seat)
        seqs = [e.seq for e in table.events]
        async with page.stream() as response:
            reader = EventReader(response)
            await reader.until(lambda m: m.kind == "game" and m.seq == seqs[-1])
        first = reader.of("game")[0].id
        assert first is not None
        async with page.stream(since=first) as response:
            reader = EventReader(response)
            await reader.until(lambda m: m.kind == "game" and m.seq == seqs[-1])
        assert [m.seq for m in reader.of("game")] == seqs[1:]
        assert reader.of("reset") == []
        # Too far ahead to be this run's: the page starts over.
        boot = first.partition("-")[0]
        async with page.stream(since=f"{boot}-{seqs[-1] + 5}") as response:
            reader = EventReader(response)
            await reader.until(lambda m: m.kind == "game" and m.seq == seqs[-1])
        assert len(reader.of("reset")) == 1 and [m.seq for m in reader.of("game")] == seqs


async def test_a_signed_in_page_changes_a_setting_and_deals_twelve_cards(tmp_path):
    async with serving(tmp_path) as (table, page):
        assert await page.sign_in() == 200
        status, answer = await page.post("/settings", {"turn_timer": 9, "picker": "fair"})
        assert status == 200 and answer["settings"]["turn_timer"] == 9
        assert table.daemon.table.settings.picker == "fair"
        status, _ = await page.post("/command", {"action": "dispense", "cards": 12})
        assert status == 200
        await table.advance(8.0)
        assert table.events_of("dispense")[-1].data["cards"] == 12
        assert table.cards_out == 12


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"turn_timer": 99}, 400, "turn_timer cannot be 99; allowed: off, 2-30 s, surprise"),
        ({"custom_min": 10, "custom_max": 2}, 400, "custom_min (10) cannot be above custom_max"),
        ({"no_such": 1}, 400, "no setting named"),
        ({}, 400, "nothing to set"),
        (b"[1, 2]", 400, "must be a JSON object"),
        (b"{not json", 400, "payload"),
        (b'{"mode": "' + b"x" * 2000 + b'"}', 413, "at most 1024 bytes"),
        (b'{"mode": "' + b"x" * 9000 + b'"}', 413, "at most 1024 bytes"),
    ],
)
async def test_a_bad_settings_request_is_refused_with_its_reason_and_changes_nothing(
    tmp_path, body, status, reason
):
    headers = {"Content-Type": "application/json"} if isinstance(body, bytes) else {}
    got, answer = await refused_change(tmp_path, body, headers)
    assert got == status and reason in answer["error"]


async def refused_change(tmp_path, body: object, headers: dict[str, str]) -> tuple[int, dict]:
    """A signed-in page's settings change that the table refuses: its answer, once it is
    clear that nothing changed."""
    async with serving(tmp_path) as (table, page):
        await page.sign_in()
        before = table.daemon.table.settings
        answer = await page.post("/settings", body, **headers)
        assert table.daemon.table.settings == before
        return answer


async def test_a_command_the_table_cannot_carry_out_now_says_why(tmp_path):
    async with serving(tmp_path) as (table, page):
        await page.sign_in()
        assert await page.post("/command", {"action": "pause"}) == (
            409,
            {"error": "pause: no turn is running (phase seating)"},
        )
        status, answer = await page.post("/command", {"action": "dispense", "cards": 13})
        assert status == 400 and "1 to 12" in answer["error"]
        assert table.events_of("dispense") == []


async def test_a_dispense_the_launchers_limit_cuts_says_so(tmp_path):
    async with serving(tmp_path) as (table, page):
        await page.sign_in()
        for _ in range(10):  # 100 owed: nothing is dealt while no time passes
            assert await page.post("/command", {"action": "dispense", "cards": 10}) == (
                200,
                {"done": "dispense"},
            )
        assert await page.post("/command", {"action": "dispense", "cards": 10}) == (
            200,
            {
                "done": "dispense",
                "said": "dispense: 8 of 10 cards dealt; the launcher owes 108 at most (a whole "
                "deck)",
                "whole": False,
            },
        )
        assert await page.post("/command", {"action": "dispense", "cards": 1}) == (
            409,
            {
                "error": "dispense: none dealt; the launcher owes 108 cards already, the most it "
                "owes (a whole deck)"
            },
        )
        assert table.daemon.table.launcher.owed == 108


async def test_a_bound_set_past_the_other_is_refused_naming_both_and_nothing_moves(tmp_path):
    async with serving(tmp_path) as (table, page):
        await page.sign_in()
        assert await page.post("/settings", {"custom_min": 10}) == (
            409,
            {"error": "custom_min (10) cannot be above custom_max (8)"},
        )
        settings = table.daemon.table.settings
        assert (settings.custom_min, settings.custom_max) == (1, 8)
        status, answer = await page.post("/settings", {"custom_min": 10, "custom_max": 10})
        assert status == 200 and (
            answer["settings"]["custom_min"],
            answer["settings"]["custom_max"],
        ) == (10, 10)


async def test_a_command_a_table_has_done_already_says_so_and_changes_nothing(tmp_path):
    async with serving(tmp_path) as (table, page):
        await page.sign_in()
        for seat in ("seat1", "seat2"):
            await table.tap(seat)
        assert await page.post("/command", {"action": "start"}) == (200, {"done": "start"})
        assert await page.post("/command", {"action": "resume"}) == (
            200,
            {
                "done": "resume",
                "said": "resume: the table is running already (phase turn)",
                "whole": True,
            },
        )
        assert table.daemon.table.phase.value == "turn"


async def test_without_the_password_nothing_changes_and_a_wrong_one_is_slowed(tmp_path, caplog):
    async with serving(tmp_path) as (table, page):
        before = table.daemon.table.settings
        assert (await page.post("/settings", {"turn_timer": 9}))[0] == 401
        assert (await page.post("/command", {"action": "dispense", "cards": 1}))[0] == 401
        with caplog.at_level(logging.DEBUG):
            began = time.monotonic()
            assert await page.sign_in("wrong-password") == 401
            assert time.monotonic() - began >= FAIL_DELAY
            assert await page.sign_in("\ud800 not text") == 401  # JSON carries it
            assert (await page.post("/settings", {"turn_timer": 9}))[0] == 401
            assert await page.sign_in() == 200
            cookie = page.session.cookie_jar.filter_cookies(URL(page.origin))["flashtable_session"]
        assert table.daemon.table.settings == before and table.events_of("dispense") == []
        assert "wrong password" in caplog.text
        for secret in (PASSWORD, "wrong-password", cookie.value):
            assert secret not in caplog.text


async def test_the_session_cookie_is_httponly_and_samesite_strict(tmp_path):
    async with serving(tmp_path) as (_table, page):
        async with page.session.post(
            page.origin + "/login", json={"password": PASSWORD}, headers={"Origin": page.origin}
        ) as response:
            cookie = response.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        status, _ = await page.post("/logout", {})
        assert status == 200 and (await page.post("/settings", {"turn_timer": 9}))[0] == 401


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Sec-Fetch-Site": "cross-site"}, 403),
        ({"Origin": "", "Sec-Fetch-Site": "same-site"}, 403),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({"Content-Type": "text/plain"}, 415),
    ],
)
async def test_a_cross_site_or_form_request_changes_nothing(tmp_path, headers, status):
    sent = {"Content-Type": "application/json", **headers}
    got, answer = await refused_change(tmp_path, '{"turn_timer": 9}', sent)
    assert got == status and answer["error"]


async def test_a_request_without_origin_changes_nothing(tmp_path):
    async with serving(tmp_path) as (table, page):
        await page.sign_in()
        async with page.session.post(page.origin + "/settings", json={"turn_timer": 9}) as response:
            assert response.status == 403
        assert table.daemon.table.settings.turn_timer != 9


async def test_the_view_can_ask_for_the_password_too(tmp_path):
    async with serving(tmp_path, view_needs_password=True) as (_table, page):
        async with page.stream() as response:
            assert response.status == 401
        await page.sign_in()
        async with page.stream() as response:
            assert response.status == 200
            await EventReader(response).until(lambda m: m.kind == "state")


async def test_open_streams_are_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(connections_module, "MAX_STREAMS", 2)
    async with serving(tmp_path) as (_table, page), page.stream() as one, page.stream() as two:
        for response in (one, two):
            await EventReader(response).until(lambda m: m.kind == "state")
        async with page.stream() as three:
            refused = await EventReader(three).until(lambda m: m.kind == "refused")
            assert refused.data == {"error": "too many viewers"}


async def test_a_stream_that_falls_behind_is_dropped_and_the_table_plays_on(tmp_path, monkeypatch):
    monkeypatch.setattr(feed_module, "BACKLOG", 3)
    async with serving(tmp_path) as (table, _page):
        web = table.web
        assert web is not None
        dropped: list[bool] = []
        stream = web.feed.open(lambda: dropped.append(True), None)  # a reader that never reads
        for seat in ("seat1", "seat2", "seat3", "seat1", "seat2"):
            await table.tap(seat)
            await asyncio.sleep(0)
        assert dropped == [True] and stream.dropped
        assert len(web.feed) == 0
        assert table.daemon.table.seated == {3}  # two seats claimed, then let go again


async def test_the_page_is_told_when_the_launchers_link_goes_down_and_comes_back(tmp_path):
    async with serving(tmp_path, firmware=True) as (table, page), page.stream() as response:
        reader = EventReader(response)
        first = await reader.until(lambda m: m.kind == "board")
        assert first.data["launcher_link"] is True
        port = table.firmware_port
        assert port is not None and port.firmware is not None
        port.firmware.close()  # the controller falls silent
        await table.advance(1.5)
        await reader.until(lambda m: m.kind == "board" and m.data["launcher_link"] is False)
        port.start(clock=table.clock, seed=2)  # the board is back
        await table.advance(0.5)
        await reader.until(lambda m: m.kind == "board" and m.data["launcher_link"] is True)


async def test_a_page_that_goes_away_gives_its_stream_back_at_once(tmp_path):
    async with serving(tmp_path) as (table, page):
        web = table.web
        assert web is not None
        async with page.stream() as response:
            await EventReader(response).until(lambda m: m.kind == "state")
            assert len(web.feed) == 1
        async with asyncio.timeout(10):  # no keep-alive nor table change needed to notice
            while len(web.feed):
                await asyncio.sleep(0.01)


async def test_a_page_that_comes_back_after_a_restart_is_reset_whatever_it_saw(tmp_path):
    async with serving(tmp_path) as (table, page), page.stream() as response:
        for seat in ("seat1", "seat2", "seat3", "seat1", "seat2", "seat3"):
            await table.tap(seat)
        reader = EventReader(response)
        last = await reader.until(lambda m: m.kind == "game" and m.seq == 6)
    async with serving(tmp_path) as (table, page):  # the table restarted
        for _ in range(4):
            for seat in ("seat1", "seat2", "seat3"):
                await table.tap(seat)
        assert table.events[-1].seq == 12
        async with page.stream(**{"Last-Event-ID": str(last.id)}) as response:
            reader = EventReader(response)
            await reader.until(lambda m: m.kind == "game" and m.seq == table.events[-1].seq)
        assert len(reader.of("reset")) == 1
        assert [m.seq for m in reader.of("game")] == [e.seq for e in table.events]


async def sign_out(table: SimTable, page: Page) -> None:
    assert (await page.post("/logout", {}))[0] == 200


async def expire(table: SimTable, page: Page) -> None:
    await table.advance(LIFETIME)


@pytest.mark.parametrize("end", [sign_out, expire])
async def test_a_sessions_end_ends_its_streams_where_the_view_needs_the_password(tmp_path, end):
    async with serving(tmp_path, view_needs_password=True) as (table, page):
        await page.sign_in()
        async with page.stream() as response:
            reader = EventReader(response)
            await reader.until(lambda m: m.kind == "state")
            await end(table, page)
            await reader.until(lambda m: m.kind == "signed_out")
            with pytest.raises(ConnectionError, match="the stream ended"):
                await reader.until(lambda m: False)
        async with page.stream() as response:
            assert response.status == 401
        assert (await page.post("/settings", {"turn_timer": 9}))[0] == 401


async def test_a_signed_out_page_with_an_open_view_is_told_and_keeps_watching(tmp_path):
    async with serving(tmp_path) as (table, page):
        await page.sign_in()
        async with page.stream() as response:
            reader = EventReader(response)
            await reader.until(lambda m: m.kind == "state")
            await page.post("/logout", {})
            await reader.until(lambda m: m.kind == "signed_out")
            await table.tap("seat1")
            await reader.until(lambda m: m.kind == "game")


@pytest.mark.parametrize("path", ["/", "/remote", "/events"])
async def test_a_request_for_another_name_is_refused(tmp_path, path):
    async with serving(tmp_path) as (_table, page):
        port = page.origin.rpartition(":")[2]
        async with page.session.get(
            page.origin + path, headers={"Host": f"evil.example:{port}"}
        ) as response:
            assert response.status == 421


async def test_a_rebound_name_with_its_own_origin_changes_nothing(tmp_path):
    async with serving(tmp_path) as (table, page):
        await page.sign_in()
        port = page.origin.rpartition(":")[2]
        evil = f"evil.example:{port}"
        status, answer = await page.post(
            "/settings", {"turn_timer": 9}, Host=evil, Origin=f"http://{evil}"
        )
        assert status == 421 and answer == {"error": "this table has no such name"}
        assert table.daemon.table.settings.turn_timer != 9


async def test_the_names_the_table_answers_to_are_its_addresses_and_the_configs(tmp_path):
    async with serving(tmp_path, names=("uno.lan",)) as (_table, page):
        port = page.origin.rpartition(":")[2]
        for host in (f"uno.lan:{port}", f"UNO.lan.:{port}", f"localhost:{port}", "[::1]:80"):
            async with page.session.get(page.origin + "/", headers={"Host": host}) as response:
                assert response.status == 200, host


async def test_a_request_without_a_host_is_answered(tmp_path):
    async with serving(tmp_path) as (_table, page):
        port = int(page.origin.rpartition(":")[2])
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.0\r\n\r\n")  # no Host: no browser's, no name rebound
        async with asyncio.timeout(30):
            status = await reader.readline()
        writer.close()
        assert b" 200 " in status


async def test_a_change_that_comes_as_the_table_stops_is_answered_not_a_fault(tmp_path, caplog):
    async with serving(tmp_path) as (table, page):
        await page.sign_in()
        table.daemon._inbox.close()  # the table stops: what it is asked now is too late
        status, answer = await page.post("/command", {"action": "pause"})
        assert (status, answer) == (503, {"error": "the table is stopping"})
        status, answer = await page.post("/settings", {"turn_timer": 9})
        assert (status, answer) == (503, {"error": "the table is stopping"})
    assert "Traceback" not in caplog.text and "Error handling request" not in caplog.text


@pytest.mark.parametrize("streams", [connections_module.MAX_STREAMS, 0], ids=["let in", "refused"])
async def test_a_page_lost_as_its_stream_starts_is_no_fault(tmp_path, monkeypatch, caplog, streams):
    monkeypatch.setattr(connections_module, "MAX_STREAMS", streams)
    serve, served = LiveViews.serve, asyncio.Event()

    async def as_the_connection_is_lost(self, request, session):
        request.transport.abort()  # the page's connection drops just as its stream starts
        try:
            return await serve(self, request, session)
        finally:
            served.set()

    monkeypatch.setattr(LiveViews, "serve", as_the_connection_is_lost)
    async with serving(tmp_path) as (table, page):
        assert table.web is not None
        async with asyncio.timeout(30):
            with contextlib.suppress(aiohttp.ClientError):
                async with page.stream():
                    pass
            await served.wait()
        assert table.web.connections.streams == 0
    assert "Traceback" not in caplog.text and "Error handling request" not in caplog.text
