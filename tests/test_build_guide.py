"""The build guide (docs/build.md), the hardware README and the schematic tell one story,
quote the LCD as the table shows it, and the enclosure drawing is the one its source draws
at the sizes the guide gives."""

import ast
import functools
import importlib.util
import re
import struct
import sys
from pathlib import Path

import pytest

from controller.game.view import IDLE_JOIN
from hardware.pinmap import DEFAULT_PINS, LAUNCHER_TABLE_PINS

from . import svg_layout
from .test_schematic import schematic

ROOT = Path(__file__).parents[1]
GUIDE = ROOT / "docs" / "build.md"
README = ROOT / "hardware" / "README.md"
DEPLOY = ROOT / "docs" / "deploy.md"
ENCLOSURE = ROOT / "docs" / "enclosure.py"
COLUMNS = 16  # the LCD's width


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def prose(text: str) -> str:
    """The text without its code blocks."""
    return re.sub(r"```.*?```", "", text, flags=re.S)


def section(text: str, heading: str) -> str:
    """From `heading` (a line starting with #s) to the next heading of its level or above."""
    level = len(heading) - len(heading.lstrip("#"))
    start = text.index(heading + "\n")
    rest = text[start + len(heading) + 1 :]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[: end.start()] if end else rest


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the Markdown tables in `text`, cell by cell."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"^\|[-| ]+\|$", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


# -- the LCD's words ---------------------------------------------------------------------------

CODE = [
    *(ROOT / "controller").glob("*.py"),
    *(ROOT / "controller" / "game").glob("*.py"),
    *(ROOT / "controller" / "menu").glob("*.py"),
    *(ROOT / "controller" / "settings").glob("*.py"),
]


@functools.cache
def code_strings() -> frozenset[str]:
    """Every string constant of the code that draws the LCD, but docstrings and the parts
    of f-strings."""
    found = set()
    for path in CODE:
        tree = ast.parse(read(path))
        skip = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                skip.update(id(value) for value in node.values)
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
                skip.add(id(body[0].value))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in skip
            ):
                found.add(node.value.strip())
    return frozenset(found)


ITALIC = re.compile(r"(?<![*\w])\*([^*\n]+?)\*(?![*\w])")
SCREEN = re.compile(r"\b(LCD|menu|screen)\b", re.I)


def lcd_quotes(path: Path, every_italic: bool) -> list[str]:
    """The LCD texts a doc quotes: in italics, in paragraphs and list items that speak of
    the LCD, the menu or a screen (in the build guide, every italic span: it keeps
    italics for the table's own words)."""
    quotes = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )", prose(read(path))):
        if every_italic or SCREEN.search(block):
            quotes += ITALIC.findall(block)
    return quotes


@pytest.mark.parametrize(
    ("path", "every_italic"), [(GUIDE, True), (DEPLOY, False), (README, False)]
)
def test_every_lcd_text_the_docs_quote_is_the_tables_own(path, every_italic):
    strings = code_strings()
    quotes = lcd_quotes(path, every_italic)
    for quote in quotes:
        assert len(quote) <= COLUMNS, quote
        assert quote in strings, f"{path.name} quotes {quote!r}, which the table never shows"


def test_the_docs_show_the_idle_screen_as_the_table_does():
    for path in (GUIDE, DEPLOY):
        assert IDLE_JOIN in lcd_quotes(path, path == GUIDE), path.name


def test_the_lcd_quote_check_knows_a_line_the_table_never_shows(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("Once up, the LCD shows *Press your button to join*.\n", encoding="utf-8")
    (quote,) = lcd_quotes(doc, every_italic=False)
    assert len(quote) > COLUMNS and quote not in code_strings()


# -- one story -------------------------------------------------------------------------------


def bom() -> dict[str, list[str]]:
    rows = table_rows(section(read(GUIDE), "## Bill of materials"))
    return {row[0]: row for row in rows if row[0] != "part"}


def test_the_seat_lights_are_driven_the_same_way_everywhere():
    guide, readme = prose(read(GUIDE)), prose(read(README))
    for text in (guide, readme):
        assert "ULN2803A" in text
        assert "MOSFET" not in text
    # the buttons' LEDs carry their own resistor: the schematic has none in series
    assert "resistor built in" in bom()["seat buttons"][1]
    assert "resistor built in" in schematic.LED_LABEL
    for n in range(1, 9):
        assert schematic.netlist(schematic.EIGHT)[f"LED{n}-"] == {f"U2.{n}C", f"D{n}.-"}
    assert not any(row[0].startswith("LED resistor") for row in bom().values())


def test_the_motor_has_its_capacitor_in_every_telling():
    nets = schematic.netlist(schematic.LAUNCHER_TABLE)
    assert {"C2.1", "M1.+"} <= nets["MOTOR+"] and {"C2.2", "M1.-"} <= nets["MOTOR-"]
    assert schematic.BY_REF["C2"].label == "100 nF"
    assert "100 nF" in bom()["motor capacitors"][1]
    assert re.search(r"100 nF ceramic \(C2\) across the\s+motor", read(GUIDE))
    assert "100 nF capacitor" in read(README)


def test_only_the_launcher_table_has_play_pause():
    assert "play_pause" not in DEFAULT_PINS
    assert "play_pause" in LAUNCHER_TABLE_PINS
    assert schematic.BY_REF["S11"].builds == {schematic.LAUNCHER_TABLE}
    assert bom()["Play/Pause button"][2] == "launcher"
    readme = " ".join(read(README).split())
    assert "Play/Pause only on a table of 6 seats or fewer" in readme


@pytest.mark.parametrize(
    ("part", "ref"),
    [
        ("motor driver", "U6"),
        ("motor", "M1"),
        ("card sensor", "U7"),
        ("hopper switch", "S12"),
        ("launcher button", "S10"),
        ("light driver", "U2"),
        ("LCD", "U5"),
        ("level shifter", "U4"),
    ],
)
def test_the_bill_of_materials_names_each_part_for_the_tables_that_have_it(part, ref):
    builds = schematic.BY_REF[ref].builds
    assert bom()[part][2] == ("both" if builds == schematic.BOTH else "launcher")


def test_the_harness_carries_the_schematics_nets():
    rows = table_rows(section(read(GUIDE), "## The harness and connectors"))
    nets = set()
    for build in schematic.BUILDS:
        nets |= set(schematic.netlist(build))
    connectors = {row[0]: [pin.strip() for pin in row[1].split(",")] for row in rows[1:]}
    for name, pins in connectors.items():
        if name != "PI":
            assert set(pins) <= nets, name
    for n in range(1, 9):
        button = f"GPIO{DEFAULT_PINS[f'seat{n}.button']}"
        assert connectors[f"SEAT{n}"] == ["5V", f"LED{n}-", button, "GND"]
    assert connectors["PLAY"][0] == f"GPIO{LAUNCHER_TABLE_PINS['play_pause']}"
    assert connectors["BEAM"] == ["IR_ANODE", "GND", f"GPIO{LAUNCHER_TABLE_PINS['launcher.beam']}"]
    assert connectors["HOPPER"][0] == f"GPIO{LAUNCHER_TABLE_PINS['launcher.empty']}"


def test_every_stage_of_assembly_ends_with_a_check():
    order = section(read(GUIDE), "## Order of assembly")
    stages = re.split(r"^### ", order, flags=re.M)[1:]
    assert len(stages) >= 6
    for stage in stages:
        title = stage.splitlines()[0]
        if title != "First power-on":
            assert "**Check**" in stage, title
    # the checks use what a builder has: a multimeter, the config check, the hardware test
    assert "multimeter" in order
    assert "flashtable check-config" in order
    assert "*Hardware test*" in order


def test_the_images_the_guide_shows_are_there():
    images = re.findall(r"\]\(([\w.]+\.(?:png|svg))\)", read(GUIDE))
    assert {"schematic.png", "schematic.svg", "enclosure.png", "enclosure.svg"} <= set(images)
    for image in images:
        assert (GUIDE.parent / image).is_file(), image


# -- the enclosure ---------------------------------------------------------------------------


def _load():
    spec = importlib.util.spec_from_file_location("enclosure", ENCLOSURE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["enclosure"] = module
    spec.loader.exec_module(module)
    return module


enclosure = _load()


@pytest.fixture(scope="module")
def drawing(tmp_path_factory):
    return enclosure.draw(tmp_path_factory.mktemp("enclosure") / "enclosure.svg")


def test_the_guide_gives_the_sizes_the_drawing_is_drawn_to():
    rows = table_rows(section(read(GUIDE), "## The enclosure"))
    given = {what: float(size) for what, size in rows[1:]}
    assert given == {what: float(size) for size, what in enclosure.SIZES.values()}
    guide = read(GUIDE)
    assert f"{enclosure.SIDE:.1f} mm long" in guide
    assert f"{enclosure.WALL_HEIGHT:.0f} mm high" in guide


def test_the_enclosure_image_is_drawn_from_its_source(drawing):
    assert drawing == read(ROOT / "docs" / "enclosure.svg")


def test_no_text_of_the_enclosure_touches_another_or_a_line(drawing):
    assert svg_layout.clashes(drawing) == []


def test_the_enclosure_picture_is_the_image_at_page_width(drawing):
    data = (ROOT / "docs" / "enclosure.png").read_bytes()
    width, height = struct.unpack(">II", data[16:24])
    svg_width, svg_height = svg_layout.size(drawing)
    assert width == 880
    assert abs(height - round(880 * svg_height / svg_width)) <= 1


# -- the launcher's mechanics: the numbers the guide gives are the drawing's -----------------


def test_the_belt_the_guide_lists_is_the_length_its_pulleys_and_shafts_need():
    guide = " ".join(read(GUIDE).split())
    small = enclosure.pitch_diameter(enclosure.SMALL_TEETH)
    large = enclosure.pitch_diameter(enclosure.LARGE_TEETH)
    # the formula as the guide writes it, with the drawing's numbers put in
    assert "L = 2C + π(D + d)/2 + (D \N{MINUS SIGN} d)² / 4C" in guide
    assert f"C = {enclosure.SHAFTS:.1f} mm between the shafts" in guide
    assert f"d = {small:.2f} mm and D = {large:.2f} mm" in guide
    assert f"L = {enclosure.BELT:.1f} mm" in guide
    # the belt to buy is a whole number of teeth, the nearest to the length needed
    teeth = enclosure.BELT_TEETH
    assert abs(enclosure.BELT - teeth * enclosure.GT2_PITCH) <= enclosure.GT2_PITCH / 2
    length = f"{teeth * enclosure.GT2_PITCH:.0f} mm ({teeth} teeth)"
    assert length in guide
    assert length in bom()["roller belt"][1]
    assert enclosure.SMALL_TEETH * 3 == enclosure.LARGE_TEETH  # "a third of the speed"
    assert "tensioner" in bom()["roller belt"][1]


def test_the_large_pulley_turns_clear_of_the_table_through_the_bottom_plates_cut_out():
    low, ply = enclosure.PULLEY_LOW, enclosure.mm("plywood")
    assert 0 < low < ply  # into the bottom plate, above the table: the plate needs the hole
    reach = enclosure.pitch_diameter(enclosure.LARGE_TEETH) / 2 + enclosure.FLANGE
    above_plate = enclosure._shafts()[1][1] - ply
    chord = 2 * (reach**2 - above_plate**2) ** 0.5  # where the pulley passes the plate's top
    assert enclosure.mm("cutout_l") > chord
    guide = " ".join(read(GUIDE).split())
    assert f"reaches down to {low:.1f} mm above the table" in guide
    cutout = f"{enclosure.mm('cutout_l'):.0f} x {enclosure.mm('cutout_w'):.0f} mm"
    assert f"Cut a hole of {cutout}" in guide


def test_every_part_of_the_launchers_mechanics_is_in_the_bill_of_materials():
    parts = bom()
    assert "30 mm long" in parts["motor"][1] and "bracket" in parts["motor"][1]
    assert "idler's axle" in parts["shafts"][1]
    assert "idler's axle" in parts["idler springs"][1]
    assert "steel strip" in parts["gate"][1]
    mechanics = section(read(GUIDE), "## The launcher's mechanics")
    for part in ("side cheeks", "bearings", "springs", "steel strip", "tensioner", "cut-out"):
        assert part in mechanics, part


def test_the_launcher_tables_config_has_the_lines_its_sentence_counts():
    guide = read(GUIDE)
    counted = re.search(r"(\w+) lines of `\[pins\]`", guide).group(1)
    block = guide[guide.index("The config of a launcher table") :]
    block = block[block.index("[pins]") : block.index("```", block.index("[pins]"))]
    lines = [line for line in block.splitlines()[1:] if "=" in line]
    words = {"four": 4, "five": 5, "six": 6}
    assert words[counted.lower()] == len(lines)
    # the shipped config offers the same lines, commented out
    shipped = read(ROOT / "systemd" / "flashtable.toml")
    for line in lines:
        assert f"# {line}" in shipped, line


def test_the_pico_reads_the_same_card_sensor_wired_the_same_way():
    pico = read(ROOT / "firmware" / "README.md")
    sensor = bom()["card sensor"][1]
    assert "opto-interrupter" in sensor and "150 Ω" in sensor
    wiring = section(pico, "## Wiring")
    assert "opto-interrupter" in wiring and "150 Ω" in wiring
    assert "VCC" not in wiring  # the slotted sensor has no supply pin of its own


def test_the_shipped_config_has_its_headers_and_every_key_commented_out_as_the_guide_says():
    shipped = read(ROOT / "systemd" / "flashtable.toml").splitlines()
    live = [line for line in shipped if line.strip() and not line.lstrip().startswith("#")]
    assert live and all(re.fullmatch(r"\[\w+\]", line) for line in live), live
    deploy = " ".join(read(DEPLOY).split())
    assert "each section's header with every key under it a comment" in deploy
    assert "example.org" not in deploy  # step 3 copies the operator's own checkout
