"""`flashtable fleet status` and `fleet set`: the tables on the config's broker, as lines for
a shell."""

from __future__ import annotations

import argparse
import asyncio
import sys

from ..config import Config, MqttConfig
from ..errors import ConfigError
from ..settings import key_value


def fleet_command(config: Config, args: argparse.Namespace) -> int:
    from ..errors import SettingError
    from ..settings import parsed

    if config.mqtt is None:
        raise ConfigError("the config has no [mqtt] section: fleet needs a broker")
    changes: dict[str, str] = {}
    if args.fleet_action == "set":
        try:
            changes = dict(key_value(text) for text in args.changes)
            parsed(changes)  # a typo is caught here, not by every table
        except SettingError as err:
            print(f"flashtable: {err}", file=sys.stderr)
            return 1
    try:
        return asyncio.run(_fleet(config.mqtt, args, changes))
    except OSError as err:  # aiomqtt's errors are OSErrors too
        where = f"{config.mqtt.host}:{config.mqtt.port}"
        print(f"flashtable: cannot reach the broker at {where}: {err}", file=sys.stderr)
        return 1


async def _fleet(mqtt: MqttConfig, args: argparse.Namespace, changes: dict[str, str]) -> int:
    from . import fleet

    async with fleet.connect(mqtt) as connection:
        seen = await fleet.tables(connection)
        if args.fleet_action == "status":
            if not seen:
                print("no tables on this broker")
            print(f"{'table':<16} {'status':<8} {'mode':<8} {'phase':<11} seats")
            for table in seen.values():
                state = table.state
                seated = state.get("seats")
                seats = ",".join(map(str, seated)) if isinstance(seated, list) and seated else "-"
                print(
                    f"{table.table_id:<16} {table.status:<8} {state.get('mode', '?')!s:<8} "
                    f"{state.get('phase', '?')!s:<11} {seats}"
                )
            return 0
        wanted = [args.table] if args.table else list(seen)
        targets, failed = [], False
        for table_id in wanted:
            found = seen.get(table_id)
            if found is not None and found.online:
                targets.append(table_id)
                continue
            print(f"{table_id}: {'offline' if found else 'not on this broker'}, not changed")
            failed = failed or not args.all
        for answer in await fleet.change(connection, targets, changes):
            print(f"{answer.table_id}: {answer.text}")
            failed = failed or not answer.ok
        return 1 if failed else 0
