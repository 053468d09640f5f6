"""`flashtable settings` with a table running on the state directory: the table is asked, and
keeps the change as its menu's, so the running daemon is the one writer of settings.json; the
shell writes the file only when no table runs there, and never says done when nothing took
the change."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket

from controller import main
from controller.config import Config
from controller.settings import Settings
from controller.shell.control_socket import SOCKET_NAME
from controller.simulation.table import SimTable

from .table_socket import listening
from .web.running_table import RunningTable


def settings(*words: str) -> list[str]:
    return ["settings", *words]


def test_a_change_from_the_shell_reaches_the_running_table_and_outlives_a_menu_change(
    tmp_path, capsys
):
    table = RunningTable(tmp_path)
    state = tmp_path / "state"
    try:
        where = ["--config", str(tmp_path / "flashtable.toml"), "--state-dir", str(state)]
        assert main(settings("set", "turn_timer=8", *where)) == 0
        out = capsys.readouterr().out
        assert "Settings of the table (running), kept in" in out
        assert "* turn_timer         8 s" in out
        assert table.do("setting turn_timer") == "8"
        # The next change on the table's own menu: Mode, one step back to Extreme.
        for command in ("turn 1", "turn 1", "tap encoder.push", "turn -1"):
            table.do(command)
        assert table.do("setting mode") == "extreme"
        assert json.loads((state / "settings.json").read_text()) == {
            "turn_timer": 8,
            "mode": "extreme",
        }
        assert table.do("setting turn_timer") == "8"
    finally:
        table.stop()


async def shell(*words: str) -> int:
    """The command, in a thread of its own: the table it asks answers on this loop."""
    return await asyncio.to_thread(main, settings(*words))


async def test_the_running_table_answers_show_set_and_reset_and_refuses_what_its_menu_would(
    tmp_path, capsys
):
    state = ["--state-dir", str(tmp_path)]
    config = Config(settings=Settings({"custom_max": 6}))
    async with SimTable(config, seed=1, state_dir=tmp_path) as table:
        assert await shell("set", "picker=fair", *state) == 0
        assert "* picker             fair" in capsys.readouterr().out
        assert table.daemon.table.settings.picker == "fair"
        assert table.events_of("settings_changed")[-1].data == {"changes": {"picker": "fair"}}

        assert await shell("set", "custom_min=7", *state) == 1
        out, err = capsys.readouterr()
        assert out == "" and err == "flashtable: custom_min (7) cannot be above custom_max (6)\n"
        assert table.daemon.table.settings.custom_min == 1

        assert await shell("show", *state) == 0
        assert "* picker             fair" in capsys.readouterr().out
        assert await shell("reset", *state) == 0
        assert "  picker             classic" in capsys.readouterr().out
        assert table.daemon.table.settings.picker == "classic"
    assert json.loads((tmp_path / "settings.json").read_text()) == {}
    assert not (tmp_path / SOCKET_NAME).exists()  # gone with the table


def test_a_table_that_gives_no_answer_is_never_taken_for_done(tmp_path, capsys):
    # Something listens on the table's socket, reads the request, and hangs up unanswered.
    with listening(tmp_path, b""):
        assert main(settings("set", "turn_timer=8", "--state-dir", str(tmp_path))) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"flashtable: the table running on {tmp_path} closed the connection without an "
        "answer; settings.json left as it was\n"
    )
    assert not (tmp_path / "settings.json").exists()


def test_with_no_table_running_the_shell_writes_the_file_even_where_one_ran_before(
    tmp_path, capsys
):
    # A table that ended without its stop (a power cut) left its socket: nothing listens.
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as left:
        left.bind(str(tmp_path / SOCKET_NAME))
    assert main(settings("set", "turn_timer=8", "--state-dir", str(tmp_path))) == 0
    assert "Settings of the table, kept in" in capsys.readouterr().out
    assert json.loads((tmp_path / "settings.json").read_text()) == {"turn_timer": 8}


async def test_the_tables_socket_is_its_owners_alone(tmp_path):
    async with SimTable(seed=1, state_dir=tmp_path):
        assert (tmp_path / SOCKET_NAME).stat().st_mode & 0o777 == 0o600


async def test_a_state_directory_too_deep_for_a_sockets_address_still_has_its_socket(
    tmp_path, capsys
):
    deep = tmp_path.joinpath(*["a-long-folder-name"] * 8)
    deep.mkdir(parents=True)
    assert len(os.fsencode(deep / SOCKET_NAME)) > 108
    async with SimTable(seed=1, state_dir=deep) as table:
        assert await shell("set", "turn_timer=9", "--state-dir", str(deep)) == 0
        assert table.daemon.table.settings.turn_timer == 9
    assert "(running)" in capsys.readouterr().out


async def test_a_second_table_on_the_same_directory_leaves_the_first_ones_socket(tmp_path, caplog):
    state = ["--state-dir", str(tmp_path)]
    async with SimTable(seed=1, state_dir=tmp_path) as first:
        async with SimTable(seed=2, state_dir=tmp_path):
            said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
            assert said == [
                f"no socket for `flashtable settings` at {tmp_path / SOCKET_NAME}: address "
                "already in use; the shell cannot reach this table, so change its settings "
                "from the menu or a remote"
            ]
            assert await shell("set", "turn_timer=9", *state) == 0
        assert first.daemon.table.settings.turn_timer == 9
