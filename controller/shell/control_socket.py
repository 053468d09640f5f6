"""The running table's door for the shell: a Unix socket in its state directory, through which
`flashtable settings` shows, changes or resets the settings of the table that runs there. The
running daemon is the one writer of settings.json (docs/state.md): the shell writes the file
itself only when no table listens.

One JSON object a line each way. Asked: `{"show": true}`, `{"set": {KEY: VALUE, ...}}` or
`{"reset": true}`; answered: `{"settings": {...}, "changed": [KEY, ...], "not_saved": REASON}`
(`changed`: the keys that differ from the config; `not_saved`: why the disk refused the file,
or null) or `{"error": REASON}`. The socket is its owner's alone (mode 600): the service's
user and root, as `sudo flashtable settings set ...` is.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from ..errors import DamagedFile, TableError, TableUnreachable
from ..game import Table
from ..requests import ChangeSettings, Request, ResetSettings
from ..settings import Settings
from ..storage.safe_read import parse_json
from ..storage.statefile import reason_of
from .settings_keeper import SettingsKeeper

log = logging.getLogger(__name__)

SOCKET_NAME = "control.sock"
MAX_LINE = 4096  # bytes of a request or an answer: every setting at once fits in a third
ASK_TIME = 2.0  # seconds a client has to send its request
ANSWER_TIME = 10.0  # seconds the shell waits for the answer (a table may still be starting)
MAX_CLIENTS = 4  # at once; one more is closed unanswered
ADDRESS_MAX = 107  # bytes of a socket's path the kernel takes (sun_path, its last NUL)


@contextlib.contextmanager
def _address(path: Path) -> Iterator[str]:
    """An address for `path` that the kernel takes: the path itself, or, when it is too long,
    the same file through a descriptor of its directory (/proc/self/fd/N/NAME)."""
    if len(os.fsencode(path)) <= ADDRESS_MAX:
        yield str(path)
        return
    fd = os.open(path.parent, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        yield f"/proc/self/fd/{fd}/{path.name}"
    finally:
        os.close(fd)


def _answers(address: str) -> bool:
    """Whether a table listens at `address` (another table on the same state directory)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(address)
        except OSError:
            return False
    return True


class Host(Protocol):
    """What the socket sees of the running daemon, and what it may ask of it."""

    @property
    def table(self) -> Table: ...

    @property
    def settings_keeper(self) -> SettingsKeeper: ...

    def submit(self, request: Request) -> concurrent.futures.Future[object]: ...


class ControlSocket:
    """Bound when the daemon is built, before it reads its settings, so that a change asked
    for from then on reaches this table; answered while it runs; removed when it stops."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / SOCKET_NAME
        self._sock = self._bind()
        self._server: asyncio.Server | None = None
        self._clients = 0

    def _bind(self) -> socket.socket | None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with _address(self.path) as address:
                with contextlib.suppress(FileNotFoundError):
                    if stat.S_ISSOCK(os.lstat(self.path).st_mode) and not _answers(address):
                        os.unlink(self.path)  # left by a table that ended without its stop
                sock.bind(address)
                os.chmod(address, 0o600)
            sock.listen(MAX_CLIENTS)  # asyncio's server makes it non-blocking
        except OSError as err:
            sock.close()
            log.warning(
                "no socket for `flashtable settings` at %s: %s; the shell cannot reach this "
                "table, so change its settings from the menu or a remote",
                self.path,
                reason_of(err),
            )
            return None
        return sock

    async def serve(self, host: Host) -> None:
        """Answer the shell's requests to `host` from now on."""
        if self._sock is not None and self._server is None:
            # A plain server on the socket already bound: asyncio's Unix server would also
            # remove the file at its close, by the address it was bound at (3.13), which a
            # deep directory's is not for long.
            self._server = await asyncio.start_server(
                lambda reader, writer: self._client(host, reader, writer),
                sock=self._sock,
                limit=MAX_LINE,
            )

    def close(self) -> None:
        """No more requests: the socket goes (a shell then writes the file itself)."""
        if self._server is not None:
            self._server.close()
        elif self._sock is not None:
            self._sock.close()
        if self._sock is not None:
            with contextlib.suppress(OSError), _address(self.path) as address:
                os.unlink(address)
        self._sock = None

    async def _client(
        self, host: Host, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        if self._clients >= MAX_CLIENTS:
            writer.close()
            return
        self._clients += 1
        try:
            async with asyncio.timeout(ASK_TIME):
                line = await reader.readline()
            if not line:
                return  # asked nothing: a look whether a table answers here
            answer = await _answer(host, line)
            writer.write(json.dumps(answer).encode() + b"\n")
            await writer.drain()
        except TimeoutError:
            log.warning("flashtable settings: a client asked nothing within %g s", ASK_TIME)
        except ValueError:  # the line went on past the bound
            log.warning("flashtable settings: a request longer than %d bytes not taken", MAX_LINE)
        except ConnectionError as err:
            log.warning("flashtable settings: a client's connection failed: %s", reason_of(err))
        finally:
            self._clients -= 1
            writer.close()


async def _answer(host: Host, line: bytes) -> dict[str, object]:
    try:
        asked = parse_json(line)
        if not isinstance(asked, dict) or len(asked) != 1:
            raise DamagedFile('not one of {"show": true}, {"set": {...}}, {"reset": true}')
        [(what, value)] = asked.items()
        if what == "show":
            settings = host.table.settings
        else:
            if what == "set" and isinstance(value, dict):
                request: ChangeSettings | ResetSettings = ChangeSettings(value)
            elif what == "reset":
                request = ResetSettings()
            else:
                raise DamagedFile(f"nothing the table does for {what!r}")
            answered = await asyncio.wrap_future(host.submit(request))
            assert isinstance(answered, Settings)
            settings = answered
    except TableError as err:  # a value refused, the table stopped, a request not understood
        return {"error": str(err)}
    keeper = host.settings_keeper
    return {
        "settings": dict(settings),
        "changed": [key for key, value in settings.items() if value != keeper.base[key]],
        "not_saved": keeper.not_saved,
    }


def ask(
    state_dir: Path, request: dict[str, object], wait: float = ANSWER_TIME
) -> dict[str, object] | None:
    """The answer of the table running on `state_dir` to `request`; None when no table runs
    there (nothing listens). Raises TableUnreachable when one runs and gives no answer: the
    request may or may not be taken, so nothing may be done in its place."""
    where = f"the table running on {state_dir}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(wait)
        try:
            with _address(state_dir / SOCKET_NAME) as address:
                sock.connect(address)
        except (FileNotFoundError, ConnectionRefusedError, NotADirectoryError):
            return None
        except OSError as err:
            raise TableUnreachable(f"cannot reach {where}: {reason_of(err)}") from None
        try:
            sock.sendall(json.dumps(request).encode() + b"\n")
            data = sock.makefile("rb").readline(MAX_LINE)
        except TimeoutError:
            raise TableUnreachable(
                f"{where} did not answer within {wait:g} s: it may yet take the change"
            ) from None
        except OSError as err:
            raise TableUnreachable(f"{where} did not answer: {reason_of(err)}") from None
    try:
        answer = parse_json(data) if data.endswith(b"\n") else None
    except DamagedFile:
        answer = None
    if not isinstance(answer, dict):
        raise TableUnreachable(f"{where} closed the connection without an answer")
    return answer
