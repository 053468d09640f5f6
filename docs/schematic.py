"""The table's wiring schematic, drawn with schemdraw: writes docs/schematic.svg.

    .venv/bin/python docs/schematic.py     (schemdraw is among the dev dependencies)
    rsvg-convert -w 880 -b white docs/schematic.svg -o docs/schematic.png     (librsvg2-bin)

The circuit is data: every part with its pins and the net each pin is on (`PARTS`), for the
two builds of docs/build.md. The drawing places those parts and joins their pins by wires or
by net flags, and records where each pin and flag landed; tests/test_schematic.py reads the
netlist back out of the drawing's geometry and holds it, and the data, against the netlist
the build guide describes, and the pin tables against hardware/pinmap.py and
hardware/README.md. The PNG beside the SVG is the page-width picture for readers whose viewer
shows no SVG; make it again with the second command after drawing.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The default map: 8 seats, no launcher. (role, BCM GPIO, physical header pin)
HEADER = (
    ("seat1.button", 4, 7),
    ("seat1.light", 17, 11),
    ("seat2.button", 27, 13),
    ("seat2.light", 22, 15),
    ("seat3.button", 10, 19),
    ("seat3.light", 9, 21),
    ("seat4.button", 11, 23),
    ("seat4.light", 8, 24),
    ("seat5.button", 7, 26),
    ("seat5.light", 5, 29),
    ("seat6.button", 6, 31),
    ("seat6.light", 12, 32),
    ("seat7.button", 13, 33),
    ("seat7.light", 19, 35),
    ("seat8.button", 16, 36),
    ("seat8.light", 26, 37),
    ("slap", 20, 38),
    ("launcher", 21, 40),
    ("buzzer", 18, 12),
    ("encoder.a", 23, 16),
    ("encoder.b", 24, 18),
    ("encoder.push", 25, 22),
)
# A table with the launcher fits 6 seats: seat 7 and 8's pins serve it, and the hopper
# switch takes GPIO 15 (the UART's RX, free when no serial console uses it).
LAUNCHER = (
    ("play_pause", 13, 33),
    ("launcher.motor.forward", 19, 35),
    ("launcher.motor.backward", 16, 36),
    ("launcher.beam", 26, 37),
    ("launcher.empty", 15, 10),
)
I2C = (("SDA", 2, 3), ("SCL", 3, 5))
# The header's power pins; the Pi joins all its GND pins, and the harness uses each of them.
POWER_PINS = {
    1: "3V3",
    17: "3V3",
    2: "5V",
    4: "5V",
    **{n: "GND" for n in (6, 9, 14, 20, 25, 30, 34, 39)},
}
# Header pins the table leaves alone: the HAT EEPROM's bus and the UART's TX.
FREE_PINS = {27: "GPIO0", 28: "GPIO1", 8: "GPIO14"}

EIGHT = "8-seat table"
LAUNCHER_TABLE = "launcher table"
BUILDS = (EIGHT, LAUNCHER_TABLE)
BOTH = frozenset(BUILDS)
ONLY_EIGHT = frozenset({EIGHT})
ONLY_LAUNCHER = frozenset({LAUNCHER_TABLE})

OUT = Path(__file__).with_name("schematic.svg")


# -- the circuit ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pin:
    """One pin of a part: its name (unique in the part), the net it is on, its number."""

    name: str
    net: str
    number: str = ""
    builds: frozenset[str] = BOTH


@dataclass(frozen=True)
class Part:
    """A part of the table: its reference, what it is (as the drawing names it), its pins."""

    ref: str
    label: str
    pins: tuple[Pin, ...]
    builds: frozenset[str] = BOTH

    def pin(self, name: str) -> Pin:
        for pin in self.pins:
            if pin.name == name:
                return pin
        raise KeyError(f"{self.ref}.{name}")


def gpio(bcm: int) -> str:
    """The net of a GPIO pin."""
    return f"GPIO{bcm}"


def role_gpio(role: str) -> int:
    for name, bcm, _ in (*HEADER, *LAUNCHER):
        if name == role:
            return bcm
    raise KeyError(role)


def _two(a: str, b: str, builds: frozenset[str] = BOTH, names: tuple[str, str] = ("1", "2")):
    return (Pin(names[0], a, builds=builds), Pin(names[1], b, builds=builds))


def _pi_header() -> Part:
    roles = {pin: bcm for _, bcm, pin in HEADER}
    only = {pin: bcm for _, bcm, pin in LAUNCHER if pin not in roles}
    pins = [Pin(str(n), net, str(n)) for n, net in POWER_PINS.items()]
    pins += [Pin(str(pin), gpio(bcm), str(pin)) for _, bcm, pin in I2C]
    pins += [Pin(str(pin), gpio(bcm), str(pin)) for pin, bcm in roles.items()]
    pins += [Pin(str(pin), gpio(bcm), str(pin), ONLY_LAUNCHER) for pin, bcm in only.items()]
    return Part("J1", "Raspberry Pi 40-pin header", tuple(sorted(pins, key=lambda p: int(p.name))))


def _seats() -> list[Part]:
    eight = {7, 8}
    parts = []
    uln = [Pin("GND", "GND", "9"), Pin("COM", "5V", "10")]
    for n in range(1, 9):
        builds = ONLY_EIGHT if n in eight else BOTH
        light = gpio(role_gpio(f"seat{n}.light"))
        uln += [
            Pin(f"{n}B", light, str(n), builds),
            Pin(f"{n}C", f"LED{n}-", str(19 - n), builds),
        ]
        parts.append(Part(f"D{n}", LED_LABEL, _two("5V", f"LED{n}-", builds, ("+", "-")), builds))
        button = gpio(role_gpio(f"seat{n}.button"))
        parts.append(
            Part(f"S{n}", SWITCH_LABEL, _two(button, "GND", builds, ("NO", "COM")), builds)
        )
    parts.insert(0, Part("U2", "ULN2803A, 8 Darlington sinks", tuple(uln)))
    for ref, role, builds in (
        ("S9", "slap", BOTH),
        ("S10", "launcher", BOTH),
        ("S11", "play_pause", ONLY_LAUNCHER),
    ):
        net = gpio(role_gpio(role))
        parts.append(Part(ref, SWITCH_LABEL, _two(net, "GND", builds, ("NO", "COM")), builds))
    return parts


LED_LABEL = "seat button LEDs: 5 V type, resistor built in"
SWITCH_LABEL = "arcade button microswitches: COM to GND, NO to the GPIO"


def _parts() -> tuple[Part, ...]:
    launcher = ONLY_LAUNCHER
    return (
        Part("J2", "12 V DC jack", _two("12V_IN", "GND", names=("+", "-"))),
        Part("F1", "3 A slow-blow fuse", _two("12V_IN", "12V")),
        Part(
            "U1",
            "buck converter 12 V to 5 V, 3 A",
            (Pin("IN+", "12V"), Pin("IN-", "GND"), Pin("OUT+", "5V"), Pin("OUT-", "GND")),
        ),
        _pi_header(),
        *_seats(),
        Part("R1", "1 kΩ", _two(gpio(role_gpio("buzzer")), "Q1_BASE")),
        Part("Q1", "BC337 NPN", (Pin("B", "Q1_BASE"), Pin("C", "BUZZER-"), Pin("E", "GND"))),
        Part("BZ1", "passive piezo", _two("5V", "BUZZER-", names=("+", "-"))),
        Part("R2", "1 kΩ", _two("5V", "BUZZER-")),
        Part(
            "U3",
            "KY-040 rotary encoder",
            (
                Pin("CLK", gpio(role_gpio("encoder.a"))),
                Pin("DT", gpio(role_gpio("encoder.b"))),
                Pin("SW", gpio(role_gpio("encoder.push"))),
                Pin("+", "3V3"),
                Pin("GND", "GND"),
            ),
        ),
        Part(
            "U4",
            "BSS138 I2C level shifter",
            (
                Pin("LV", "3V3"),
                Pin("LV1", gpio(2)),
                Pin("LV2", gpio(3)),
                Pin("GND_LV", "GND"),
                Pin("HV", "5V"),
                Pin("HV1", "SDA_5V"),
                Pin("HV2", "SCL_5V"),
                Pin("GND_HV", "GND"),
            ),
        ),
        Part(
            "U5",
            "LCD backpack PCF8574, I2C address 0x27",
            (
                Pin("VCC", "5V"),
                Pin("SDA", "SDA_5V"),
                Pin("SCL", "SCL_5V"),
                Pin("GND", "GND"),
            ),
        ),
        Part("F2", "1 A polyfuse", _two("12V", "VM", launcher), launcher),
        Part("C1", "470 µF 25 V", _two("VM", "GND", launcher, ("+", "-")), launcher),
        Part(
            "U6",
            "DRV8871 motor driver, limit 0.94 A",
            (
                Pin("VM", "VM", builds=launcher),
                Pin("GND", "GND", builds=launcher),
                Pin("IN1", gpio(role_gpio("launcher.motor.forward")), builds=launcher),
                Pin("IN2", gpio(role_gpio("launcher.motor.backward")), builds=launcher),
                Pin("OUT1", "MOTOR+", builds=launcher),
                Pin("OUT2", "MOTOR-", builds=launcher),
            ),
            launcher,
        ),
        Part(
            "M1",
            "12 V gear motor",
            _two("MOTOR+", "MOTOR-", launcher, ("+", "-")),
            launcher,
        ),
        Part("C2", "100 nF", _two("MOTOR+", "MOTOR-", launcher), launcher),
        Part("R3", "150 Ω", _two("3V3", "IR_ANODE", launcher), launcher),
        Part(
            "U7",
            "slotted opto-interrupter H21A1 at the exit slot",
            (
                Pin("A", "IR_ANODE", builds=launcher),
                Pin("K", "GND", builds=launcher),
                Pin("C", gpio(role_gpio("launcher.beam")), builds=launcher),
                Pin("E", "GND", builds=launcher),
            ),
            launcher,
        ),
        Part(
            "S12",
            "hopper switch, NC contact: closed when empty",
            _two(gpio(role_gpio("launcher.empty")), "GND", launcher, ("NC", "COM")),
            launcher,
        ),
    )


PARTS = _parts()
BY_REF = {part.ref: part for part in PARTS}


def netlist(build: str) -> dict[str, frozenset[str]]:
    """The nets of one build: net name → the "REF.PIN"s on it."""
    nets: dict[str, set[str]] = defaultdict(set)
    for part in PARTS:
        if build in part.builds:
            for pin in part.pins:
                if build in pin.builds:
                    nets[pin.net].add(f"{part.ref}.{pin.name}")
    return {net: frozenset(pins) for net, pins in nets.items()}


def roles_on(bcm: int) -> dict[str, str]:
    """What a GPIO does in each build."""
    eight = {b: role for role, b, _ in HEADER}
    launcher = {**eight, **{b: role for role, b, _ in LAUNCHER}}
    builds = ((EIGHT, eight), (LAUNCHER_TABLE, launcher))
    return {build: roles[bcm] for build, roles in builds if bcm in roles}


# -- the drawing ----------------------------------------------------------------------------

TAGS = {ONLY_EIGHT: " [8]", ONLY_LAUNCHER: " [L]", BOTH: ""}
COLOURS = {ONLY_EIGHT: "#9a4a00", ONLY_LAUNCHER: "#1a55a0", BOTH: "black"}
# schemdraw writes "sans" for "sans-serif", which browsers do not know: name real fonts.
FONTS = "DejaVu Sans, Verdana, Arial, sans-serif"
FONT = 11  # at the page width of 880 px a point of the drawing is about a pixel
SMALL = 10
TITLE = 13
UNIT_PT = 36  # schemdraw's scale: points per drawing unit


def net_text(net: str, builds: frozenset[str] = BOTH) -> str:
    """What a flag on `net` says: the net, and for a GPIO what it does in these builds."""
    if not net.startswith("GPIO"):
        return net + TAGS[builds]
    bcm = int(net[4:])
    if bcm in (2, 3):
        return f"{net} {'SDA' if bcm == 2 else 'SCL'}"
    roles = {b: r for b, r in roles_on(bcm).items() if b in builds}
    if len(set(roles.values())) > 1:
        return f"{net} {roles[EIGHT]} | {roles[LAUNCHER_TABLE]}"
    only = builds if len(roles) == len(builds) else frozenset(roles)
    return f"{net} {next(iter(roles.values()))}{TAGS[only]}"


@dataclass
class Sheet:
    """A schemdraw drawing that remembers where each part's pins, each wire and each net
    flag landed, so the netlist can be read back from the picture itself."""

    drawing: Any = None
    terminals: dict[str, tuple[float, float]] = field(default_factory=dict)  # "REF.PIN"
    flags: list[tuple[str, tuple[float, float]]] = field(default_factory=list)
    wires: list[tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        import schemdraw

        schemdraw.use("svg")
        schemdraw.config(fontsize=FONT, lw=1.1, font=FONTS)
        self.drawing = schemdraw.Drawing(show=False)

    def add(self, element: Any) -> Any:
        return self.drawing.add(element)

    # what joins
    def wire(self, *points: Sequence[float], colour: str = "black") -> tuple[float, float]:
        """Straight wires through `points`; returns the last."""
        import schemdraw.elements as elm

        pts = [(float(x), float(y)) for x, y in points]
        for a, b in itertools.pairwise(pts):
            self.add(elm.Line().at(a).to(b).color(colour))
            self.wires.append((a, b))
        return pts[-1]

    def dot(self, xy: Sequence[float], colour: str = "black") -> None:
        import schemdraw.elements as elm

        self.add(elm.Dot().at(tuple(xy)).color(colour))

    def flag(
        self,
        xy: Sequence[float],
        net: str,
        side: str,
        builds: frozenset[str] = BOTH,
        text: str | None = None,
    ) -> None:
        """A net flag: an open circle at `xy` and the net's name on `side` of it."""
        import schemdraw.elements as elm

        colour = COLOURS[builds]
        x, y = float(xy[0]), float(xy[1])
        self.add(elm.Dot(open=True).at((x, y)).color(colour))
        self.flags.append((net, (x, y)))
        text = net_text(net, builds) if text is None else text
        gap = 0.18
        if side == "left":
            self.text((x - gap, y), text, "right", colour=colour)
        elif side == "right":
            self.text((x + gap, y), text, "left", colour=colour)
        elif side == "up":
            self.text((x, y + gap), text, "center", "bottom", colour=colour)
        else:
            self.text((x, y - gap), text, "center", "top", colour=colour)

    def ground(self, xy: Sequence[float], colour: str = "black") -> None:
        import schemdraw.elements as elm

        point = (float(xy[0]), float(xy[1]))
        self.add(elm.Ground(lead=False).at(point).color(colour))
        self.flags.append(("GND", point))

    def rail(self, xy: Sequence[float], net: str, colour: str = "black") -> None:
        """A supply symbol (a bar) pointing up, named by its net."""
        import schemdraw.elements as elm

        point = (float(xy[0]), float(xy[1]))
        self.add(elm.Vdd(lead=False).at(point).color(colour))
        self.flags.append((net, point))
        self.text((point[0], point[1] + 0.16), net, "center", "bottom", colour=colour)

    def text(
        self,
        xy: Sequence[float],
        text: str,
        halign: str = "left",
        valign: str = "center",
        size: float = FONT,
        colour: str = "black",
    ) -> None:
        """Text anchored exactly at `xy` (schemdraw's labels keep a margin of their own),
        its lines 1.3 em apart (schemdraw sets them 1 em apart, where they touch)."""
        import schemdraw.elements as elm
        from schemdraw.segments import SegmentText

        lines = text.split("\n")
        pitch = 1.3 * size / UNIT_PT
        first = {"top": 0.0, "center": (len(lines) - 1) * pitch / 2}.get(
            valign, (len(lines) - 1) * pitch
        )
        for i, line in enumerate(lines):
            element = elm.Element()
            element.elmparams["theta"] = 0
            element.anchors["start"] = (0, 0)
            element.segments.append(
                SegmentText(
                    (0, 0), line, align=(halign, valign), fontsize=size, font=FONTS, color=colour
                )
            )
            self.add(element.at((float(xy[0]), float(xy[1]) + first - i * pitch)))

    # parts
    def place(self, ref: str, element: Any, anchors: dict[str, str]) -> Any:
        """Add a part's symbol; `anchors` maps each of its pins to the symbol's anchor."""
        part = BY_REF[ref]
        element.color(COLOURS[part.builds])
        placed = self.add(element)
        for pin, anchor in anchors.items():
            part.pin(pin)  # a pin the circuit does not have is a slip of the drawing
            point = placed.absanchors[anchor]
            self.terminals[f"{ref}.{pin}"] = (float(point[0]), float(point[1]))
        return placed

    def box(
        self,
        ref: str,
        at: Sequence[float],
        size: tuple[float, float],
        sides: dict[str, Sequence[str]],
        *,
        spacing: float,
        names: dict[str, str] | None = None,
        numbers: bool = True,
        inside: str = "",
        inside_at: tuple[float, float] | None = None,
    ) -> Any:
        """A module or a chip as a box, `at` its lower left corner. `sides` lists each
        side's pins ("L", "R" top to bottom, "T", "B" left to right)."""
        import schemdraw.elements as elm

        part = BY_REF[ref]
        names = names or {}
        pins = []
        for side, listed in sides.items():
            order = list(reversed(listed)) if side in ("L", "R") else list(listed)
            for name in order:
                pin = part.pin(name)
                colour = COLOURS[pin.builds] if pin.builds != part.builds else None
                pins.append(
                    elm.IcPin(
                        name=names.get(name, name),
                        pin=pin.number if numbers else "",
                        side=side,
                        anchorname=f"_{name}",
                        color=colour,
                    )
                )
        element = chip_box(pins, size, spacing).at((float(at[0]), float(at[1])))
        placed = self.place(ref, element, {n: f"_{n}" for s in sides.values() for n in s})
        if inside:
            w, h = size
            cx, cy = inside_at if inside_at else (w / 2, h / 2)
            self.text((at[0] + cx, at[1] + cy), inside, "center", colour=COLOURS[part.builds])
        return placed

    def pin(self, ref: str, name: str) -> tuple[float, float]:
        return self.terminals[f"{ref}.{name}"]

    def two(
        self,
        ref: str,
        element: Any,
        start: Sequence[float],
        direction: str,
        length: float,
        pins: tuple[str, str] = ("1", "2"),
    ) -> Any:
        """A two-terminal part from `start`, its first pin there."""
        element = getattr(element.at((float(start[0]), float(start[1]))), direction)()
        element = element.length(length)
        return self.place(ref, element, {pins[0]: "start", pins[1]: "end"})

    def svg(self) -> str:
        return self.drawing.get_imagedata("svg").decode()


def draw(out: Path = OUT) -> Sheet:
    """Draw the schematic and write it to `out`; the sheet holds what was drawn where."""
    sheet = Sheet()
    _legend(sheet, 0.0)
    _power(sheet, -2.6)
    _pi(sheet, -8.2)
    _seat_block(sheet, -26.4)
    _buzzer_and_encoder(sheet, -43.0)
    _lcd(sheet, -50.2)
    _launcher(sheet, -57.2)
    out.write_text(on_white(alphabetic(sheet.svg())), encoding="utf-8")
    return sheet


def on_white(svg: str) -> str:
    """The SVG on a white ground: on a dark page its black lines would not show."""
    import re

    head = re.match(r"<svg [^>]*>", svg)
    box = re.search(r'viewBox="([-\d.e]+) ([-\d.e]+) ([-\d.e]+) ([-\d.e]+)"', svg)
    if head is None or box is None:
        return svg
    x, y, w, h = box.groups()
    ground = f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="white" />'
    return svg[: head.end()] + ground + svg[head.end() :]


# How far each of SVG's baselines sits above the alphabetic one, in em, for DejaVu Sans:
# centred on the capitals, the top of the ascenders, the bottom of the descenders.
BASELINES = {"central": -0.365, "hanging": -0.76, "ideographic": 0.24, "alphabetic": 0.0}


def alphabetic(svg: str) -> str:
    """The SVG with every text on its alphabetic baseline. schemdraw aligns text with
    `dominant-baseline`, which librsvg (and so the PNG) ignores: moving each text by hand
    makes every viewer put it in the same place."""
    import re

    def move(match: re.Match[str]) -> str:
        tag = match.group(0)
        baseline = re.search(r'dominant-baseline="([a-z]+)"', tag)
        size = re.search(r'font-size="([\d.]+)"', tag)
        y = re.search(r' y="([-\d.e]+)"', tag)
        if not (baseline and size and y):
            return tag
        shift = -BASELINES[baseline.group(1)] * float(size.group(1))
        tag = tag.replace(y.group(0), f' y="{round(float(y.group(1)) + shift, 3)}"')
        return tag.replace(baseline.group(0), 'dominant-baseline="alphabetic"')

    return re.sub(r"<text [^>]*>", move, svg)


def _legend(s: Sheet, y: float) -> None:
    s.text((0, y), "Flash Table wiring", size=15)
    s.text(
        (0, y - 0.8),
        "Flags join by name: every flag GPIO17 is one wire to the Pi's GPIO17, every 5V the"
        " 5 V rail; all grounds are one.",
    )
    s.text((0, y - 1.4), "[8] only on the 8-seat table", colour=COLOURS[ONLY_EIGHT])
    s.text((5.4, y - 1.4), "[L] only on the launcher table", colour=COLOURS[ONLY_LAUNCHER])
    s.text((11.4, y - 1.4), "a | b: the pin's role on the 8-seat table | on the launcher table")


def chip_box(pins: list[Any], size: tuple[float, float], spacing: float) -> Any:
    """A box with pins, as every module and chip of the sheet is drawn, facing right."""
    import schemdraw.elements as elm

    return elm.Ic(
        pins=pins,
        size=size,
        pinspacing=spacing,
        lsize=SMALL,
        plblsize=SMALL,
        plblofst=0.1,
        lofst=0.15,
        leadlen=0.5,
    ).right()


def _caption(s: Sheet, ref: str, xy: Sequence[float], halign: str = "left", more: str = "") -> None:
    """A part's reference and label, and `more` on the lines below."""
    part = BY_REF[ref]
    text = f"{ref} {part.label}" + (f"\n{more}" if more else "")
    s.text(xy, text, halign, "top", SMALL, COLOURS[part.builds])


def _power(s: Sheet, y: float) -> None:
    import schemdraw.elements as elm

    s.text((0, y), "Power: one 12 V brick; the buck converter makes the 5 V rail", size=TITLE)
    base = y - 3.1
    _caption(s, "J2", (0.2, y - 0.7))
    s.box("J2", (0.2, base), (1.8, 1.6), {"R": ("+", "-")}, spacing=1.0, numbers=False)
    s.text((0.7, base + 0.8), "J2", "center")
    plus, minus = s.pin("J2", "+"), s.pin("J2", "-")
    s.ground(s.wire(minus, (minus[0] + 0.5, minus[1]), (minus[0] + 0.5, minus[1] - 0.3)))
    fuse = s.wire(plus, (plus[0] + 0.4, plus[1]))
    s.two("F1", elm.Fuse(), fuse, "right", 1.6)
    s.text((fuse[0] + 0.8, fuse[1] + 0.4), "F1", "center", "bottom", SMALL)
    node = s.wire((fuse[0] + 1.6, fuse[1]), (fuse[0] + 2.6, fuse[1]))
    s.dot(node)
    s.flag(s.wire(node, (node[0], node[1] + 0.8)), "12V", "right", text="12V (fused: to F2)")
    s.box(
        "U1",
        (node[0] + 2.0, base),
        (2.6, 1.6),
        {"L": ("IN+", "IN-"), "R": ("OUT+", "OUT-")},
        spacing=1.0,
        numbers=False,
    )
    s.wire(node, s.pin("U1", "IN+"))
    vin = s.pin("U1", "IN-")
    s.ground(s.wire(vin, (vin[0] - 0.5, vin[1]), (vin[0] - 0.5, vin[1] - 0.3)))
    out = s.pin("U1", "OUT+")
    s.flag(s.wire(out, (out[0] + 0.4, out[1])), "5V", "right", text="5V (to J1 pins 2, 4)")
    gout = s.pin("U1", "OUT-")
    s.ground(s.wire(gout, (gout[0] + 0.5, gout[1]), (gout[0] + 0.5, gout[1] - 0.3)))
    s.text((node[0] + 3.3, base + 0.8), "U1", "center")
    _caption(s, "F1", (0.2, base - 0.5), more="J2 takes a 12 V 3 A brick")
    _caption(s, "U1", (node[0] + 2.0, base - 0.5), more="set it to 5.0-5.1 V before the Pi is on;")
    s.text(
        (node[0] + 2.0, base - 1.3),
        "the Pi's own USB power socket stays empty",
        valign="top",
        size=SMALL,
    )


def _pi(s: Sheet, y: float) -> None:
    import schemdraw.elements as elm

    s.text((0, y), "Raspberry Pi: pin numbers outside J1, names inside", size=TITLE)
    part = BY_REF["J1"]
    wired = {int(p.name): p for p in part.pins}
    names = {n: POWER_PINS.get(n) or FREE_PINS.get(n) or wired[n].net for n in range(1, 41)}
    spacing = 0.78
    height = spacing * 19 + 0.8
    left_x = 9.0
    pins = []
    for n in range(1, 41):
        # schemdraw stacks a side's pins from the bottom up, and pin 1 is at the top
        slot = 20 - (n - 1) // 2
        colour = COLOURS[wired[n].builds] if n in wired and wired[n].builds != BOTH else None
        pins.append(
            elm.IcPin(
                name=names[n],
                pin=str(n),
                side="L" if n % 2 else "R",
                slot=f"{slot}/20",
                anchorname=f"_{n}",
                color=colour,
            )
        )
    element = chip_box(pins, (3.6, height), spacing).at((left_x, y - 1.1 - height))
    s.place("J1", element, {str(n): f"_{n}" for n in wired})
    _caption(s, "J1", (left_x + 1.8, y - 0.5), "center")
    for n, pin in wired.items():
        point = s.pin("J1", str(n))
        side = "left" if n % 2 else "right"
        dx = -0.5 if side == "left" else 0.5
        end = s.wire(point, (point[0] + dx, point[1]), colour=COLOURS[pin.builds])
        s.flag(end, pin.net, side, pin.builds)
    s.text(
        (left_x + 1.8, y - 1.6 - height),
        "pins 8, 27 and 28 stay free: GPIO14 is the UART's, GPIO0 and 1 the HAT ID bus",
        "center",
        "top",
        SMALL,
    )


def _seat_block(s: Sheet, y: float) -> None:
    import schemdraw.elements as elm

    s.text(
        (0, y), "Seats: U2 sinks each seat's LED; every button pulls its GPIO to GND", size=TITLE
    )
    spacing = 1.2
    first = y - 2.6  # seat 1's row
    rows = {n: first - (n - 1) * spacing for n in range(1, 12)}
    box_x = 6.4
    s.box(
        "U2",
        (box_x, rows[8] - 0.6),
        (2.6, spacing * 7 + 1.2),
        {
            "L": [f"{n}B" for n in range(1, 9)],
            "R": [f"{n}C" for n in range(1, 9)],
            "T": ("COM",),
            "B": ("GND",),
        },
        spacing=spacing,
        inside="U2\nULN2803A",
    )
    com = s.pin("U2", "COM")
    s.rail(s.wire(com, (com[0], com[1] + 0.2)), "5V")
    s.ground(s.pin("U2", "GND"))
    bus5 = 12.2
    gnd_bus = 22.8
    uln = BY_REF["U2"]
    for n in range(1, 9):
        pin_b = uln.pin(f"{n}B")
        colour = COLOURS[pin_b.builds]
        b = s.pin("U2", f"{n}B")
        s.flag(s.wire(b, (b[0] - 0.4, b[1]), colour=colour), pin_b.net, "left", pin_b.builds)
        c = s.pin("U2", f"{n}C")
        s.wire(c, (c[0] + 1.2, c[1]), colour=colour)
        s.two(f"D{n}", elm.LED(), (bus5, c[1]), "left", bus5 - c[0] - 1.2, ("+", "-"))
        s.dot((bus5, c[1]))
        s.text((c[0] + 0.85, c[1] + 0.1), f"D{n}", "center", "bottom", SMALL, colour)
    s.wire((bus5, rows[1]), (bus5, rows[1] + 0.7))
    s.rail((bus5, rows[1] + 0.7), "5V")
    s.wire((bus5, rows[1]), (bus5, rows[8]))
    switches = [(f"S{n}", n) for n in range(1, 9)] + [("S9", 9), ("S10", 10), ("S11", 11)]
    for ref, row in switches:
        part = BY_REF[ref]
        colour = COLOURS[part.builds]
        yy = rows[row]
        start = (gnd_bus - 2.0, yy)
        s.flag((start[0] - 0.4, yy), part.pin("NO").net, "left", part.builds)
        s.wire((start[0] - 0.4, yy), start, colour=colour)
        s.two(ref, elm.Button(), start, "right", 1.4, ("NO", "COM"))
        s.wire((start[0] + 1.4, yy), (gnd_bus, yy), colour=colour)
        if row > 1:
            s.dot((gnd_bus, yy))
        s.text((start[0] + 0.7, yy - 0.22), ref, "center", "top", SMALL, colour)
    s.wire((gnd_bus, rows[1]), (gnd_bus, rows[11] - 0.3))
    s.ground((gnd_bus, rows[11] - 0.3))
    _caption(s, "U2", (box_x + 1.3, rows[8] - 1.7), "center")
    s.text((0.0, rows[10] - 0.1), f"D1-D8 {LED_LABEL}:", valign="top", size=SMALL)
    s.text(
        (0.0, rows[10] - 0.6),
        "+ to 5V, - to U2 (bare LEDs: see the build guide)",
        valign="top",
        size=SMALL,
    )
    s.text((0.0, rows[11] - 0.5), f"S1-S11 {SWITCH_LABEL}", valign="top", size=SMALL)


def _buzzer_and_encoder(s: Sheet, y: float) -> None:
    import schemdraw.elements as elm

    s.text((0, y), "Buzzer: Q1 switches the piezo", size=TITLE)
    base = y - 4.5
    start = (3.0, base)
    s.flag(start, gpio(role_gpio("buzzer")), "left")
    s.two("R1", elm.Resistor(), start, "right", 1.6)
    s.text((3.8, base + 0.35), "R1 1 kΩ", "center", "bottom", SMALL)
    q = s.place(
        "Q1",
        elm.BjtNpn(circle=True).right().anchor("base").at((4.6, base)),
        {"B": "base", "C": "collector", "E": "emitter"},
    )
    s.text((q.absanchors["center"][0] + 0.75, base), "Q1 BC337 NPN", "left", size=SMALL)
    e = s.pin("Q1", "E")
    s.ground(s.wire(e, (e[0], e[1] - 0.2)))
    c = s.pin("Q1", "C")
    node = s.wire(c, (c[0], c[1] + 0.4))
    s.dot(node)
    s.two("BZ1", elm.Crystal(), node, "up", 1.6, ("-", "+"))
    top = (node[0], node[1] + 1.6)
    s.dot(top)
    s.rail(s.wire(top, (top[0], top[1] + 0.3)), "5V")
    s.text((node[0] - 0.45, node[1] + 0.8), "BZ1 passive piezo", "right", size=SMALL)
    right = s.wire(node, (node[0] + 1.4, node[1]))
    s.two("R2", elm.Resistor(), right, "up", 1.6, ("2", "1"))
    s.wire((right[0], right[1] + 1.6), top)
    s.text((right[0] + 0.4, right[1] + 0.8), "R2 1 kΩ", "left", size=SMALL)

    x = 12.6
    s.text((x, y), "Rotary encoder: U3 on 3.3 V, never 5 V", size=TITLE)
    pins = ("CLK", "DT", "SW", "+", "GND")
    s.box(
        "U3",
        (x + 6.4, y - 5.0),
        (1.8, 4.0),
        {"L": pins},
        spacing=0.8,
        numbers=False,
        inside="U3",
        inside_at=(1.25, 2.0),
    )
    _caption(s, "U3", (x + 7.3, y - 5.3), "center")
    for name in pins:
        point = s.pin("U3", name)
        net = BY_REF["U3"].pin(name).net
        s.flag(s.wire(point, (point[0] - 0.4, point[1])), net, "left")


def _lcd(s: Sheet, y: float) -> None:
    s.text((0, y), "LCD: the 5 V backpack U5 meets the Pi's 3.3 V I2C through U4", size=TITLE)
    low = ("LV", "LV1", "LV2", "GND_LV")
    high = ("HV", "HV1", "HV2", "GND_HV")
    names = {"GND_LV": "GND", "GND_HV": "GND"}
    bottom = y - 4.6
    s.box(
        "U4",
        (3.6, bottom),
        (2.6, 3.4),
        {"L": low, "R": high},
        spacing=0.8,
        names=names,
        numbers=False,
    )
    _caption(s, "U4", (4.9, bottom - 0.3), "center")
    for name in low:
        point = s.pin("U4", name)
        s.flag(s.wire(point, (point[0] - 0.4, point[1])), BY_REF["U4"].pin(name).net, "left")
    back = ("VCC", "SDA", "SCL", "GND")
    s.box("U5", (11.0, bottom), (2.0, 3.4), {"L": back}, spacing=0.8, numbers=False)
    for a, b in zip(high, back, strict=True):
        s.wire(s.pin("U4", a), s.pin("U5", b))
    vcc = s.pin("U5", "VCC")
    junction = (vcc[0] - 1.4, vcc[1])
    s.dot(junction)
    s.rail(s.wire(junction, (junction[0], junction[1] + 0.4)), "5V")
    gnd = s.pin("U5", "GND")
    junction = (gnd[0] - 1.4, gnd[1])
    s.dot(junction)
    s.ground(s.wire(junction, (junction[0], junction[1] - 0.2)))
    _caption(
        s,
        "U5",
        (13.6, y - 1.0),
        more="(0x3F if its chip is a PCF8574A), on the 16x2 LCD;\nit runs on 5 V, and its"
        " pull-ups to 5 V\nreach the Pi only through U4",
    )


def _launcher(s: Sheet, y: float) -> None:
    import schemdraw.elements as elm

    blue = COLOURS[ONLY_LAUNCHER]
    s.text(
        (0, y),
        "Launcher [L]: U6 drives the roller from fused 12 V; beam and hopper switch pull to GND",
        size=TITLE,
        colour=blue,
    )
    line = y - 1.6
    s.flag((1.4, line), "12V", "left", ONLY_LAUNCHER, text="12V")
    s.two("F2", elm.Fuse(), (1.4, line), "right", 1.6)
    s.text((2.2, line + 0.4), "F2 1 A polyfuse", "center", "bottom", SMALL, blue)
    node = s.wire((3.0, line), (4.4, line), colour=blue)
    s.dot(node, blue)
    s.two(
        "C1",
        elm.Capacitor(),
        s.wire(node, (node[0], node[1] - 0.4)),
        "down",
        1.2,
        ("+", "-"),
    )
    s.ground((node[0], node[1] - 1.6), blue)
    s.text((node[0] - 0.3, node[1] - 0.7), "+", "right", size=SMALL, colour=blue)
    s.text((node[0] + 0.45, node[1] - 1.0), "C1 470 µF 25 V", "left", size=SMALL, colour=blue)
    box_x, box_y = 8.2, line - 5.6
    s.box(
        "U6",
        (box_x, box_y),
        (2.8, 3.0),
        {"L": ("IN1", "IN2"), "R": ("OUT1", "OUT2"), "T": ("VM",), "B": ("GND",)},
        spacing=1.6,
        numbers=False,
        inside="U6\nDRV8871",
    )
    vm = s.pin("U6", "VM")
    s.wire(node, (vm[0], line), vm, colour=blue)
    s.ground(s.pin("U6", "GND"), blue)
    _caption(
        s,
        "U6",
        (box_x + 4.2, box_y - 0.3),
        more="(R_ILIM 68 kΩ); its bridge returns\nthe motor's kick to C1",
    )
    for name in ("IN1", "IN2"):
        point = s.pin("U6", name)
        net = BY_REF["U6"].pin(name).net
        text = net_text(net, ONLY_LAUNCHER).removesuffix(TAGS[ONLY_LAUNCHER])
        s.flag(
            s.wire(point, (point[0] - 0.4, point[1]), colour=blue), net, "left", ONLY_LAUNCHER, text
        )
    o1, o2 = s.pin("U6", "OUT1"), s.pin("U6", "OUT2")
    a = s.wire(o1, (o1[0] + 1.0, o1[1]), colour=blue)
    c = s.wire(o2, (o2[0] + 1.0, o2[1]), colour=blue)
    s.dot(a, blue)
    s.dot(c, blue)
    s.two("C2", elm.Capacitor(), a, "down", a[1] - c[1], ("1", "2"))
    s.text((a[0] + 0.45, (a[1] + c[1]) / 2), "C2\n100 nF", "left", size=SMALL, colour=blue)
    b = s.wire(a, (a[0] + 2.6, a[1]), colour=blue)
    s.wire(c, (c[0] + 2.6, c[1]), colour=blue)
    s.two("M1", elm.Motor(), b, "down", a[1] - c[1], ("+", "-"))
    _caption(s, "M1", (b[0] + 0.75, (a[1] + c[1]) / 2 + 0.3), more="(the feed roller)")

    beam_y = box_y - 2.6
    s.flag((1.4, beam_y), "3V3", "left", ONLY_LAUNCHER, "3V3")
    s.two("R3", elm.Resistor(), (1.4, beam_y), "right", 1.6)
    s.text((2.2, beam_y + 0.35), "R3 150 Ω", "center", "bottom", SMALL, blue)
    opto = elm.Optocoupler(lw=1.1, color=blue).right().anchor("anode").at((3.6, beam_y))
    s.wire((3.0, beam_y), (3.6, beam_y), colour=blue)
    s.place("U7", opto, {"A": "anode", "K": "cathode", "C": "collector", "E": "emitter"})
    k = s.pin("U7", "K")
    s.ground(s.wire(k, (k[0] - 0.4, k[1]), (k[0] - 0.4, k[1] - 0.3), colour=blue), blue)
    e = s.pin("U7", "E")
    s.ground(s.wire(e, (e[0] + 0.4, e[1]), (e[0] + 0.4, e[1] - 0.3), colour=blue), blue)
    col = s.pin("U7", "C")
    net = gpio(role_gpio("launcher.beam"))
    end = s.wire(col, (col[0] + 0.6, col[1]), colour=blue)
    s.flag(end, net, "right", ONLY_LAUNCHER, f"{net} launcher.beam")
    _caption(s, "U7", (3.2, beam_y - 2.3), more="its LED lights the slot; a card breaks the beam")

    x = 16.8
    hop = (x, beam_y)
    net = gpio(role_gpio("launcher.empty"))
    s.flag(hop, net, "up", ONLY_LAUNCHER, f"{net} launcher.empty")
    s.two("S12", elm.Switch(nc=True), hop, "down", 1.4, ("NC", "COM"))
    s.ground((hop[0], hop[1] - 1.4), blue)
    s.text((hop[0] + 0.5, hop[1] - 0.7), "S12", "left", size=SMALL, colour=blue)
    _caption(s, "S12", (x - 2.4, hop[1] - 2.3))


if __name__ == "__main__":
    draw()
