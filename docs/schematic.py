"""The table's wiring schematic, drawn with schemdraw: writes docs/schematic.svg.

    .venv/bin/python docs/schematic.py     (schemdraw is among the dev dependencies)

The pin tables below are the schematic's own record of the wiring; tests/test_schematic.py
holds them against the default pin map (hardware/pinmap.py) and hardware/README.md. Parts
are joined by net names (GPIO numbers and rails) rather than drawn wires, as on a big board.
"""

from pathlib import Path

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
RAILS = (("3V3", 1), ("5V", 2), ("GND", 6))

OUT = Path(__file__).with_name("schematic.svg")


def gpio(role: str) -> str:
    """The net of a role: its GPIO number and its name."""
    for name, bcm, _ in (*HEADER, *LAUNCHER):
        if name == role:
            return f"GPIO{bcm} {role}"
    raise KeyError(role)


def draw() -> None:
    import schemdraw
    import schemdraw.elements as elm

    schemdraw.use("svg")
    schemdraw.config(fontsize=11, lw=1.2)
    d = schemdraw.Drawing(show=False)

    def net(at, text: str, direction: str = "right", length: float = 1.0) -> None:
        line = elm.Line().at(at).length(length)
        d.add(getattr(line, direction)())
        loc = "left" if direction == "left" else "right"
        d.add(elm.Dot(open=True).label(text, loc=loc, halign="right" if loc == "left" else "left"))

    def module(label, at, pins, size, spacing=0.8, fontsize=None):
        """A module or chip as a box; `pins` are (name, side, anchor), each side's from the
        bottom up."""
        icpins = [elm.IcPin(name=n, side=side, anchorname=a) for n, side, a in pins]
        box = d.add(elm.Ic(pins=icpins, pinspacing=spacing, size=size).right().at(at))
        box.label(label, loc="center", **({"fontsize": fontsize} if fontsize else {}))
        return box

    def title(xy, text: str) -> None:
        d.add(elm.Label().at(xy).label(text, fontsize=13, halign="left"))

    # The Raspberry Pi's 40-pin header, by BCM number. A launcher table's roles take the
    # pins of seats 7 and 8, so those pins carry both names.
    also = {bcm: role for role, bcm, _ in LAUNCHER}
    seats = [p for p in HEADER if p[0].startswith("seat")]
    right = [p for p in HEADER if not p[0].startswith("seat")]
    right += [p for p in LAUNCHER if p[1] not in {b for _, b, _ in HEADER}]
    # schemdraw stacks a side's pins from the bottom up.
    pins = [
        elm.IcPin(name=f"GPIO{b}", pin=str(h), side="L", anchorname=f"p{b}") for _, b, h in seats
    ]
    pins += [elm.IcPin(name=n, pin=str(h), side="R", anchorname=n) for n, h in reversed(RAILS)]
    pins += [
        elm.IcPin(name=f"GPIO{b}", pin=str(h), side="R", anchorname=f"p{b}") for _, b, h in I2C
    ]
    pins += [
        elm.IcPin(name=f"GPIO{b}", pin=str(h), side="R", anchorname=f"p{b}") for _, b, h in right
    ]
    pins[: len(seats)] = reversed(pins[: len(seats)])
    pi = d.add(elm.Ic(pins=pins, pinspacing=0.8, edgepadH=0.6, size=(3.2, 14)).right().at((0, 0)))
    pi.label("Raspberry Pi\n40-pin header\n(BCM numbers)", loc="center", fontsize=13)
    for role, bcm, _ in seats:
        text = f"{role} / {also[bcm]} (launcher table)" if bcm in also else role
        net(getattr(pi, f"p{bcm}"), text, "left")
    for role, bcm, _ in right:
        text = f"{role} (launcher table)" if role in dict((r, b) for r, b, _ in LAUNCHER) else role
        net(getattr(pi, f"p{bcm}"), text)
    for role, bcm, _ in I2C:
        net(getattr(pi, f"p{bcm}"), f"{role} (LCD, via the level shifter)")
    for name, _ in RAILS:
        net(getattr(pi, name), name)
    d.add(elm.Label().at((-15, 0)).label(" "))  # room for the longest name on the left

    # Seat lights: one ULN2803A sinks the LEDs of all 8 seats.
    x0, y0 = 14, 2
    title((x0, y0 + 3), "Seat lights: ULN2803A, LED + 100 Ω from 5 V per seat")
    inputs = [
        elm.IcPin(name=f"{n}B", pin=str(n), side="L", anchorname=f"b{n}") for n in range(8, 0, -1)
    ]
    outputs = [
        elm.IcPin(name=f"{n}C", pin=str(19 - n), side="R", anchorname=f"c{n}")
        for n in range(8, 0, -1)
    ]
    power = [
        elm.IcPin(name="GND", pin="9", side="B", anchorname="gnd"),
        elm.IcPin(name="COM", pin="10", side="T", anchorname="com"),
    ]
    uln = d.add(
        elm.Ic(pins=[*inputs, *outputs, *power], pinspacing=0.8, size=(2.4, 7))
        .right()
        .at((x0, y0 - 6))
    )
    uln.label("ULN2803A", loc="center")
    for n in range(1, 9):
        net(getattr(uln, f"b{n}"), gpio(f"seat{n}.light"), "left")
        net(getattr(uln, f"c{n}"), f"LED seat {n} (-)", "right", 0.8)
    d.add(elm.Ground().at(uln.gnd))
    net(uln.com, "5V", "up", 0.6)
    # One LED string drawn out; the other 7 are the same.
    d.add(elm.Vdd().at((x0 + 8.5, y0 + 1)).label("5V"))
    d.add(elm.Resistor().down().label("100 Ω"))
    d.add(elm.LED().down().label("seat 1 LED\n(2.0 V, 20 mA)"))
    d.add(elm.Line().down().length(0.5))
    d.add(elm.Dot(open=True).label("1C (ULN2803A pin 18)", loc="bottom"))

    # Buttons: every switch goes from its pin to ground; the Pi's pull-up holds it high.
    x1, y1 = 14, -9
    title((x1, y1 + 1.5), "Buttons (seats 1-8, SLAP, launcher, Play/Pause): pin to GND")
    d.add(
        elm.Dot(open=True).at((x1 + 1, y1)).label(gpio("seat1.button"), loc="left", halign="right")
    )
    d.add(elm.Button().right().label("arcade microswitch"))
    d.add(elm.Ground().right())
    d.add(
        elm.Label().at((x1 + 1, y1 - 1)).label("and the same for each button role", halign="left")
    )

    # Buzzer: a passive piezo switched by an NPN transistor, PWM for its tones.
    x2, y2 = 14, -17
    title((x2, y2 + 2), "Buzzer")
    d.add(elm.Dot(open=True).at((x2, y2)).label(gpio("buzzer"), loc="left", halign="right"))
    d.add(elm.Resistor().right().label("1 kΩ"))
    q = d.add(elm.BjtNpn(circle=True).right().anchor("base").label("BC337", loc="right"))
    d.add(elm.Ground().at(q.emitter))
    d.add(elm.Line().at(q.collector).up().length(0.5))
    d.add(elm.Crystal().up().label("passive piezo", loc="bottom"))
    d.add(elm.Vdd().label("5V"))

    # Rotary encoder: a KY-040 on 3.3 V (its own pull-ups must not see 5 V).
    x3, y3 = 26, 2
    title((x3, y3 + 2.2), "Rotary encoder KY-040, on 3.3 V")
    enc = module(
        "KY-040",
        (x3 + 6, y3 - 4),
        [
            ("CLK", "L", "clk"),
            ("DT", "L", "dt"),
            ("SW", "L", "sw"),
            ("+", "L", "vcc"),
            ("GND", "L", "gnd"),
        ],
        (2, 4.5),
    )
    for anchor, role in (("clk", "encoder.a"), ("dt", "encoder.b"), ("sw", "encoder.push")):
        net(getattr(enc, anchor), gpio(role), "left")
    net(enc.vcc, "3V3", "left")
    net(enc.gnd, "GND", "left")

    # LCD: the PCF8574 backpack runs on 5 V, so SDA/SCL cross a level shifter.
    x4, y4 = 26, -6
    title((x4, y4 + 1.5), "16x2 LCD: PCF8574 backpack on 5 V through a BSS138 level shifter")
    shifter = module(
        "level\nshifter",
        (x4 + 5, y4 - 4),
        [
            ("LV", "L", "lv"),
            ("LV1", "L", "lv1"),
            ("LV2", "L", "lv2"),
            ("GND", "L", "gndl"),
            ("HV", "R", "hv"),
            ("HV1", "R", "hv1"),
            ("HV2", "R", "hv2"),
            ("GND", "R", "gndr"),
        ],
        (2.4, 3.6),
    )
    for anchor, text in (
        ("lv", "3V3"),
        ("lv1", "GPIO2 SDA"),
        ("lv2", "GPIO3 SCL"),
        ("gndl", "GND"),
    ):
        net(getattr(shifter, anchor), text, "left")
    backpack = module(
        "PCF8574\n0x27\n+ 1602 LCD",
        (x4 + 11, y4 - 4),
        [("VCC", "L", "vcc"), ("SDA", "L", "sda"), ("SCL", "L", "scl"), ("GND", "L", "gnd")],
        (3, 3.6),
    )
    for a, b in (("hv", "vcc"), ("hv1", "sda"), ("hv2", "scl"), ("gndr", "gnd")):
        d.add(elm.Wire("-|").at(getattr(shifter, a)).to(getattr(backpack, b)))
    d.add(elm.Line().at(backpack.vcc).down().length(1))
    d.add(elm.Dot(open=True).label("5V", loc="bottom"))

    # The launcher, on a 6-seat table: motor through a DRV8871, the beam, the hopper switch.
    x5, y5 = 26, -14
    title((x5, y5 + 2.5), "Launcher (6-seat table): DRV8871 H-bridge, slot beam, hopper switch")
    drv = module(
        "DRV8871\nR_ILIM\n64 kΩ (1 A)",
        (x5 + 7, y5 - 4),
        [
            ("GND", "L", "gnd"),
            ("IN2", "L", "in2"),
            ("IN1", "L", "in1"),
            ("OUT2", "R", "out2"),
            ("OUT1", "R", "out1"),
            ("VM", "R", "vm"),
        ],
        (2.6, 4),
        spacing=1.2,
        fontsize=9,
    )
    net(drv.in1, gpio("launcher.motor.forward"), "left")
    net(drv.in2, gpio("launcher.motor.backward"), "left")
    net(drv.gnd, "GND", "left")
    d.add(elm.Line().at(drv.vm).right().length(1.5))
    d.add(elm.Dot())
    d.push()
    d.add(elm.Capacitor(polar=True).up().label("470 µF", loc="top").length(1.5))
    d.add(elm.Dot(open=True).label("GND", loc="top"))
    d.pop()
    d.add(elm.Fuse().right().label("1 A"))
    d.add(elm.Dot(open=True).label("12V", loc="right"))
    d.add(elm.Line().at(drv.out1).right().length(3))
    top = d.here
    d.add(elm.Line().at(drv.out2).right().length(3))
    d.add(elm.Motor().endpoints(d.here, top).label("feed roller\n12 V gear motor", loc="bottom"))

    # Beam: a slotted opto-interrupter across the exit slot; sees light, pulls low.
    x6, y6 = 26, -21
    title((x6, y6 + 2), "Beam: slotted opto-interrupter (H21A1, ITR9608)")
    d.add(elm.Dot(open=True).at((x6 + 1, y6)).label("3V3", loc="left", halign="right"))
    d.add(elm.Resistor().right().label("150 Ω"))
    d.add(elm.LED().down().label("IR LED", loc="bottom"))
    d.add(elm.Ground())
    d.add(elm.Dot(open=True).at((x6 + 8, y6 + 1)).label("3V3", loc="top"))
    d.add(elm.Resistor().down().label("10 kΩ", loc="bottom"))
    d.add(elm.Dot())
    d.push()
    d.add(elm.Line().right().length(1))
    d.add(elm.Dot(open=True).label(gpio("launcher.beam"), loc="right", halign="left"))
    d.pop()
    photo = d.add(
        elm.NpnPhoto(circle=True)
        .right()
        .anchor("collector")
        .label("photo-\ntransistor", loc="left")
    )
    d.add(elm.Ground().at(photo.emitter))

    # Hopper: a lever microswitch's NC contact; cards hold it open, empty closes it.
    x8, y8 = 44, -21
    title((x8 - 2, y8 + 2), "Hopper switch")
    d.add(elm.Dot(open=True).at((x8, y8 + 1)).label(gpio("launcher.empty"), loc="top"))
    d.add(elm.Switch(action="close").down().label("NC lever switch:\nclosed when empty", loc="top"))
    d.add(elm.Ground())

    # Power: one 12 V brick; a buck converter makes the 5 V rail for the Pi and the lights.
    x7, y7 = 0, -19
    title(
        (x7 - 6, y7 + 2), "Power: 12 V 3 A in, fused; 5 V 3 A buck for the Pi, the lights, the LCD"
    )
    d.add(
        elm.Dot(open=True)
        .at((x7 - 6, y7))
        .label("12 V 3 A\nbarrel jack", loc="left", halign="right")
    )
    d.add(elm.Fuse().right().label("3 A slow"))
    d.add(elm.Dot())
    d.push()
    d.add(elm.Line().up().length(1))
    d.add(elm.Dot(open=True).label("12V (to the launcher)", loc="right"))
    d.pop()
    buck = module(
        "buck\n12→5 V\n≥3 A",
        (x7 + 1, y7 - 1.5),
        [("IN+", "L", "vin"), ("IN-", "L", "gin"), ("OUT+", "R", "vout"), ("OUT-", "R", "gout")],
        (2.6, 2.4),
        spacing=1,
    )
    d.add(elm.Wire("-|").at((x7 - 6 + 6, y7)).to(buck.vin))
    d.add(elm.Ground().at(buck.gin))
    net(buck.vout, "5V (Pi header pins 2/4, LEDs, LCD, buzzer)")
    d.add(elm.Ground().at(buck.gout))

    OUT.write_text(d.get_imagedata("svg").decode(), encoding="utf-8")


if __name__ == "__main__":
    draw()
