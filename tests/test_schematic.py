"""The wiring schematic (docs/schematic.py, its SVG and PNG) is the circuit the build guide
describes, drawn so that it can be read: every wire where it belongs, every part named, no
text on another."""

import importlib.util
import re
import struct
import sys
import tomllib
from pathlib import Path

import pytest

from hardware.pinmap import DEFAULT_PINS, LAUNCHER_TABLE_PINS, LAUNCHER_TABLE_SEATS, PinMap

from . import svg_layout

ROOT = Path(__file__).parents[1]
SOURCE = ROOT / "docs" / "schematic.py"
IMAGE = ROOT / "docs" / "schematic.svg"
PICTURE = ROOT / "docs" / "schematic.png"
PAGE_WIDTH = 880  # px: what a rendered Markdown page gives an image


def _load():
    spec = importlib.util.spec_from_file_location("schematic", SOURCE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["schematic"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


schematic = _load()


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """The sheet as the source draws it now, and its SVG."""
    out = tmp_path_factory.mktemp("schematic") / "schematic.svg"
    sheet = schematic.draw(out)
    return sheet, out.read_text(encoding="utf-8")


# -- the circuit, written out by hand from docs/build.md -------------------------------------

BOTH = {
    # 12 V from the brick through the input fuse; the buck converter makes the 5 V rail
    "12V_IN": {"J2.+", "F1.1"},
    "12V": {"F1.2", "U1.IN+"},
    "5V": {
        "U1.OUT+",
        "J1.2",
        "J1.4",
        "U2.COM",
        "D1.+",
        "D2.+",
        "D3.+",
        "D4.+",
        "D5.+",
        "D6.+",
        "BZ1.+",
        "R2.1",
        "U4.HV",
        "U5.VCC",
    },
    "3V3": {"J1.1", "J1.17", "U3.+", "U4.LV"},
    "GND": {
        "J2.-",
        "U1.IN-",
        "U1.OUT-",
        "J1.6",
        "J1.9",
        "J1.14",
        "J1.20",
        "J1.25",
        "J1.30",
        "J1.34",
        "J1.39",
        "U2.GND",
        "S1.COM",
        "S2.COM",
        "S3.COM",
        "S4.COM",
        "S5.COM",
        "S6.COM",
        "S9.COM",
        "S10.COM",
        "Q1.E",
        "U3.GND",
        "U4.GND_LV",
        "U4.GND_HV",
        "U5.GND",
    },
    # seat buttons: the switch pulls its GPIO to GND
    "GPIO4": {"J1.7", "S1.NO"},
    "GPIO27": {"J1.13", "S2.NO"},
    "GPIO10": {"J1.19", "S3.NO"},
    "GPIO11": {"J1.23", "S4.NO"},
    "GPIO7": {"J1.26", "S5.NO"},
    "GPIO6": {"J1.31", "S6.NO"},
    "GPIO20": {"J1.38", "S9.NO"},
    "GPIO21": {"J1.40", "S10.NO"},
    # seat lights: the GPIO drives a ULN2803A input, its output sinks the LED's cathode
    "GPIO17": {"J1.11", "U2.1B"},
    "GPIO22": {"J1.15", "U2.2B"},
    "GPIO9": {"J1.21", "U2.3B"},
    "GPIO8": {"J1.24", "U2.4B"},
    "GPIO5": {"J1.29", "U2.5B"},
    "GPIO12": {"J1.32", "U2.6B"},
    "LED1-": {"U2.1C", "D1.-"},
    "LED2-": {"U2.2C", "D2.-"},
    "LED3-": {"U2.3C", "D3.-"},
    "LED4-": {"U2.4C", "D4.-"},
    "LED5-": {"U2.5C", "D5.-"},
    "LED6-": {"U2.6C", "D6.-"},
    # buzzer: the GPIO drives Q1's base through R1; Q1 pulls the piezo's low side down
    "GPIO18": {"J1.12", "R1.1"},
    "Q1_BASE": {"R1.2", "Q1.B"},
    "BUZZER-": {"Q1.C", "BZ1.-", "R2.2"},
    # encoder on 3.3 V
    "GPIO23": {"J1.16", "U3.CLK"},
    "GPIO24": {"J1.18", "U3.DT"},
    "GPIO25": {"J1.22", "U3.SW"},
    # I2C: 3.3 V on the Pi's side of the level shifter, 5 V on the backpack's
    "GPIO2": {"J1.3", "U4.LV1"},
    "GPIO3": {"J1.5", "U4.LV2"},
    "SDA_5V": {"U4.HV1", "U5.SDA"},
    "SCL_5V": {"U4.HV2", "U5.SCL"},
}
EIGHT_SEATS = {
    "5V": {"D7.+", "D8.+"},
    "GND": {"S7.COM", "S8.COM"},
    "GPIO13": {"J1.33", "S7.NO"},
    "GPIO19": {"J1.35", "U2.7B"},
    "GPIO16": {"J1.36", "S8.NO"},
    "GPIO26": {"J1.37", "U2.8B"},
    "LED7-": {"U2.7C", "D7.-"},
    "LED8-": {"U2.8C", "D8.-"},
}
LAUNCHER_TABLE = {
    "12V": {"F2.1"},
    "3V3": {"R3.1"},
    "GND": {"S11.COM", "C1.-", "U6.GND", "U7.K", "U7.E", "S12.COM"},
    "GPIO13": {"J1.33", "S11.NO"},  # Play/Pause
    # the motor: the driver's logic inputs on GPIOs, its supply behind its own fuse
    "GPIO19": {"J1.35", "U6.IN1"},
    "GPIO16": {"J1.36", "U6.IN2"},
    "VM": {"F2.2", "C1.+", "U6.VM"},
    "MOTOR+": {"U6.OUT1", "M1.+", "C2.1"},
    "MOTOR-": {"U6.OUT2", "M1.-", "C2.2"},
    # the beam: IR LED from 3V3 through R3; the phototransistor pulls the GPIO low
    "IR_ANODE": {"R3.2", "U7.A"},
    "GPIO26": {"J1.37", "U7.C"},
    # the hopper switch's NC contact pulls the GPIO low when the hopper is empty
    "GPIO15": {"J1.10", "S12.NC"},
}


def expected(build: str) -> dict[str, frozenset[str]]:
    extra = EIGHT_SEATS if build == schematic.EIGHT else LAUNCHER_TABLE
    nets = {net: set(pins) for net, pins in BOTH.items()}
    for net, pins in extra.items():
        nets.setdefault(net, set()).update(pins)
    return {net: frozenset(pins) for net, pins in nets.items()}


@pytest.mark.parametrize("build", ["8-seat table", "launcher table"])
def test_the_circuit_is_the_one_the_build_guide_describes(build):
    nets = schematic.netlist(build)
    want = expected(build)
    assert set(nets) == set(want)
    for net in want:
        assert nets[net] == want[net], net


# -- the drawing's own netlist ---------------------------------------------------------------


def _on(point, a, b, eps=1e-6):
    """Whether `point` lies on the segment a-b."""
    (px, py), (ax, ay), (bx, by) = point, a, b
    cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
    if abs(cross) > eps * max(1.0, abs(bx - ax) + abs(by - ay)):
        return False
    return (
        min(ax, bx) - eps <= px <= max(ax, bx) + eps
        and min(ay, by) - eps <= py <= max(ay, by) + eps
    )


def connections(sheet) -> list[tuple[set[str], set[str]]]:
    """What the picture joins: for each connected set of wires, pins and flags, the pins
    ("REF.PIN") and the flags' net names. A pin or flag touching a wire anywhere along it
    is on it; two wires meet where an end of one touches the other."""
    parent: dict[object, object] = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a, b):
        parent[find(a)] = find(b)

    wires = sheet.wires
    points = [(("pin", name), xy) for name, xy in sheet.terminals.items()]
    points += [(("flag", i, net), xy) for i, (net, xy) in enumerate(sheet.flags)]
    for i, (a, b) in enumerate(wires):
        find(("wire", i))
        for j, (c, d) in enumerate(wires[:i]):
            if _on(a, c, d) or _on(b, c, d) or _on(c, a, b) or _on(d, a, b):
                join(("wire", i), ("wire", j))
    at: dict[tuple[float, float], object] = {}
    for key, xy in points:
        find(key)
        spot = (round(xy[0], 6), round(xy[1], 6))
        if spot in at:
            join(key, at[spot])
        at[spot] = key
        for i, (a, b) in enumerate(wires):
            if _on(xy, a, b):
                join(key, ("wire", i))
    groups: dict[object, tuple[set[str], set[str]]] = {}
    for key, _ in points:
        pins, names = groups.setdefault(find(key), (set(), set()))
        if key[0] == "pin":
            pins.add(key[1])
        else:
            names.add(key[2])
    return list(groups.values())


def drawn_nets(sheet) -> dict[str, frozenset[str]]:
    """The drawing's netlist: flags of one name are one net; a group with pins and no flag
    is named by the circuit's data, which a test holds it to."""
    nets: dict[str, set[str]] = {}
    for pins, names in connections(sheet):
        assert len(names) <= 1, f"one wire joins the nets {sorted(names)}: {sorted(pins)}"
        if names:
            nets.setdefault(names.pop(), set()).update(pins)
        else:
            assert len(pins) > 1, f"{sorted(pins)} is joined to nothing"
            owners = {schematic.BY_REF[p.split(".")[0]].pin(p.split(".")[1]).net for p in pins}
            assert len(owners) == 1, f"one wire joins {sorted(pins)}"
            nets.setdefault(f"({owners.pop()})", set()).update(pins)
    return {net: frozenset(pins) for net, pins in nets.items()}


def test_the_drawing_joins_each_pin_to_its_net_and_to_nothing_else(drawn):
    sheet, _ = drawn
    want: dict[str, set[str]] = {}
    for build in schematic.BUILDS:
        for net, pins in expected(build).items():
            want.setdefault(net, set()).update(pins)
    nets = drawn_nets(sheet)
    unflagged = {net.strip("()") for net in nets if net.startswith("(")}
    got = {net.strip("()"): pins for net, pins in nets.items()}
    assert set(got) == set(want)
    for net in want:
        assert got[net] == want[net], net
    # the rails and every GPIO are named where they are drawn, not only in the data
    assert not {n for n in unflagged if n in {"12V", "5V", "3V3", "GND"} or n.startswith("GPIO")}


def _converter(short: bool) -> object:
    sheet = schematic.Sheet()
    sheet.box("U1", (0, 0), (2.6, 1.6), {"L": ("IN+", "IN-"), "R": ("OUT+", "OUT-")}, spacing=1)
    vin, gin = sheet.pin("U1", "IN+"), sheet.pin("U1", "IN-")
    out, gout = sheet.pin("U1", "OUT+"), sheet.pin("U1", "OUT-")
    sheet.flag(sheet.wire(out, (out[0] + 0.4, out[1])), "5V", "right")
    sheet.ground(sheet.wire(gout, (gout[0] + 0.4, gout[1])))
    if short:  # one wire across the input, the ground symbol on it
        sheet.wire(vin, (vin[0] - 0.5, vin[1]), (gin[0] - 0.5, gin[1]), gin)
        sheet.ground((vin[0] - 0.5, (vin[1] + gin[1]) / 2))
    else:  # the 12 V feed ends beside the pin
        sheet.flag(sheet.wire((vin[0] - 0.1, vin[1]), (vin[0] - 0.5, vin[1])), "12V", "left")
        sheet.ground(sheet.wire(gin, (gin[0] - 0.5, gin[1])))
    return sheet


def test_the_netlist_check_sees_a_wire_that_shorts_or_misses():
    shorted = drawn_nets(_converter(short=True))
    assert shorted["GND"] >= {"U1.IN+", "U1.IN-"}  # not the circuit's: IN+ is on 12V
    with pytest.raises(AssertionError, match=r"\['U1.IN\+'\] is joined to nothing"):
        drawn_nets(_converter(short=False))


# -- what it says, and that it can be read ---------------------------------------------------


def test_every_part_is_named_with_what_it_is(drawn):
    _, svg = drawn
    lines = [line for text in svg_layout.texts(svg) for line in text]
    words = {word for line in lines for word in line.split()}
    for part in schematic.PARTS:
        assert part.ref in words or any(line.startswith(part.ref + " ") for line in lines), part
        assert any(part.label in line for line in lines), part.label
    for name in (
        "Raspberry Pi 40-pin header",
        "KY-040 rotary encoder",
        "BSS138 I2C level shifter",
        "LCD backpack PCF8574, I2C address 0x27",
        "DRV8871 motor driver, limit 0.94 A",
        "buck converter 12 V to 5 V, 3 A",
        "ULN2803A",
    ):
        assert any(name in line for line in lines), name


def test_the_image_names_every_role_on_its_gpio(drawn):
    _, svg = drawn
    flags = [re.split(r"[ |]+", line) for text in svg_layout.texts(svg) for line in text]
    for role, bcm, _ in (*schematic.HEADER, *schematic.LAUNCHER):
        assert any(words[0] == f"GPIO{bcm}" and role in words for words in flags), role


def test_no_text_touches_another_or_a_line(drawn):
    _, svg = drawn
    assert svg_layout.clashes(svg) == []


def test_every_text_is_inside_the_picture(drawn):
    _, svg = drawn
    x, y, width, height = (float(v) for v in svg_layout.root(svg).get("viewBox").split())
    boxes = svg_layout.text_boxes(svg)
    assert len(boxes) > 100  # every part, pin and net is named: the picture has its texts
    for box in boxes:
        assert x <= box.x0 and box.x1 <= x + width and y <= box.y0 and box.y1 <= y + height, box


def test_its_smallest_text_is_readable_at_page_width(drawn):
    _, svg = drawn
    width, _ = svg_layout.size(svg)
    sizes = [float(e.get("font-size")) for e in svg_layout.root(svg).iter() if e.get("font-size")]
    assert min(sizes) * PAGE_WIDTH / width >= 10  # px


def test_the_image_is_drawn_from_the_source(drawn):
    _, svg = drawn
    assert svg == IMAGE.read_text(encoding="utf-8")


def test_the_picture_beside_it_is_the_image_at_page_width(drawn):
    _, svg = drawn
    data = PICTURE.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    svg_width, svg_height = svg_layout.size(svg)
    assert width == PAGE_WIDTH
    assert abs(height - round(PAGE_WIDTH * svg_height / svg_width)) <= 1


# -- the pin tables ------------------------------------------------------------------------


def readme_rows() -> dict[str, tuple[int, int]]:
    text = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([a-z0-9.]+) \| (\d+) \| (\d+) \|$", text, re.M)
    return {role: (int(bcm), int(pin)) for role, bcm, pin in rows}


def test_every_role_of_the_default_pin_map_is_drawn_on_its_gpio():
    assert {role: bcm for role, bcm, _ in schematic.HEADER} == dict(DEFAULT_PINS)


def test_the_header_pins_are_those_of_the_hardware_readme():
    rows = readme_rows()
    assert len(rows) == len(DEFAULT_PINS)
    assert {role: (bcm, pin) for role, bcm, pin in schematic.HEADER} == rows


def test_the_launcher_table_is_the_pin_maps_and_the_build_guides():
    pins = {role: bcm for role, bcm, _ in schematic.LAUNCHER}
    assert pins == dict(LAUNCHER_TABLE_PINS)
    header_pin = {bcm: pin for _, bcm, pin in schematic.HEADER}
    for role, bcm, pin in schematic.LAUNCHER:
        assert header_pin.get(bcm, pin) == pin, role  # a shared GPIO sits on the same pin
    PinMap.build(LAUNCHER_TABLE_SEATS, pins)  # raises on a clash or a pin a Pi lacks
    guide = (ROOT / "docs" / "build.md").read_text(encoding="utf-8")
    configs = [tomllib.loads(block) for block in re.findall(r"```toml\n(.*?)```", guide, re.S)]
    assert {"table": {"seats": LAUNCHER_TABLE_SEATS}, "pins": pins} in configs


def test_the_header_pin_of_each_gpio_is_the_pis():
    # BCM → physical pin on every 40-pin Pi
    pi = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31}
    pi |= {13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24}
    pi |= {7: 26, 12: 32, 16: 36, 20: 38, 21: 40}
    for _, bcm, pin in (*schematic.HEADER, *schematic.LAUNCHER, *schematic.I2C):
        assert pi[bcm] == pin, bcm
