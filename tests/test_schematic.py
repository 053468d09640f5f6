"""The wiring schematic (docs/schematic.py and its image) matches the pin map it draws."""

import ast
import re
import tomllib
from pathlib import Path
from xml.etree import ElementTree

from hardware.pinmap import DEFAULT_PINS, PinMap

ROOT = Path(__file__).parents[1]
SOURCE = ROOT / "docs" / "schematic.py"
IMAGE = ROOT / "docs" / "schematic.svg"


def table(name: str) -> tuple[tuple[str, int, int], ...]:
    """A pin table of the schematic's source, read without running it."""
    for node in ast.parse(SOURCE.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == [name]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"no {name} in {SOURCE}")


def readme_rows() -> dict[str, tuple[int, int]]:
    text = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([a-z0-9.]+) \| (\d+) \| (\d+) \|$", text, re.M)
    return {role: (int(bcm), int(pin)) for role, bcm, pin in rows}


def test_every_role_of_the_default_pin_map_is_drawn_on_its_gpio():
    drawn = {role: bcm for role, bcm, _ in table("HEADER")}
    assert drawn == dict(DEFAULT_PINS)


def test_the_header_pins_are_those_of_the_hardware_readme():
    rows = readme_rows()
    assert len(rows) == len(DEFAULT_PINS)
    assert {role: (bcm, pin) for role, bcm, pin in table("HEADER")} == rows


def test_the_launcher_table_is_a_valid_six_seat_map_as_the_build_guide_configures_it():
    launcher = table("LAUNCHER")
    header_pin = {bcm: pin for _, bcm, pin in table("HEADER")}
    for role, bcm, pin in launcher:
        assert header_pin.get(bcm, pin) == pin, role  # a shared GPIO sits on the same pin
    pins = {role: bcm for role, bcm, _ in launcher}
    PinMap.build(6, pins)  # raises on a clash or a pin a Pi lacks
    guide = (ROOT / "docs" / "build.md").read_text(encoding="utf-8")
    configs = [tomllib.loads(block) for block in re.findall(r"```toml\n(.*?)```", guide, re.S)]
    assert {"table": {"seats": 6}, "pins": pins} in configs


def test_the_image_names_every_role_and_its_gpio():
    svg = ElementTree.parse(IMAGE).getroot()
    texts = {"".join(e.itertext()) for e in svg.iter() if e.tag.endswith("}text")}
    for role, bcm, _ in (*table("HEADER"), *table("LAUNCHER")):
        assert f"GPIO{bcm}" in texts
        assert any(role in text for text in texts), role


def test_the_image_is_drawn_from_the_source(tmp_path):
    namespace: dict[str, object] = {"__file__": str(tmp_path / "schematic.py")}
    exec(compile(SOURCE.read_text(encoding="utf-8"), str(SOURCE), "exec"), namespace)
    namespace["draw"]()  # type: ignore[operator]
    assert (tmp_path / "schematic.svg").read_text(encoding="utf-8") == IMAGE.read_text()
