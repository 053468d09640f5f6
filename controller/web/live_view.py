"""The page's live streams (`GET /events`): each bounded by `Connections`, fed by the one
`Feed`, and known by the session that opened it, so that a sign-out or an expiry reaches
every page of that session at once."""

from __future__ import annotations

from aiohttp import web

from .connections import TOO_MANY, Connections
from .feed import Feed, Stream, chunk

KEEPALIVE = 20.0  # seconds of silence before a stream says it is still there
REFUSED_RETRY_MS = 10_000  # how soon a page turned away ("too many viewers") tries again


class LiveViews:
    def __init__(self, feed: Feed, connections: Connections, view_needs_password: bool):
        self._feed = feed
        self._connections = connections
        self._view_needs_password = view_needs_password
        self._of_session: dict[str, set[Stream]] = {}

    async def serve(self, request: web.Request, session: str | None) -> web.StreamResponse:
        """A stream for `request`, of `session` when it is signed in; a page turned away
        is told so in a message of the stream, which a page reads (a status it cannot)."""
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
        )
        let_in = self._connections.open_stream(request)
        try:
            await response.prepare(request)
            if let_in:
                await self._follow(request, response, session)
            else:
                refused = chunk("refused", {"error": TOO_MANY})
                await response.write(f"retry: {REFUSED_RETRY_MS}\n\n".encode() + refused)
        except (ConnectionError, RuntimeError):
            pass  # the page went away, even before its stream began (aiohttp says so either way)
        finally:
            if let_in:
                self._connections.close_stream(request)
        return response

    async def _follow(
        self, request: web.Request, response: web.StreamResponse, session: str | None
    ) -> None:
        transport = request.transport

        def drop() -> None:  # too slow: its socket goes at once, whatever it was sending
            if transport is not None:
                transport.abort()

        last_id = request.headers.get("Last-Event-ID") or request.query.get("since")
        stream = self._feed.open(drop, last_id)
        if session is not None:
            self._of_session.setdefault(session, set()).add(stream)
        try:
            while (data := await stream.next(KEEPALIVE)) is not None:
                await response.write(data or b": still here\n\n")
        finally:
            self._feed.close(stream)
            if session is not None and session in self._of_session:
                self._of_session[session].discard(stream)

    def session_ended(self, session: str) -> None:
        """Signed out, or expired: the session's pages are told, and where the view needs
        the password, their streams end."""
        signed_out = chunk("signed_out", {"signed_in": False})
        for stream in self._of_session.pop(session, set()):
            if self._view_needs_password:
                stream.finish(signed_out)
            else:
                stream.put(signed_out)
