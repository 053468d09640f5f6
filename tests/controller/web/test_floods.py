"""No number of connections, streams or slow clients stops the table or shuts out a new
viewer: they are bounded per client and overall, a connection that sends no whole request in
time is closed, and every refusal is logged at most once a minute per cause. Each flood is
bounded in count and time, on loopback, from several of its addresses (127.0.0.N)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import select
import socket
import time
import urllib.request
from collections.abc import AsyncIterator

import aiohttp

from controller.simulation.table import SimTable
from controller.web import connections as connections_module
from controller.web import server as server_module

from .conftest import web_config
from .running_table import RunningTable
from .sse import EventReader

WAIT = 30.0  # seconds: only a limit for what never comes


def client(n: int) -> aiohttp.ClientSession:
    """A browser at 127.0.0.N."""
    connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{n}", 0), limit=0)
    return aiohttp.ClientSession(connector=connector)


async def connection(port: int, n: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.0.{n}", 0))


async def closed(reader: asyncio.StreamReader) -> bytes:
    """What the server sent before it closed the connection. A close with bytes of ours still
    unread in the server's socket reaches us as a reset (TCP's rule, not the server's choice):
    that too is closed, after what came before it."""
    received = b""
    async with asyncio.timeout(WAIT):
        try:
            while chunk := await reader.read(65536):
                received += chunk
        except ConnectionResetError:
            pass
    return received


@contextlib.asynccontextmanager
async def table(tmp_path, **options: object) -> AsyncIterator[tuple[SimTable, int]]:
    async with SimTable(web_config(tmp_path, **options), seed=2) as running:
        assert running.web is not None
        yield running, running.web.port


async def test_one_client_cannot_shut_out_every_viewer(tmp_path):
    async with table(tmp_path) as (_running, port), client(2) as greedy, client(1) as viewer:
        url = f"http://127.0.0.1:{port}/events"
        held, refused = [], 0
        for _ in range(connections_module.MAX_STREAMS):
            response = await greedy.get(url)
            reader = EventReader(response)
            first = await reader.until(lambda m: m.kind in ("state", "refused"))
            if first.kind == "refused":
                refused += 1
                response.close()
            else:
                held.append(response)
        assert len(held) == connections_module.MAX_STREAMS_PER_CLIENT
        assert refused == connections_module.MAX_STREAMS - len(held)
        async with viewer.get(url) as response:
            await EventReader(response).until(lambda m: m.kind == "state")
        for response in held:
            response.close()


async def test_a_client_that_sends_its_request_a_line_at_a_time_is_closed(tmp_path, monkeypatch):
    monkeypatch.setattr(connections_module, "IDLE_TIMEOUT", 0.5)
    async with table(tmp_path) as (running, port):
        slow = [await connection(port, 2 + n % 4) for n in range(30)]
        for _, writer in slow:
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")

        async def trickle() -> None:  # a header line now and then, never the end
            for line in range(1000):
                await asyncio.sleep(0.1)
                for _, writer in slow:
                    if not writer.is_closing():
                        writer.write(f"X-Line-{line}: more\r\n".encode())

        trickling = asyncio.create_task(trickle())
        try:
            for reader, _ in slow:
                assert await closed(reader) == b""  # closed, without an answer
        finally:
            trickling.cancel()
            for _, writer in slow:
                writer.close()
        assert running.web is not None
        assert len(running.web.connections) == 0
        cause = "web page: a connection closed: no whole request within 0 s"
        assert running.web.tally.counts[cause] == 30


async def test_a_body_announced_too_large_or_sent_too_slowly_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(server_module, "BODY_TIMEOUT", 0.5)
    async with table(tmp_path) as (running, port):
        host = f"127.0.0.1:{port}".encode()

        def sign_in(length: int) -> bytes:  # its body never sent whole: one byte of it
            return (
                b"POST /login HTTP/1.1\r\nHost: " + host + b"\r\nOrigin: http://" + host + b"\r\n"
                b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n{" % length
            )

        reader, writer = await connection(port, 2)
        writer.write(sign_in(10_000_000_000))
        answer = await closed(reader)
        assert answer.startswith(b"HTTP/1.1 413 ") and b"at most 1024 bytes" in answer
        reader, writer = await connection(port, 2)
        writer.write(sign_in(100))
        answer = await closed(reader)
        assert answer.startswith(b"HTTP/1.1 408 ") and b"came too slowly" in answer
        writer.close()
        assert running.web is not None and len(running.web.connections) == 0


async def test_a_new_viewer_takes_the_place_of_an_idle_connection(tmp_path, monkeypatch):
    monkeypatch.setattr(connections_module, "MAX_CONNECTIONS", 20)
    async with table(tmp_path) as (running, port):
        idle = [await connection(port, 2 + n % 10) for n in range(60)]
        async with client(1) as viewer, viewer.get(f"http://127.0.0.1:{port}/") as response:
            assert response.status == 200
        assert running.web is not None and len(running.web.connections) <= 20
        for _, writer in idle:
            writer.close()


async def test_a_client_past_its_bound_is_turned_away_and_another_comes_in(tmp_path):
    async with table(tmp_path) as (running, port):
        bound = connections_module.MAX_CONNECTIONS_PER_CLIENT
        held = [await connection(port, 2) for _ in range(bound)]
        turned_away = [await connection(port, 2) for _ in range(8)]
        for reader, _ in turned_away:
            answer = await closed(reader)
            assert answer.startswith(b"HTTP/1.1 503 ") and b"Too many viewers" in answer
        async with client(1) as viewer, viewer.get(f"http://127.0.0.1:{port}/") as response:
            assert response.status == 200
        assert running.web is not None
        assert running.web.tally.counts["web page: too many viewers: a connection turned away"] == 8
        for _, writer in held + turned_away:
            writer.close()


def idle_connections(port: int, count: int) -> list[socket.socket]:
    """`count` connections from 127.0.0.2 to .9 that never send a byte, all asked for at
    once; returned once each has been taken (or refused) by the table."""
    held = []
    for n in range(count):
        sock = socket.socket()
        sock.bind((f"127.0.0.{2 + n % 8}", 0))
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
        held.append(sock)
    waiting = select.poll()
    for sock in held:
        waiting.register(sock, select.POLLOUT)
    left, deadline = len(held), time.monotonic() + WAIT
    while left and time.monotonic() < deadline:
        for fd, _ in waiting.poll(100):
            waiting.unregister(fd)
            left -= 1
    assert not left, f"{left} connections never taken"
    return held


def page_answers(url: str) -> bool:
    """Whether a new viewer is given the page, trying again while it is not."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=WAIT) as answer:
                return answer.status == 200
        except OSError:
            time.sleep(0.2)  # refused or reset: a flood's moment; try again
    return False


def test_a_flood_of_idle_connections_past_the_open_files_limit_leaves_the_table_playing(
    tmp_path,
):
    # 256 descriptors: the daemon's own, and those the page may take, bounded to fit.
    running = RunningTable(tmp_path, open_files=256)
    try:
        held = idle_connections(running.port, 300)
        assert page_answers(running.url)
        running.do("tap seat1")
        lights = running.do("lights")  # the table still answers a press
        assert lights.split()[0] == "on", (lights, running.do("lcd"), "".join(running.log))
        for sock in held:
            sock.close()
        assert running.process.poll() is None
    finally:
        log = running.stop()
    assert "Traceback" not in log and "out of system resource" not in log
    said: dict[str, list[float]] = {}  # when each cause of trouble was logged
    for stamp, line in zip(running.logged_at, running.log, strict=True):
        if "web page:" in line or "asyncio" in line:
            said.setdefault(line.split(" (")[0], []).append(stamp)
    for stamps in said.values():  # once a minute at most (less the reading's own lag)
        assert all(b - a > 55 for a, b in itertools.pairwise(stamps)), said
