"""The default pin map is the one hardware/README.md documents, and bad maps are refused."""

import re
from pathlib import Path

import pytest

from hardware.device_errors import PinMapError
from hardware.pinmap import DEFAULT_PINS, PI_HEADER, PinMap

README = Path(__file__).parents[2] / "hardware" / "README.md"


def readme_table() -> dict[str, int]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Default pin map", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| ([a-z0-9_.]+) \| (\d+) \| \d+ \|$", section, re.MULTILINE)
    return {role: int(pin) for role, pin in rows}


def test_readme_table_is_the_default_map():
    assert readme_table() == dict(DEFAULT_PINS)


def test_default_map_leaves_i2c_and_uart_free_and_fits_8_seats():
    pinmap = PinMap.build(8)
    used = set(pinmap.pins.values())
    assert not used & {2, 3, 14, 15}
    assert len(used) == len(pinmap.pins) == 22
    assert used <= set(PI_HEADER)


def test_fewer_seats_free_their_pins_for_optional_roles():
    pinmap = PinMap.build(
        6,
        {
            "play_pause": 13,
            "launcher.motor.forward": 19,
            "launcher.motor.backward": 16,
            "launcher.beam": 26,
        },
    )
    assert "seat7.button" not in pinmap
    assert pinmap["play_pause"] == 13


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        ({"slap": 4}, "pin 4 is used twice: 'seat1.button' and 'slap'"),
        ({"seat9.button": 5}, "unknown role 'seat9.button'"),
        ({"slap": 28}, "pin 28 of 'slap' is outside GPIO 2-27"),
        ({"slap": 1}, "pin 1 of 'slap' is outside GPIO 2-27"),
        ({"slap": 2}, "pin 2 of 'slap' is on the I2C bus"),
        ({"slap": "x"}, "pin of 'slap' must be a BCM number"),
        ({"launcher.motor.forward": 14}, "role 'launcher.motor.backward' has no pin"),
    ],
)
def test_bad_maps_are_refused_with_the_reason(overrides, reason):
    with pytest.raises(PinMapError) as err:
        PinMap.build(8, overrides)
    assert reason in str(err.value)
    assert "\n" not in str(err.value)
