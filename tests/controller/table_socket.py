"""Something on the table's socket in the place of a table, for the shell that asks it."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

from controller.shell.control_socket import MAX_LINE, SOCKET_NAME


@contextlib.contextmanager
def listening(state_dir: Path, answer: bytes | None, *, reads: bool = True) -> Iterator[None]:
    """Something on the table's socket that reads a request (unless not `reads`: it hangs up
    at once) and answers `answer`, or, for None, holds the connection unanswered while it
    lasts."""
    held: list[socket.socket] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(state_dir / SOCKET_NAME))
        sock.listen()
        sock.settimeout(60)  # a client that never comes ends the test, not the suite

        def serve() -> None:
            connection, _ = sock.accept()
            held.append(connection)
            if not reads:
                connection.close()
                return
            connection.recv(MAX_LINE)
            if answer is not None:
                connection.sendall(answer)
                connection.shutdown(socket.SHUT_WR)

        thread = threading.Thread(target=serve)
        thread.start()
        try:
            yield
        finally:
            thread.join()
            for connection in held:
                connection.close()
