"""`flashtable fleet status` and `fleet set` on twenty simulated tables sharing a broker."""

from __future__ import annotations

import asyncio
import contextlib
import sys

import pytest

from controller.commands.cli import main
from controller.config import Config
from controller.simulation.table import SimTable

from .broker import OPERATOR
from .conftest import WAIT, password_file, table_mqtt

FLEET = [f"fleet{n:02}" for n in range(1, 21)]


async def fleet(tmp_path, broker, *args: str) -> tuple[int, str, str]:
    """The real command, as an operator runs it from a shell."""
    config = tmp_path / "operator.toml"
    config.write_text(
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\nusername = "{OPERATOR}"\n'
        f'password_file = "{password_file(tmp_path)}"\n'
    )
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "controller", "fleet", *args, "--config", str(config)),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    async with asyncio.timeout(WAIT * 2):
        out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def rows(out: str) -> dict[str, list[str]]:
    return {line.split()[0]: line.split() for line in out.splitlines()[1:] if line.split()}


async def test_fleet_lists_and_changes_twenty_tables(broker, tmp_path):
    async with contextlib.AsyncExitStack() as stack:
        tables = []
        for n, table_id in enumerate(FLEET):
            mqtt = table_mqtt(broker, tmp_path, table_id)
            config = Config(table_id=table_id, seats=4, mqtt=mqtt)
            tables.append(await stack.enter_async_context(SimTable(config, seed=n)))
        await tables[0].tap("seat1")
        await tables[0].tap("seat2")
        async with asyncio.timeout(WAIT):
            while not all(table.link and table.link.connected for table in tables):
                await asyncio.sleep(0.05)
            for table in tables:
                assert table.link is not None
                await table.link.outbox.emptied()

        code, out, _ = await fleet(tmp_path, broker, "status")
        assert code == 0
        listed = rows(out)
        assert out.splitlines()[0].split() == ["table", "status", "mode", "phase", "seats"]
        for table_id in FLEET:
            assert listed[table_id][1:4] == ["online", "table", "seating"]
        assert listed["fleet01"][4] == "1,2"
        assert listed["fleet02"][4] == "-"

        code, out, _ = await fleet(tmp_path, broker, "set", "turn_timer=8", "--all")
        assert code == 0
        answers = dict(line.split(": ", 1) for line in out.splitlines())
        for table_id, table in zip(FLEET, tables, strict=True):
            assert answers[table_id] == "turn_timer = 8 s"
            assert table.daemon.table.settings.turn_timer == 8

        code, out, _ = await fleet(tmp_path, broker, "set", "picker=fair", "--table", "fleet07")
        assert (code, out) == (0, "fleet07: picker = fair\n")
        assert tables[6].daemon.table.settings.picker == "fair"
        assert tables[5].daemon.table.settings.picker == "classic"

        # Checked at the operator's shell first, then at the table itself.
        code, _, err = await fleet(tmp_path, broker, "set", "turn_timer=99", "--all")
        assert code == 1 and "turn_timer cannot be '99'" in err
        code, out, _ = await fleet(tmp_path, broker, "set", "mode=flash", "--table", "nope")
        assert (code, out) == (1, "nope: not on this broker, not changed\n")


def test_fleet_usage_errors_exit_2_and_a_config_without_a_broker_exits_1(tmp_path, capsys):
    with pytest.raises(SystemExit) as done:
        main(["fleet", "set", "turn_timer=8"])  # neither --table nor --all
    assert done.value.code == 2
    assert "one of the arguments --table --all is required" in capsys.readouterr().err
    config = tmp_path / "plain.toml"
    config.write_text('[table]\nid = "t"\n')
    assert main(["fleet", "status", "--config", str(config)]) == 1
    assert capsys.readouterr().err == (
        "flashtable: the config has no [mqtt] section: fleet needs a broker\n"
    )
