"""A real Home Assistant against a simulated table on one local Mosquitto: one device with
every entity comes from the discovery payload, with no warning or error about MQTT in Home
Assistant's log; its buttons and selects act on the table (through automations fed from
the broker); its entities follow the table, and the delay of each is printed.

Home Assistant is not a dependency of this project: install it apart, with the two packages
its MQTT integration and its frontend need (it runs here with --skip-pip), e.g.
    python3.13 -m venv /tmp/ha/venv
    /tmp/ha/venv/bin/pip install 'homeassistant>=2025.4,<2025.5' paho-mqtt==2.1.0 \
        home-assistant-frontend==20250411.0
Usage: python bench/home_assistant.py [HASS [DIRECTORY to keep]]
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiomqtt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.config import Config, MqttConfig
from controller.requests import ChangeSettings
from controller.simulation.table import SimTable
from tests.ports import free_port

TABLE = "ha1"
DEVICE = f"flash_table_{TABLE}"
ENTITIES = {
    **{f"sensor.{DEVICE}_{key}": key for key in ("mode", "phase", "current_seat", "seconds_left")},
    f"sensor.{DEVICE}_current_player": "current_player",
    **{f"sensor.{DEVICE}_{key}": key for key in ("cards_dispensed", "jams", "launcher")},
    **{f"button.{DEVICE}_{key}": key for key in ("start", "pause", "resume", "new_round")},
    **{f"select.{DEVICE}_{key}": key for key in ("mode", "turn_timer", "launcher")},
    f"number.{DEVICE}_timeout_penalty": "timeout_penalty",
}
CONFIGURATION = """\
homeassistant:
  name: Check
  latitude: 0
  longitude: 0
  elevation: 0
  unit_system: metric
  time_zone: UTC
frontend:
logger:
  default: info
mqtt_statestream:
  base_topic: hastate
  include:
    entity_globs: ["*.flash_table_*"]
automation:
  - alias: press
    triggers: [{trigger: mqtt, topic: hacheck/press}]
    actions: [{action: button.press, target: {entity_id: "{{ trigger.payload }}"}}]
  - alias: choose
    triggers: [{trigger: mqtt, topic: hacheck/select}]
    actions:
      - action: select.select_option
        target: {entity_id: "{{ trigger.payload_json.entity }}"}
        data: {option: "{{ trigger.payload_json.option }}"}
"""


def mqtt_entry(port: int) -> dict:
    return {
        "version": 1,
        "minor_version": 5,
        "key": "core.config_entries",
        "data": {
            "entries": [
                {
                    "entry_id": "01JFLASHTABLECHECK000000000",
                    "version": 1,
                    "minor_version": 2,
                    "domain": "mqtt",
                    "title": "127.0.0.1",
                    "data": {"broker": "127.0.0.1", "port": port},
                    "options": {"discovery": True, "discovery_prefix": "homeassistant"},
                    "pref_disable_new_entities": False,
                    "pref_disable_polling": False,
                    "source": "user",
                    "unique_id": None,
                    "disabled_by": None,
                    "discovery_keys": {},
                    "subentries": [],
                    "created_at": "2025-04-01T00:00:00+00:00",
                    "modified_at": "2025-04-01T00:00:00+00:00",
                }
            ]
        },
    }


async def check(hass: str, directory: Path) -> int:
    port = free_port()
    (directory / "mosquitto.conf").write_text(
        f"listener {port} 127.0.0.1\nallow_anonymous true\nuser root\n"
    )
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    broker = subprocess.Popen([mosquitto, "-c", str(directory / "mosquitto.conf")])
    config_dir = directory / "ha"
    (config_dir / ".storage").mkdir(parents=True)
    (config_dir / "configuration.yaml").write_text(CONFIGURATION)
    (config_dir / ".storage" / "core.config_entries").write_text(json.dumps(mqtt_entry(port)))
    time.sleep(0.5)
    states: dict[str, str] = {}
    changed_at: dict[str, float] = {}  # when Home Assistant last reported each entity
    problems = 0
    table_config = Config(table_id=TABLE, seats=3, mqtt=MqttConfig(host="127.0.0.1", port=port))
    ha = subprocess.Popen(
        [hass, "--config", str(config_dir), "--skip-pip"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        async with (
            SimTable(table_config, seed=1) as table,
            aiomqtt.Client("127.0.0.1", port, protocol=aiomqtt.ProtocolVersion.V5) as client,
        ):
            await client.subscribe("hastate/#")

            async def follow() -> None:
                async for message in client.messages:
                    parts = str(message.topic).split("/")
                    if len(parts) == 4 and parts[3] == "state":
                        entity = f"{parts[1]}.{parts[2]}"
                        value = message.payload.decode()  # type: ignore[union-attr]
                        states[entity] = value
                        changed_at[entity] = time.perf_counter()

            follower = asyncio.create_task(follow())

            async def until(
                entity: str, value: str, limit: float, since: float = 0.0
            ) -> float | None:
                """When Home Assistant reported `value` for `entity`, after `since`."""
                start = time.perf_counter()
                while time.perf_counter() - start < limit:
                    if states.get(entity) == value and changed_at[entity] >= since:
                        return changed_at[entity]
                    await asyncio.sleep(0.02)
                return None

            async def following(what: str, entity: str, value: str, since: float) -> None:
                nonlocal problems
                at = await until(entity, value, 5.0, since)
                if at is None:
                    print(f"FAIL {what}: {entity} is {states.get(entity)!r}, not {value!r}")
                    problems += 1
                else:
                    ok = "ok  " if at - since <= 1.0 else "SLOW"
                    problems += ok != "ok  "
                    print(f"{ok} {what}: {entity} = {value} after {1000 * (at - since):.0f} ms")

            if await until(f"sensor.{DEVICE}_phase", "seating", 240.0) is None:
                print("FAIL Home Assistant never showed the table's phase")
                return 1
            await asyncio.sleep(3.0)  # every entity has had its first state
            missing = [entity for entity in ENTITIES if entity not in states]
            print(f"entities: {len(ENTITIES) - len(missing)} of {len(ENTITIES)} present")
            for entity in missing:
                print(f"FAIL missing entity {entity}")
            problems += len(missing)

            for seat in (1, 3):
                await table.tap(f"seat{seat}")
                named = {"action": "name", "seat": seat, "name": "Anna" if seat == 1 else "李小龙"}
                await client.publish(f"flashtable/{TABLE}/command", json.dumps(named))
            for button, phase in (  # each press changes the phase: Home Assistant says so
                ("start", "turn"),
                ("pause", "paused"),
                ("resume", "turn"),
                ("pause", "paused"),
                ("new_round", "turn"),
            ):
                since = time.perf_counter()
                await client.publish("hacheck/press", f"button.{DEVICE}_{button}")
                await following(f"{button} button", f"sensor.{DEVICE}_phase", phase, since)
            lit = table.daemon.table.turn
            player = {1: "Anna", 3: "李小龙"}[lit.seat] if lit is not None else "unknown"
            # Named before the round: the lit player's name, whenever it came.
            if await until(f"sensor.{DEVICE}_current_player", player, 5.0) is None:
                shown = states.get(f"sensor.{DEVICE}_current_player")
                print(f"FAIL player named: the current player is {shown!r}, not {player!r}")
                problems += 1
            else:
                print(f"ok   player named: sensor.{DEVICE}_current_player = {player}")
            choose = {"entity": f"select.{DEVICE}_turn_timer", "option": "9"}
            since = time.perf_counter()
            await client.publish("hacheck/select", json.dumps(choose))
            await following("Turn timer select", f"select.{DEVICE}_turn_timer", "9", since)
            if table.daemon.table.settings.turn_timer != 9:
                print("FAIL the turn timer select did not reach the table")
                problems += 1
            since = time.perf_counter()
            await table.tap("play_pause")  # a press at the table itself
            await following("table paused by hand", f"sensor.{DEVICE}_phase", "paused", since)
            since = time.perf_counter()
            await asyncio.wrap_future(table.daemon.submit(ChangeSettings({"mode": "flash"})))
            await following("mode set at the table", f"select.{DEVICE}_mode", "flash", since)
            follower.cancel()
    finally:
        ha.terminate()
        ha.wait(timeout=120)
        broker.terminate()
        broker.wait()
    registry = json.loads((config_dir / ".storage" / "core.device_registry").read_text())
    ours = ["mqtt", f"flashtable_{TABLE}"]
    devices = [d for d in registry["data"]["devices"] if ours in d["identifiers"]]
    print(f"devices for the table in Home Assistant's registry: {len(devices)}")
    problems += len(devices) != 1
    log = (config_dir / "home-assistant.log").read_text()
    noted = [line for line in log.splitlines() if " WARNING " in line or " ERROR " in line]
    ours = [line for line in noted if "mqtt" in line.lower() or "flash" in line.lower()]
    for line in noted:
        print(f"log{' (ours)' if line in ours else ''}: {line}")
    print(f"warnings and errors in Home Assistant's log: {len(noted)}, {len(ours)} about MQTT")
    problems += len(ours)
    print("Home Assistant check: " + ("passed" if not problems else f"{problems} problem(s)"))
    return 1 if problems else 0


def main() -> None:
    hass = sys.argv[1] if len(sys.argv) > 1 else "/tmp/ha/venv/bin/hass"
    if len(sys.argv) > 2:  # a directory to keep, to read Home Assistant's files afterwards
        sys.exit(asyncio.run(check(hass, Path(sys.argv[2]))))
    with tempfile.TemporaryDirectory() as directory:
        sys.exit(asyncio.run(check(hass, Path(directory))))


if __name__ == "__main__":
    main()
