"""The page's connections, taken from the listening socket here and counted for each client
(its address) and overall, so that no number of them, however slow, can stop the table or
shut out a new viewer (docs/web.md):

- a client past MAX_CONNECTIONS_PER_CLIENT is turned away at once: a few bytes ("too many
  viewers") and the socket closed, before anything is built for it;
- past MAX_CONNECTIONS, a new client takes the place of the longest idle connection of the
  client that holds the most, when that one holds two more than it; or is turned away;
- a connection is idle from its start and after each answer until a whole request has come;
  idle for IDLE_TIMEOUT, it is closed (a client that never asks, or asks a header line at a
  time);
- a live stream holds its connection; streams are bounded per client and overall.

At most ACCEPTS_PER_PASS connections are taken in one pass of the loop, so that a press
never waits behind a flood. Every refusal is counted, and logged at most once a minute per
cause (`TroubleTally`).
"""

from __future__ import annotations

import asyncio
import errno
import resource
import socket
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

from ..tally import TroubleTally

MAX_CONNECTIONS = 256  # open at once, whatever their clients
MAX_CONNECTIONS_PER_CLIENT = 32  # a browser opens 6 to a page; a few pages and a TV
MAX_STREAMS = 64  # live views at once
MAX_STREAMS_PER_CLIENT = 4  # live views from one address
IDLE_TIMEOUT = 10.0  # seconds a connection may take to send a whole request
BACKLOG = 1024  # connections the kernel holds for the loop to take (fewer if somaxconn is)
ACCEPTS_PER_PASS = 8
PAUSE = 1.0  # seconds the loop takes no connection when the process is out of descriptors
# Descriptors the daemon keeps for itself (its files, the LCD, the serial line, MQTT, the
# loop) beside the page's: a lower limit on open files lowers the bound to fit.
RESERVED = 64
TOO_MANY = "too many viewers"
_PAGE = b"<!doctype html><title>Flash Table</title><p>Too many viewers: try again soon.</p>\n"
REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Content-Type: text/html; charset=utf-8\r\n"
    b"Content-Length: " + str(len(_PAGE)).encode() + b"\r\n"
    b"Retry-After: 10\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n" + _PAGE
)
OUT_OF_DESCRIPTORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def connection_bound() -> int:
    """MAX_CONNECTIONS, or fewer under a low limit on open files: the page never takes the
    descriptors the daemon needs, however many clients come at once."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(1, min(MAX_CONNECTIONS, soft - RESERVED - ACCEPTS_PER_PASS))


@dataclass(eq=False)
class Connection:
    client: str
    idle_since: float
    transport: asyncio.Transport | None = None  # once made
    requests: int = 0  # being answered now
    stream: bool = False
    timeout: asyncio.TimerHandle | None = field(default=None, repr=False)

    @property
    def idle(self) -> bool:
        return self.transport is not None and self.requests == 0


class Connections:
    """The listening socket and the bounds, kept on the loop."""

    def __init__(self, tally: TroubleTally) -> None:
        self._tally = tally
        self._loop = asyncio.get_running_loop()
        self._open: dict[asyncio.BaseTransport, Connection] = {}
        self._per_client: Counter[str] = Counter()  # taken, made or not yet
        self._most: int | None = None
        self._streams: Counter[str] = Counter()
        self._listening: socket.socket | None = None
        self._handler: Callable[[], asyncio.Protocol] | None = None
        self.bound = connection_bound()

    def __len__(self) -> int:
        return self._per_client.total()

    @property
    def streams(self) -> int:
        return self._streams.total()

    # -- the listening socket -------------------------------------------------------------

    def listen(self, host: str, port: int, handler: Callable[[], asyncio.Protocol]) -> None:
        """Take connections on `host`:`port`, each served by a `handler()` protocol."""
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind((host, port))
            sock.listen(BACKLOG)
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        self._listening, self._handler = sock, handler
        self._loop.add_reader(sock.fileno(), self._take)

    def close(self) -> None:
        if self._listening is not None:
            self._loop.remove_reader(self._listening.fileno())
            self._listening.close()
            self._listening = None

    def _take(self) -> None:
        assert self._listening is not None
        for _ in range(ACCEPTS_PER_PASS):
            try:
                sock, peer = self._listening.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as err:
                if err.errno not in OUT_OF_DESCRIPTORS:
                    raise
                self._tally.note(f"web page: no connection taken for a while: {err.strerror}")
                self._loop.remove_reader(self._listening.fileno())
                self._loop.call_later(PAUSE, self._take_again)
                return
            client = str(peer[0])
            if self._room_for(client):
                self._made(sock, Connection(client, self._loop.time()))
            else:
                self._tally.note(f"web page: {TOO_MANY}: a connection turned away")
                turn_away(sock)

    def _take_again(self) -> None:
        if self._listening is not None:
            self._loop.add_reader(self._listening.fileno(), self._take)

    def _room_for(self, client: str) -> bool:
        held = self._per_client[client]
        if held >= MAX_CONNECTIONS_PER_CLIENT:
            return False
        if len(self) < self.bound:
            return True
        if self._most_held() <= held + 1:  # no client holds enough to give way (a flood)
            return False
        idle: dict[str, Connection] = {}  # each client's longest idle
        for c in self._open.values():
            if c.idle and (c.client not in idle or c.idle_since < idle[c.client].idle_since):
                idle[c.client] = c
        holders = [name for name in idle if self._per_client[name] > held + 1]
        if not holders:
            return False
        most = max(holders, key=lambda name: self._per_client[name])
        self._tally.note("web page: an idle connection closed to make room for a new client")
        self._close(idle[most])
        return True

    def _most_held(self) -> int:
        """The most connections one client holds (kept between changes: a flood of
        clients turned away asks it for each)."""
        if self._most is None:
            self._most = max(self._per_client.values(), default=0)
        return self._most

    def _made(self, sock: socket.socket, connection: Connection) -> None:
        self._per_client[connection.client] += 1
        self._most = None
        assert self._handler is not None
        handler = self._handler
        made = self._loop.connect_accepted_socket(lambda: Door(self, connection, handler), sock)
        task = self._loop.create_task(made)
        task.add_done_callback(lambda done: self._made_or_not(done, connection, sock))

    def _made_or_not(
        self, done: asyncio.Task[object], connection: Connection, sock: socket.socket
    ) -> None:
        failed = done.cancelled() or done.exception() is not None
        if failed and connection.transport is None:  # no transport took the socket
            sock.close()
            self._forget(connection)

    # -- connections ----------------------------------------------------------------------

    def opened(self, connection: Connection, transport: asyncio.Transport) -> None:
        connection.transport = transport
        self._open[transport] = connection
        self._wait_for_a_request(connection)

    def gone(self, connection: Connection) -> None:
        if connection.transport is None or self._open.pop(connection.transport, None) is None:
            return
        self._forget(connection)

    def _forget(self, connection: Connection) -> None:
        if connection.timeout is not None:
            connection.timeout.cancel()
        self._per_client[connection.client] -= 1
        if not self._per_client[connection.client]:
            del self._per_client[connection.client]
        self._most = None
        if connection.stream:
            self._end_stream(connection)

    def _close(self, connection: Connection) -> None:
        self.gone(connection)
        assert connection.transport is not None
        connection.transport.close()

    def _wait_for_a_request(self, connection: Connection) -> None:
        connection.idle_since = self._loop.time()
        connection.timeout = self._loop.call_later(IDLE_TIMEOUT, self._too_slow, connection)

    def _too_slow(self, connection: Connection) -> None:
        self._tally.note(
            f"web page: a connection closed: no whole request within {IDLE_TIMEOUT:.0f} s"
        )
        self._close(connection)

    # -- requests and streams (from the server's middleware and stream handler) ----------

    def answering(self, request: web.BaseRequest) -> None:
        connection = self._open.get(request.transport)  # type: ignore[arg-type]
        if connection is None:
            return
        connection.requests += 1
        if connection.timeout is not None:
            connection.timeout.cancel()
            connection.timeout = None

    def answered(self, request: web.BaseRequest) -> None:
        connection = self._open.get(request.transport)  # type: ignore[arg-type]
        if connection is None:
            return
        connection.requests -= 1
        if connection.idle:
            self._wait_for_a_request(connection)

    def open_stream(self, request: web.BaseRequest) -> bool:
        """Whether `request` may hold a live stream; counted until `close_stream`."""
        connection = self._open.get(request.transport)  # type: ignore[arg-type]
        if connection is None:
            return False
        if self.streams >= MAX_STREAMS or self._streams[connection.client] >= (
            MAX_STREAMS_PER_CLIENT
        ):
            self._tally.note(f"web page: {TOO_MANY}: a live view refused")
            return False
        connection.stream = True
        self._streams[connection.client] += 1
        return True

    def close_stream(self, request: web.BaseRequest) -> None:
        connection = self._open.get(request.transport)  # type: ignore[arg-type]
        if connection is not None and connection.stream:
            self._end_stream(connection)

    def _end_stream(self, connection: Connection) -> None:
        connection.stream = False
        self._streams[connection.client] -= 1
        if not self._streams[connection.client]:
            del self._streams[connection.client]


def turn_away(sock: socket.socket) -> None:
    """Say "too many viewers" as far as the socket takes it at once, and close it."""
    try:
        sock.setblocking(False)
        sock.send(REFUSAL)
    except OSError:
        pass  # gone already, or its buffer full: the close says enough
    sock.close()


class Door(asyncio.Protocol):
    """One connection's protocol: aiohttp's, its start and end told to `Connections`."""

    def __init__(
        self,
        connections: Connections,
        connection: Connection,
        handler: Callable[[], asyncio.Protocol],
    ) -> None:
        self._connections = connections
        self._connection = connection
        self._inner = handler()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._connections.opened(self._connection, transport)
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._connections.gone(self._connection)
        self._inner.connection_lost(exc)
