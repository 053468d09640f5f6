"""The operator's config file (/etc/flashtable/flashtable.toml): table id, seats, pin factory,
pin map overrides, LCD connection and the initial game settings here; the MQTT broker, the
launcher's link and the web page each in a section module of its own. See docs/config.md.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import UnionType
from typing import Any

from hardware.device_errors import PinMapError
from hardware.display import INTERFACES as LCD_INTERFACES
from hardware.factory import FACTORIES, NAMES
from hardware.pinmap import (
    DEFAULT_PINS,
    LAUNCHER_TABLE_PINS,
    LAUNCHER_TABLE_SEATS,
    LCD_GPIO_ROLES,
    MAX_SEATS,
    PI_HEADER,
    SIM_HEADER,
    SIMULATION_EXTRA_PINS,
    PinMap,
)

from ..errors import ConfigError, DamagedFile, SettingError, shown
from ..settings import Settings
from ..storage.safe_read import check_toml_nesting, read_regular
from . import launcher_section, mqtt_section, web_section
from .launcher_section import LauncherConfig, launcher_config
from .mqtt_section import MAX_PASSWORD, MqttConfig, mqtt_config
from .web_section import WebConfig, web_config

__all__ = [
    "DEFAULT_PATH",
    "DEFAULT_STATE_DIR",
    "MAX_PASSWORD",
    "Config",
    "ConfigError",
    "LauncherConfig",
    "MqttConfig",
    "WebConfig",
    "load",
    "parse",
]

DEFAULT_PATH = Path("/etc/flashtable/flashtable.toml")
DEFAULT_STATE_DIR = Path("/var/lib/flashtable")

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


@dataclass(frozen=True)
class Config:
    table_id: str = "table1"
    # None: as many as the default wiring has: 8 on a Pi's own pins; the simulated table is
    # the 6-seat launcher table of hardware/README.md.
    seats: int | None = None
    pin_factory: str | None = None
    # The GPIO chip: its number, /dev path or label; None: the Raspberry Pi's, by its label.
    gpio_chip: int | str | None = None
    lcd_interface: str = "i2c"
    i2c_port: int = 1
    i2c_address: int = 0x27
    pins: Mapping[str, int] = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)
    mqtt: MqttConfig | None = None
    launcher: LauncherConfig = field(default_factory=LauncherConfig)
    web: WebConfig | None = None  # None: no [web] section (`flashtable sim` serves one)

    def seat_count(self, *, simulated: bool) -> int:
        if self.seats is not None:
            return self.seats
        return LAUNCHER_TABLE_SEATS if simulated else MAX_SEATS

    def pinmap(self, *, simulated: bool) -> PinMap:
        """The validated pin map; the simulated table also wires the optional roles."""
        seats = self.seat_count(simulated=simulated)
        if simulated:
            extras = LAUNCHER_TABLE_PINS if seats <= LAUNCHER_TABLE_SEATS else SIMULATION_EXTRA_PINS
            return PinMap.build(
                seats,
                self.pins,
                base={**DEFAULT_PINS, **extras},
                header=SIM_HEADER,
                i2c_in_use=False,
            )
        return PinMap.build(
            seats, self.pins, header=PI_HEADER, i2c_in_use=self.lcd_interface == "i2c"
        )


CHIP = int | str  # a GPIO chip's number, or its /dev path or label
KINDS = {
    int: "a whole number",
    str: "text in quotes",
    bool: "true or false",
    CHIP: "a number or text in quotes",
    list: "a list in brackets",
}

_SCHEMA: Mapping[str, Mapping[str, type | UnionType]] = {
    "table": {"id": str, "seats": int},
    "gpio": {"factory": str, "chip": CHIP},
    "lcd": {"interface": str, "i2c_port": int, "i2c_address": int},
    "mqtt": mqtt_section.SCHEMA,
    "launcher": launcher_section.SCHEMA,
    "web": web_section.SCHEMA,
}
# A chip's label as kernels write them (pinctrl-rp1, gpio-sim.0-node0, 107d508500.gpio),
# or its /dev path.
CHIP_NAME = re.compile(r"^[\w.@:/,-]{1,64}$")
MAX_BYTES = 64 * 1024  # an operator's config is a page; anything longer is not one
# Whole numbers a key allows: the I2C addresses a 7-bit device may answer on (0x00-0x02 and
# 0x78-0x7f are reserved), the /dev/i2c-N and /dev/gpiochipN a kernel numbers.
_RANGES: Mapping[str, range] = {
    "table.seats": range(2, MAX_SEATS + 1),
    "gpio.chip": range(0, 256),
    "lcd.i2c_port": range(0, 256),
    "lcd.i2c_address": range(0x03, 0x78),
    **{f"mqtt.{key}": span for key, span in mqtt_section.RANGES.items()},
}


def _out_of_range(name: str, span: range, value: int) -> ConfigError:
    bound = (lambda n: f"0x{n:02x}") if name == "lcd.i2c_address" else str
    got = "a huge number" if abs(value) > 10**9 else str(value)
    return ConfigError(f"{name} must be {bound(span.start)} to {bound(span.stop - 1)}, not {got}")


def load(path: Path | None) -> Config:
    """Read and check a config file; None, or the default path missing, gives the defaults."""
    if path is None:
        if not DEFAULT_PATH.exists():
            return Config()
        path = DEFAULT_PATH
    try:
        data = read_regular(path, MAX_BYTES)
        if data is None:
            raise ConfigError("no such file")
        text = data.decode("utf-8")
        check_toml_nesting(text)
        config = parse(tomllib.loads(text))
        if config.mqtt is not None:
            config.mqtt.check()
        return config
    except ConfigError as err:
        raise ConfigError(f"{path}: {err}") from None
    except OSError as err:
        raise ConfigError(f"{path}: cannot read: {err.strerror or err}") from None
    except (DamagedFile, UnicodeDecodeError) as err:
        reason = "not UTF-8 text" if isinstance(err, UnicodeDecodeError) else str(err)
        raise ConfigError(f"{path}: {reason}") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML: {err}") from None
    except ValueError:
        # tomllib calls int() on any number, over Python's limit of digits too.
        raise ConfigError(f"{path}: a number too long") from None


def _roles(pins: Mapping[str, Any], within: str = "") -> dict[str, Any]:
    """[pins] by role name. TOML reads an unquoted `seat1.button = 17` as a table `seat1`
    holding `button`: the same role as the quoted "seat1.button", so both forms are taken."""
    roles: dict[str, Any] = {}
    for key, value in pins.items():
        name = f"{within}{key}"
        found = _roles(value, f"{name}.") if isinstance(value, dict) else {name: value}
        if twice := sorted(found.keys() & roles.keys()):
            raise ConfigError(f"[pins] {shown(twice[0])} is given twice")
        roles.update(found)
    return roles


def parse(raw: Mapping[str, Any]) -> Config:
    """A Config from parsed TOML; raises ConfigError naming the first bad key."""
    for section, body in raw.items():
        if section in ("pins", "settings"):
            if not isinstance(body, dict):
                raise ConfigError(f"[{section}] must be a table")
            continue
        if section not in _SCHEMA or not isinstance(body, dict):
            raise ConfigError(f"unknown section [{section}]")
        for key, value in body.items():
            kind = _SCHEMA[section].get(key)
            if kind is None:
                raise ConfigError(f"unknown key {shown(key)} in [{section}]")
            if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
                raise ConfigError(f"{section}.{key} must be {KINDS[kind]}, not {shown(value)}")
            span = _RANGES.get(f"{section}.{key}")
            if span is not None and isinstance(value, int) and value not in span:
                raise _out_of_range(f"{section}.{key}", span, value)
    pins = _roles(raw.get("pins", {}))
    for role, pin in pins.items():
        if isinstance(pin, bool) or not isinstance(pin, int) or abs(pin) > 999:
            raise ConfigError(f"[pins] {shown(role)} must be a BCM number, not {shown(pin)}")

    def get(section: str, key: str, default: Any) -> Any:
        # Each value's type was checked against _SCHEMA above.
        return raw.get(section, {}).get(key, default)

    table_id = get("table", "id", Config.table_id)
    if not TABLE_ID.match(table_id):
        raise ConfigError(f"table.id {shown(table_id)} must be 1-32 letters, digits, '-' or '_'")
    seats = get("table", "seats", Config.seats)
    factory = get("gpio", "factory", None)
    if factory is not None and factory not in NAMES:
        raise ConfigError(
            f"gpio.factory must be one of {', '.join(FACTORIES)}, not {shown(factory)}"
        )
    chip = get("gpio", "chip", Config.gpio_chip)
    if isinstance(chip, str) and not CHIP_NAME.match(chip):
        raise ConfigError(f"gpio.chip {shown(chip)} must be a chip's /dev path or label")
    interface = get("lcd", "interface", Config.lcd_interface)
    if interface not in LCD_INTERFACES:
        raise ConfigError(
            f"lcd.interface must be {' or '.join(LCD_INTERFACES)}, not {shown(interface)}"
        )
    try:
        settings = Settings(raw.get("settings", {}))
    except SettingError as err:
        raise ConfigError(f"[settings] {err}") from None
    config = Config(
        table_id=table_id,
        seats=seats,
        pin_factory=factory,
        gpio_chip=chip,
        lcd_interface=interface,
        i2c_port=get("lcd", "i2c_port", Config.i2c_port),
        i2c_address=get("lcd", "i2c_address", Config.i2c_address),
        pins=pins,
        settings=settings,
        mqtt=mqtt_config(raw["mqtt"]) if "mqtt" in raw else None,
        launcher=launcher_config(raw.get("launcher", {})),
        web=web_config(raw["web"]) if "web" in raw else None,
    )
    try:
        pinmap = config.pinmap(simulated=False)
    except PinMapError as err:
        raise ConfigError(f"[pins] {err}") from None
    missing = [role for role in LCD_GPIO_ROLES if role not in pinmap]
    if interface == "gpio" and missing:
        raise ConfigError(f"lcd.interface 'gpio' needs a pin for {missing[0]!r} in [pins]")
    return config
