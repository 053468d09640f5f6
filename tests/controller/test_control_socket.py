"""The running table's door for the shell: one JSON object a line each way, a request that is
none of show, set and reset answered with an error, at most four clients at once, a client
that asks nothing in time let go, and nothing past a line's bound taken, either way."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
from pathlib import Path

import pytest

from controller.config import Config
from controller.errors import TableUnreachable
from controller.settings import Settings
from controller.shell import control_socket
from controller.shell.control_socket import MAX_CLIENTS, MAX_LINE, SOCKET_NAME, ask
from controller.simulation.table import SimTable

from .table_socket import listening

NOT_ONE = 'not one of {"show": true}, {"set": {...}}, {"reset": true}'


async def asked(state_dir: Path, request: object) -> dict[str, object] | None:
    """`ask`, in a thread of its own: the table it asks answers on this loop."""
    return await asyncio.to_thread(ask, state_dir, request)  # type: ignore[arg-type]


class Client:
    """A connection to the table's socket, made and read in a thread of its own."""

    def __init__(self, state_dir: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(60)
        self.sock.connect(str(state_dir / SOCKET_NAME))

    @classmethod
    async def connected(cls, state_dir: Path) -> Client:
        return await asyncio.to_thread(cls, state_dir)

    async def exchange(self, request: bytes) -> bytes:
        """The answer's line to `request`, then the rest until the table hangs up; b"" when
        it hung up unanswered."""
        return await asyncio.to_thread(self._exchange, request)

    def _exchange(self, request: bytes) -> bytes:
        with self.sock:
            try:
                self.sock.sendall(request)
                answer = self.sock.makefile("rb").read()
            except (BrokenPipeError, ConnectionResetError):
                return b""
        return answer


SHOW = b'{"show": true}\n'


@pytest.mark.parametrize(
    "request_",
    [["show"], {"show": True, "reset": True}, {}, "show", 1],
    ids=["a list", "two at once", "none", "a word", "a number"],
)
async def test_a_request_that_is_not_one_of_the_three_is_answered_with_an_error(tmp_path, request_):
    async with SimTable(seed=1, state_dir=tmp_path):
        assert await asked(tmp_path, request_) == {"error": NOT_ONE}


@pytest.mark.parametrize(
    ("request_", "what"),
    [({"set": 5}, "set"), ({"set": [["turn_timer", 8]]}, "set"), ({"forget": {}}, "forget")],
)
async def test_a_request_of_something_the_table_does_not_do_is_named_in_its_error(
    tmp_path, request_, what
):
    async with SimTable(seed=1, state_dir=tmp_path) as table:
        assert await asked(tmp_path, request_) == {"error": f"nothing the table does for {what!r}"}
        assert table.daemon.table.settings.turn_timer != 8


async def test_an_answer_holds_the_settings_those_unlike_the_configs_and_the_disks_word(
    tmp_path,
):
    config = Config(settings=Settings({"turn_timer": 8}))
    async with SimTable(config, seed=1, state_dir=tmp_path) as table:
        shown = await asked(tmp_path, {"show": True})
        assert shown == {
            "settings": dict(table.daemon.table.settings),
            "changed": [],
            "not_saved": None,  # nothing refused yet
        }
        answer = await asked(tmp_path, {"set": {"picker": "fair", "turn_timer": 8}})
        assert answer == {
            "settings": dict(table.daemon.table.settings),
            "changed": ["picker"],
            "not_saved": None,
        }


async def test_a_socket_left_by_a_table_that_ended_without_its_stop_is_taken_over(tmp_path, caplog):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as left:
        left.bind(str(tmp_path / SOCKET_NAME))
    async with SimTable(seed=1, state_dir=tmp_path):
        answer = await asked(tmp_path, {"show": True})
        assert answer is not None and "settings" in answer
    assert "no socket" not in caplog.text


async def test_a_socket_removed_while_the_table_runs_leaves_its_stop_clean(tmp_path, caplog):
    async with SimTable(seed=1, state_dir=tmp_path):
        (tmp_path / SOCKET_NAME).unlink()
    assert not (tmp_path / SOCKET_NAME).exists()
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_four_clients_at_once_are_heard_and_one_more_is_let_go_unanswered(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(control_socket, "ASK_TIME", 600.0)  # no one here is too slow to ask
    async with SimTable(seed=1, state_dir=tmp_path):
        waiting = [await Client.connected(tmp_path) for _ in range(MAX_CLIENTS)]
        assert await (await Client.connected(tmp_path)).exchange(SHOW) == b""
        # One of the four is answered and gone: there is room for one more, not two.
        assert b'"settings"' in await waiting.pop(0).exchange(SHOW)
        waiting.append(await Client.connected(tmp_path))
        assert await (await Client.connected(tmp_path)).exchange(SHOW) == b""
        for client in waiting:
            assert b'"settings"' in await client.exchange(SHOW)


async def test_a_client_that_asks_nothing_in_time_is_let_go(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(control_socket, "ASK_TIME", 0.1)
    async with SimTable(seed=1, state_dir=tmp_path):
        client = await Client.connected(tmp_path)
        assert await asyncio.to_thread(client.sock.recv, 100) == b""
        client.sock.close()
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert said == ["flashtable settings: a client asked nothing within 0.1 s"]


async def test_a_request_past_a_lines_bound_is_let_go_unanswered(tmp_path, caplog):
    too_long = json.dumps({"set": {"picker": "x" * MAX_LINE}}).encode() + b"\n"
    async with SimTable(seed=1, state_dir=tmp_path) as table:
        assert await (await Client.connected(tmp_path)).exchange(too_long) == b""
        assert table.daemon.table.settings.picker == "classic"
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert said == [f"flashtable settings: a request longer than {MAX_LINE} bytes not taken"]


def test_a_table_that_takes_a_request_and_never_answers_is_given_up_on_in_time(tmp_path):
    with listening(tmp_path, None), pytest.raises(TableUnreachable) as raised:
        ask(tmp_path, {"show": True}, wait=0.2)
    assert str(raised.value) == (
        f"the table running on {tmp_path} did not answer within 0.2 s: it may yet take the change"
    )


@pytest.mark.parametrize(
    "answer",
    [json.dumps({"settings": {"picker": "x" * MAX_LINE}}).encode() + b"\n", b'{"settings": {}}'],
    ids=["past the bound", "no line's end"],
)
def test_an_answer_past_a_lines_bound_or_cut_short_is_no_answer(tmp_path, answer):
    with listening(tmp_path, answer), pytest.raises(TableUnreachable) as raised:
        ask(tmp_path, {"show": True})
    assert str(raised.value) == (
        f"the table running on {tmp_path} closed the connection without an answer"
    )


def test_a_socket_that_cannot_be_reached_says_why(tmp_path):
    os.symlink(SOCKET_NAME, tmp_path / SOCKET_NAME)  # a link to itself
    with pytest.raises(TableUnreachable) as raised:
        ask(tmp_path, {"show": True})
    assert str(raised.value) == (
        f"cannot reach the table running on {tmp_path}: too many levels of symbolic links"
    )


def test_a_table_that_hangs_up_on_a_request_says_how(tmp_path):
    with listening(tmp_path, None, reads=False), pytest.raises(TableUnreachable) as raised:
        ask(tmp_path, {"show": True})
    said = str(raised.value)
    assert said.startswith(f"the table running on {tmp_path} did not answer: ")
    # Depending on when the hang-up reaches the shell: mid-request or while it waits.
    assert said.rpartition(": ")[2] in ("broken pipe", "connection reset by peer")


async def test_a_client_that_hangs_up_before_its_answer_is_logged(tmp_path, caplog):
    async with SimTable(seed=1, state_dir=tmp_path):
        # On the loop's own thread, so that the table reads the request only once the
        # client has gone: its answer meets a closed connection.
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as gone:
            gone.connect(str(tmp_path / SOCKET_NAME))
            gone.sendall(SHOW)
        warned = "flashtable settings: a client's connection failed: Connection lost"
        for _ in range(3000):  # until the table has handled it
            if warned in caplog.text:
                break
            await asyncio.sleep(0.01)
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert said == [warned]
