"""Home Assistant's device-based MQTT discovery: one device per table, announced on
`<prefix>/device/<table_id>/config`, its entities reading the retained `state` and
`settings` and acting through `command` and `settings/set` (docs/mqtt.md).
"""

from __future__ import annotations

from .. import __version__
from ..settings import BY_KEY
from .topics import OFFLINE, ONLINE, Topics

SENSORS = {  # state key: name
    "mode": "Mode",
    "phase": "Phase",
    "seat": "Current seat",
    "player": "Current player",  # the lit seat's player's name, or "Seat 3"
    "seconds_left": "Seconds left",
    "cards_dispensed": "Cards dispensed",
    "jams": "Jams",
    "launcher": "Launcher",
}
UNITS = {"seconds_left": "s", "cards_dispensed": "cards", "jams": "jams"}
BUTTONS = {"start": "Start", "pause": "Pause", "resume": "Resume", "new_round": "New round"}
SELECTS = ("mode", "turn_timer", "launcher_profile")
NUMBERS = ("timeout_penalty",)


def topic(prefix: str, table_id: str) -> str:
    return f"{prefix}/device/{table_id}/config"


def config(topics: Topics) -> dict[str, object]:
    """The discovery payload for one table."""
    table_id = topics.table_id
    components: dict[str, dict[str, object]] = {}

    def add(key: str, platform: str, name: str, **options: object) -> None:
        components[key] = {
            "platform": platform,
            "name": name,
            "unique_id": f"flashtable_{table_id}_{key}",
            **options,
        }

    for key, name in SENSORS.items():
        options: dict[str, object] = {}
        if key in UNITS:
            options = {"unit_of_measurement": UNITS[key], "state_class": "measurement"}
        add(
            key,
            "sensor",
            name,
            state_topic=topics.state,
            # null (no turn, no timer) renders as "None", which Home Assistant shows as unknown.
            value_template=f"{{{{ value_json.{key} }}}}",
            **options,
        )
    for action, name in BUTTONS.items():
        add(
            action,
            "button",
            name,
            command_topic=topics.command,
            payload_press=f'{{"action": "{action}"}}',
        )

    def add_setting(key: str, platform: str, command_template: str, **options: object) -> None:
        # A setting's entity reads the retained settings and writes through settings/set.
        add(
            f"{key}_setting",
            platform,
            BY_KEY[key].label,
            entity_category="config",
            state_topic=topics.settings,
            value_template=f"{{{{ value_json.{key} }}}}",
            command_topic=topics.settings_set,
            command_template=command_template,
            **options,
        )

    for key in SELECTS:
        choices = [str(option) for option in BY_KEY[key].options]
        add_setting(key, "select", f'{{"{key}": "{{{{ value }}}}"}}', options=choices)
    for key in NUMBERS:
        setting = BY_KEY[key]
        numbers = [option for option in setting.options if isinstance(option, int)]
        add_setting(
            key,
            "number",
            f'{{"{key}": {{{{ value | int }}}}}}',
            min=min(numbers),
            max=max(numbers),
            step=1,
            mode="box",
            unit_of_measurement=setting.unit,
        )
    return {
        "device": {
            "identifiers": [f"flashtable_{table_id}"],
            "name": f"Flash Table {table_id}",
            "manufacturer": "Flash Table",
            "model": "UNO table unit",
            "sw_version": __version__,
        },
        "origin": {"name": "flashtable", "sw_version": __version__},
        "availability_topic": topics.status,
        "payload_available": ONLINE,
        "payload_not_available": OFFLINE,
        "qos": 1,
        "components": components,
    }
