"""The web server on the daemon's own loop (aiohttp): the page and its assets, the one
stream of the table (`feed`), and the remote's sign-in, settings and commands, which go in
through the daemon's `submit` door exactly as the MQTT bridge's do (`DaemonControl`).

Every request must name the table (its Host header, `host_names`); every change is a
same-origin JSON POST from a signed-in page: a cross-site request, a form, a body over the
limit or too slow, or a value the settings model refuses changes nothing and gets a one-line
reason. The connections and streams are bounded (`connections`), the sign-ins queued
(`sign_in`). Nothing secret is logged: no password, no cookie, no request line.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from ..catalogs import LANGUAGES
from ..config import WebConfig
from ..errors import ConfigError, MessageRefused, TableStopped
from ..remote.control import DaemonControl
from ..remote.inbound import MAX_PAYLOAD, order, settings_update
from ..shell.netinfo import ip_addresses
from ..tally import TroubleTally
from .connections import Connections
from .feed import Feed
from .host_names import answers_to, table_names
from .live_view import LiveViews
from .password import PasswordHash, read_hash
from .remote import remote_model
from .sessions import COOKIE, Sessions
from .sign_in import SignInRefused, SignIns
from .words import words_json

if TYPE_CHECKING:
    from ..shell.daemon import Daemon

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
ASSETS = {  # path: (file, content type); nothing else on the disk is ever served
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/evening.js": ("evening.js", "text/javascript; charset=utf-8"),
    "/remote.js": ("remote.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/icon.svg": ("icon.svg", "image/svg+xml"),
    "/sentences.js": ("sentences.js", "text/javascript; charset=utf-8"),
    "/words.js": ("words.js", "text/javascript; charset=utf-8"),
    "/room": ("room.html", "text/html; charset=utf-8"),
    "/room.js": ("room.js", "text/javascript; charset=utf-8"),
    "/room.css": ("room.css", "text/css; charset=utf-8"),
}
STOPPING = "the table is stopping"  # a change that came too late: the page may ask again
MAX_BODY = 4096  # bytes aiohttp reads of a request body at most (a change takes ≤ 1024)
BODY_TIMEOUT = 10.0  # seconds a request's body may take to come whole
LINGER = 1.0  # seconds a body left unread (refused) is still read before the connection closes
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def _error(status: int, reason: str) -> web.Response:
    return web.json_response({"error": reason}, status=status)


class Refusal(Exception):
    """A request that changes nothing: its HTTP status and the reason, one line."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status

    def answer(self) -> web.Response:
        return _error(self.status, str(self))


class WebServer:
    """The page of one table on its daemon's loop: `start`, then `stop`."""

    def __init__(self, config: WebConfig, daemon: Daemon) -> None:
        self.config = config
        self._control = DaemonControl(daemon)
        self._daemon = daemon
        self.feed = Feed(daemon.table, daemon.clock.now)
        self._control.watch(self.feed.on_event, self.feed.on_step)
        daemon.publisher.look(self.feed.on_view)
        if daemon.publisher.shown is not None:
            self.feed.on_view(daemon.publisher.shown)
        self.tally = TroubleTally(log)
        self.connections = Connections(self.tally)
        self.live = LiveViews(self.feed, self.connections, config.view_needs_password)
        self._sessions = Sessions(daemon.clock, self.live.session_ended)
        self._names = table_names(config.names)
        self._hash: PasswordHash | None = None
        self.sign_ins = SignIns(self._matches)
        self._assets = {path: (STATIC / name).read_bytes() for path, (name, _) in ASSETS.items()}
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._door])
        app.router.add_get("/events", self._events)
        app.router.add_get("/remote", self._remote)
        for language in LANGUAGES:  # a fixed route each: nothing of the request names a file
            app.router.add_get(f"/words/{language}.json", self._words)
        app.router.add_post("/login", self._login)
        app.router.add_post("/logout", self._logout)
        app.router.add_post("/settings", self._settings)
        app.router.add_post("/command", self._command)
        for path in ASSETS:
            app.router.add_get(path, self._asset)
        # A page that goes away gives its stream's place back at once (its handler is
        # cancelled), not at the stream's next write.
        self._runner = web.AppRunner(
            app,
            access_log=None,
            handle_signals=False,
            shutdown_timeout=1.0,
            handler_cancellation=True,
            lingering_time=LINGER,
        )
        self.port = config.port

    async def start(self) -> None:
        if self.config.password_file is not None:
            try:
                self._hash = read_hash(self.config.password_file)
            except ConfigError as err:
                log.error("web page: %s; the remote stays locked", err)
        await self._runner.setup()
        handler = self._runner.server
        assert handler is not None
        try:
            self.connections.listen(self.config.host, self.config.port, handler)
        except OSError:
            await self._runner.cleanup()
            raise
        log.info("web page on %s", " ".join(self.urls()))
        if self._hash is None:
            log.info("web page: no password set, so the remote is off (flashtable web-password)")

    def urls(self) -> list[str]:
        """Where a browser finds the page: the table's addresses when it listens on all."""
        host, port = self.config.host, self.config.port
        if host in ("0.0.0.0", "::"):
            hosts = [*ip_addresses(), "localhost"]
        else:
            hosts = [f"[{host}]" if ":" in host else host]
        return [f"http://{name}:{port}/" for name in hosts]

    async def stop(self) -> None:
        self.connections.close()
        self.feed.drop_all()
        self.sign_ins.close()
        self._sessions.close()
        await self._runner.cleanup()
        self.tally.close()

    # -- what every answer carries -------------------------------------------------------

    @web.middleware
    async def _door(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        """Every request: for this table, with a body within bounds, counted while it is
        answered (a connection answering is never idle), and the headers every answer has."""
        self.connections.answering(request)
        try:
            host = request.headers.get("Host")  # none: no browser's, so no name rebound
            if host is not None and not answers_to(host, self._names):
                response: web.StreamResponse = _error(421, "this table has no such name")
            elif (request.content_length or 0) > MAX_PAYLOAD:
                response = _error(413, f"a request body may have at most {MAX_PAYLOAD} bytes")
                response.force_close()  # its body is never read
            else:
                response = await handler(request)
        finally:
            self.connections.answered(request)
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    def _signed_in(self, request: web.Request) -> bool:
        return self._sessions.valid(request.cookies.get(COOKIE))

    # -- the page and its stream ---------------------------------------------------------

    async def _asset(self, request: web.Request) -> web.Response:
        _, kind = ASSETS[request.path]
        return web.Response(
            body=self._assets[request.path],
            content_type=kind.split(";")[0],
            charset="utf-8" if "charset" in kind else None,
        )

    async def _words(self, request: web.Request) -> web.Response:
        """A language's words for the page: kept by the browser, asked again each time with
        their tag (they change only with the table's software)."""
        body, tag = words_json(request.path.removeprefix("/words/").removesuffix(".json"))
        headers = {"ETag": tag, "Cache-Control": "no-cache"}
        if tag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        return web.Response(
            body=body, content_type="application/json", charset="utf-8", headers=headers
        )

    async def _events(self, request: web.Request) -> web.StreamResponse:
        token = request.cookies.get(COOKIE)
        signed_in = self._sessions.valid(token)
        if self.config.view_needs_password and not signed_in:
            return _error(401, "sign in to see the table")
        return await self.live.serve(request, token if signed_in else None)

    async def _remote(self, request: web.Request) -> web.Response:
        return web.json_response(
            {
                "signed_in": self._signed_in(request),
                "password_set": self._hash is not None,
                "view_needs_password": self.config.view_needs_password,
                **remote_model(self._daemon.table, request.query.get("lang", "en")),
            }
        )

    # -- changes -------------------------------------------------------------------------

    async def _body(self, request: web.Request, *, signed_in: bool = True) -> bytes:
        """The body of a change, once the request has shown it may make one; raises the
        answer that refuses it otherwise."""
        origin = request.headers.get("Origin")
        fetch_site = request.headers.get("Sec-Fetch-Site")
        own = f"{request.scheme}://{request.host}"
        if fetch_site not in (None, "same-origin") or (origin is not None and origin != own):
            raise Refusal(403, "a change must come from the table's own page")
        if origin is None and fetch_site is None:
            raise Refusal(403, "a change must come from the table's own page (no Origin)")
        if request.content_type != "application/json":
            raise Refusal(415, "a change is sent as application/json")
        if signed_in and not self._signed_in(request):
            raise Refusal(401, "sign in first")
        try:
            async with asyncio.timeout(BODY_TIMEOUT):
                body = await request.read()
        except web.HTTPRequestEntityTooLarge:
            raise Refusal(413, f"a request body may have at most {MAX_PAYLOAD} bytes") from None
        except TimeoutError:
            self.tally.note(f"web page: a request body not whole within {BODY_TIMEOUT:.0f} s")
            raise Refusal(408, "the request's body came too slowly") from None
        if len(body) > MAX_PAYLOAD:
            raise Refusal(413, f"a request body may have at most {MAX_PAYLOAD} bytes")
        return body

    async def _login(self, request: web.Request) -> web.Response:
        try:
            body = await self._body(request, signed_in=False)
        except Refusal as refused:
            return refused.answer()
        if self._hash is None:
            return _error(403, "no password is set: flashtable web-password sets one")
        try:
            password = json.loads(body)["password"]
        except (ValueError, TypeError, KeyError):
            password = None
        if not isinstance(password, str):
            return _error(400, 'send {"password": "..."}')
        try:
            right = await self.sign_ins.check(request.remote or "?", password)
        except SignInRefused as refused:
            return _error(refused.status, str(refused))
        if not right:
            self.tally.note(f"web page: a wrong password from {request.remote}")
            return _error(401, "wrong password")
        response = web.json_response({"signed_in": True})
        token = self._sessions.new()
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
        return response

    async def _logout(self, request: web.Request) -> web.Response:
        try:
            await self._body(request, signed_in=False)
        except Refusal as refused:
            return refused.answer()
        self._sessions.end(request.cookies.get(COOKIE))
        response = web.json_response({"signed_in": False})
        response.del_cookie(COOKIE, path="/")
        return response

    async def _settings(self, request: web.Request) -> web.Response:
        try:
            change = settings_update(await self._body(request))
        except Refusal as refused:
            return refused.answer()
        except MessageRefused as refused:
            return _error(400, str(refused))
        try:
            settings = await self._control.change_settings(change)
        except MessageRefused as refused:  # the table refused it as the menu would
            return _error(409, str(refused))
        except TableStopped:  # it came as the table stops (a restart): try again soon
            return _error(503, STOPPING)
        return web.json_response({"settings": dict(settings)})

    async def _command(self, request: web.Request) -> web.Response:
        try:
            command = order(await self._body(request))
        except Refusal as refused:
            return refused.answer()
        except MessageRefused as refused:
            return _error(400, str(refused))
        try:
            done = await self._control.carry_out(command)
        except MessageRefused as refused:  # the table cannot do it now
            return _error(409, str(refused))
        except TableStopped:
            return _error(503, STOPPING)
        said = {} if done.said is None else {"said": done.said, "whole": done.whole}
        return web.json_response({"done": command.action, **said})

    def _matches(self, password: str) -> bool:
        """Whether `password` is the remote's (scrypt: run off the loop, by `SignIns`)."""
        return self._hash is not None and self._hash.matches(password)
