"""The table unit's enclosure and the launcher's mechanics, drawn to scale: writes
docs/enclosure.svg.

    .venv/bin/python docs/enclosure.py
    rsvg-convert -w 880 -b white docs/enclosure.svg -o docs/enclosure.png     (librsvg2-bin)

Every size is in `SIZES` (millimetres) or derived from it; docs/build.md's tables of sizes
are the same numbers, which tests/test_build_guide.py holds them to. Plain SVG: one point of
the drawing is one pixel at the page width of 880 px.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

OUT = Path(__file__).with_name("enclosure.svg")

# name: (millimetres, what it is), in the build guide's words
SIZES = {
    "across_flats": (400, "the box across its flats (a regular octagon)"),
    "height": (90, "the box's height, top and bottom plates included"),
    "plywood": (6, "plywood for the top, bottom and walls"),
    "button_circle": (320, "diameter of the circle the seat buttons' centres sit on"),
    "button_hole": (30, "hole for a 30 mm arcade button (seats, launcher, Play/Pause)"),
    "controls_offset": (85, "centre to the LCD window's centre and to the launcher button"),
    "lcd_window_w": (72, "LCD window, wide (the LCD's metal frame shows through it)"),
    "lcd_window_h": (25, "LCD window, high"),
    "encoder_offset": (62, "LCD window's centre to the encoder's hole, sideways"),
    "encoder_hole": (7, "hole for the encoder's threaded bush"),
    "hatch_w": (70, "hopper hatch in the top, wide (launcher table)"),
    "hatch_l": (100, "hopper hatch, long (along the cards' path)"),
    "slot_w": (66, "the card slot in the wall, wide"),
    "slot_h": (4, "the card slot, high"),
    "card_plane": (36, "table to the hopper's floor and the slot's lower edge"),
    "beam": (10, "outer face of the wall to the beam (the opto-interrupter's gap)"),
    "exit_nip": (28, "outer face of the wall to the exit rollers' nip"),
    "gate": (63, "outer face of the wall to the gate (the hopper's front)"),
    "pick": (68, "outer face of the wall to where the pick roller meets the card"),
    "hopper_l": (92, "hopper, inside, along the path (an UNO card is 87 mm long)"),
    "hopper_w": (62, "hopper, inside, across (an UNO card is 56 mm wide)"),
    "roller": (25, "diameter of the pick roller, the exit roller and its idler"),
    "proud": (1, "how far the pick roller stands above the hopper's floor"),
    "hopper_switch": (140, "outer face of the wall to the hopper switch's lever"),
    "cutout_l": (30, "cut-out in the bottom plate under the 60-tooth pulley, along the path"),
    "cutout_w": (16, "that cut-out, across (beside the hopper, under the pulley)"),
}


def mm(name: str) -> float:
    return float(SIZES[name][0])


# Derived sizes, for the guide's text: an octagon's side, and the walls between the plates.
SIDE = mm("across_flats") * math.tan(math.radians(22.5))
WALL_HEIGHT = mm("height") - 2 * mm("plywood")

# The roller belt: GT2 (2 mm a tooth) from the exit roller's shaft to the pick roller's.
GT2_PITCH = 2.0
SMALL_TEETH, LARGE_TEETH = 20, 60
FLANGE = 2.0  # how far a pulley's flange may stand out past its belt, radially


def pitch_diameter(teeth: int) -> float:
    return teeth * GT2_PITCH / math.pi


def _shafts() -> tuple[tuple[float, float], tuple[float, float]]:
    """The exit roller's and the pick roller's shaft centres: (mm in from the wall's outer
    face, mm above the table)."""
    r, plane = mm("roller") / 2, mm("card_plane")
    return (mm("exit_nip"), plane - r), (mm("pick"), plane + mm("proud") - r)


def belt_length(centres: float, small: float, large: float) -> float:
    """A closed belt's pitch length around two pulleys of pitch diameters `small` and
    `large` whose shafts stand `centres` apart: the standard formula for an open belt."""
    return 2 * centres + math.pi * (large + small) / 2 + (large - small) ** 2 / (4 * centres)


SHAFTS = math.dist(*_shafts())
BELT = belt_length(SHAFTS, pitch_diameter(SMALL_TEETH), pitch_diameter(LARGE_TEETH))
BELT_TEETH = round(BELT / GT2_PITCH)  # the closed belt to buy: the nearest whole tooth
# The 60-tooth pulley's lowest reach above the table, flange included: below the bottom
# plate's top, so the plate has a cut-out under it (SIZES "cutout_l", "cutout_w").
PULLEY_LOW = _shafts()[1][1] - pitch_diameter(LARGE_TEETH) / 2 - FLANGE

FONTS = "DejaVu Sans, Verdana, Arial, sans-serif"
FONT = 11
SMALL = 10
WIDTH = 880
BLUE = "#1a55a0"
GREY = "#777777"

# Seat n faces the flat at this angle (degrees, anticlockwise from the right; seat 1 at the
# top, numbered clockwise as the players sit).
SEAT_ANGLE = {n: 90 - (n - 1) * 45 for n in range(1, 9)}
LAUNCHER_SEAT = 8  # the launcher table's slot is in this seat's flat; its hole is not cut
PLAY_PAUSE_SEAT = 7  # and Play/Pause takes this seat's hole


class Page:
    """SVG elements, written out in the order they were drawn."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, element: str) -> None:
        self.parts.append(element)

    def line(self, a: Sequence[float], b: Sequence[float], width=1.0, colour="black", dash=""):
        style = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(
            f'<line x1="{a[0]:.2f}" y1="{a[1]:.2f}" x2="{b[0]:.2f}" y2="{b[1]:.2f}"'
            f' stroke="{colour}" stroke-width="{width}"{style} />'
        )

    def polygon(self, points, width=1.0, colour="black", fill="none", dash=""):
        style = f' stroke-dasharray="{dash}"' if dash else ""
        text = " ".join(f"{x:.2f},{y:.2f}" for x, y in points)
        self.add(
            f'<polygon points="{text}" stroke="{colour}" stroke-width="{width}"'
            f' fill="{fill}"{style} />'
        )

    def rect(self, x, y, w, h, width=1.0, colour="black", fill="none", dash=""):
        self.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], width, colour, fill, dash)

    def circle(self, c, r, width=1.0, colour="black", fill="none", dash=""):
        style = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(
            f'<circle cx="{c[0]:.2f}" cy="{c[1]:.2f}" r="{r:.2f}" stroke="{colour}"'
            f' stroke-width="{width}" fill="{fill}"{style} />'
        )

    def text(self, xy, text, anchor="start", size=FONT, colour="black", middle=True):
        """One line of text; `middle` puts the middle of its capitals at y, else its
        baseline. Alphabetic baselines only: librsvg ignores the others."""
        y = xy[1] + (0.365 * size if middle else 0)
        self.add(
            f'<text x="{xy[0]:.2f}" y="{y:.2f}" font-size="{size}" font-family="{FONTS}"'
            f' fill="{colour}" text-anchor="{anchor}">{escape(text)}</text>'
        )

    def arrow(self, tip: Sequence[float], towards: Sequence[float], colour="black") -> None:
        dx, dy = towards[0] - tip[0], towards[1] - tip[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        size = 6.0
        left = (tip[0] + ux * size - uy * size * 0.35, tip[1] + uy * size + ux * size * 0.35)
        right = (tip[0] + ux * size + uy * size * 0.35, tip[1] + uy * size - ux * size * 0.35)
        self.polygon([tip, left, right], 0.8, colour, colour)

    def dimension(self, a, b, label, shift, size=SMALL, along=0.5):
        """A dimension of a-b: its line moved by `shift` (px), arrows at both ends,
        extension lines from a and b, the label beside the line's middle (above a level
        line, on the `shift` side of any other)."""
        sx, sy = shift
        reach = math.hypot(sx, sy)
        ux, uy = sx / reach, sy / reach
        pa, pb = (a[0] + sx, a[1] + sy), (b[0] + sx, b[1] + sy)
        for p, q in ((a, pa), (b, pb)):
            self.line((p[0] + ux * 2, p[1] + uy * 2), (q[0] + ux * 2, q[1] + uy * 2), 0.6, GREY)
        self.line(pa, pb, 0.7, GREY)
        self.arrow(pa, pb, GREY)
        self.arrow(pb, pa, GREY)
        mx = pa[0] + (pb[0] - pa[0]) * along
        my = pa[1] + (pb[1] - pa[1]) * along
        if abs(a[1] - b[1]) < 1e-9:
            self.text((mx, my - 8), label, "middle", size)
        else:
            anchor = "start" if ux >= 0 else "end"
            self.text((mx + (5 if ux >= 0 else -5), my), label, anchor, size)

    def svg(self, height: float) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}pt" height="{height}pt"'
            f' viewBox="0 0 {WIDTH} {height}">'
        )
        background = f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="white" />'
        return "\n".join([head, background, *self.parts, "</svg>"]) + "\n"


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def draw(out: Path = OUT) -> str:
    page = Page()
    page.text((20, 22), "Flash Table enclosure (sizes in mm)", size=15)
    page.text(
        (20, 44),
        "Top panels from above; the launcher in section along the cards' path; the slot's wall.",
    )
    _top(page, (225, 290), launcher=False)
    _top(page, (655, 290), launcher=True)
    _section(page, (20, 510))
    _slot_wall(page, (560, 620))
    height = 965
    svg = page.svg(height)
    out.write_text(svg, encoding="utf-8")
    return svg


def _polar(centre, r, degrees):
    return (
        centre[0] + r * math.cos(math.radians(degrees)),
        centre[1] - r * math.sin(math.radians(degrees)),
    )


def _top(page: Page, centre: tuple[float, float], launcher: bool) -> None:
    scale = 0.85  # px per mm
    apothem = mm("across_flats") / 2 * scale
    vertex = apothem / math.cos(math.radians(22.5))
    corners = [_polar(centre, vertex, 22.5 + 45 * i) for i in range(8)]
    page.polygon(corners, 1.4)
    title = "Launcher table (6 seats), top" if launcher else "8-seat table, top"
    page.text((centre[0], centre[1] - vertex - 22), title, "middle", 12)
    ring = mm("button_circle") / 2 * scale
    hole = mm("button_hole") / 2 * scale
    for seat, angle in SEAT_ANGLE.items():
        at = _polar(centre, ring, angle)
        if launcher and seat == LAUNCHER_SEAT:
            continue
        if launcher and seat == PLAY_PAUSE_SEAT:
            page.circle(at, hole, 1.0, BLUE)
            page.text(at, "P", "middle", SMALL, BLUE)
            page.text((at[0] + 2, at[1] + hole + 12), "Play/Pause", "middle", SMALL, BLUE)
            continue
        if launcher and seat > 6:
            continue
        page.circle(at, hole, 1.0)
        page.text(at, str(seat), "middle", SMALL)
    # SLAP at the centre; the launcher button and the LCD on the line from seat 1 to seat 5
    page.circle(centre, 30 * scale, 1.0)
    page.text(centre, "SLAP", "middle", SMALL)
    offset = mm("controls_offset") * scale
    launch = (centre[0], centre[1] - offset)
    page.circle(launch, hole, 1.0)
    page.text((launch[0] + hole + 4, launch[1]), "launcher", "start", SMALL)
    w, h = mm("lcd_window_w") * scale, mm("lcd_window_h") * scale
    lcd = (centre[0], centre[1] + offset)
    page.rect(lcd[0] - w / 2, lcd[1] - h / 2, w, h, 1.0)
    page.text(lcd, "LCD", "middle", SMALL)
    knob = (lcd[0] + mm("encoder_offset") * scale, lcd[1])
    page.circle(knob, mm("encoder_hole") / 2 * scale, 1.0)
    page.text((knob[0], knob[1] + 14), "encoder", "middle", SMALL)
    if launcher:
        _hatch(page, centre, scale)
    else:
        # sizes on the 8-seat panel only: the launcher table's are the same
        page.dimension(corners[2], corners[1], f"side {SIDE:.1f}", (0, -12))
        left = _polar(centre, apothem, 180)
        right = _polar(centre, apothem, 0)
        page.dimension(
            (left[0], centre[1] + apothem),
            (right[0], centre[1] + apothem),
            f"{mm('across_flats'):.0f} across flats",
            (0, 26),
        )
        s3 = _polar(centre, ring - hole - 3, SEAT_ANGLE[3])
        page.line((centre[0] + 30 * scale + 3, centre[1]), s3, 0.6, GREY, "3,3")
        page.text(
            ((centre[0] + s3[0]) / 2 + 14, centre[1] - 9),
            f"R{mm('button_circle') / 2:.0f}",
            "middle",
            SMALL,
            GREY,
        )
        page.dimension(
            (centre[0] - 36, centre[1]),
            (centre[0] - 36, lcd[1]),
            f"{mm('controls_offset'):.0f}",
            (-4, 0),
            along=0.62,
        )
        page.text(
            (lcd[0] - w / 2, lcd[1] + h / 2 + 12),
            f"{w / scale:.0f} x {h / scale:.0f}",
            "start",
            SMALL,
            GREY,
        )
        page.text((knob[0] + 8, knob[1] - 12), f"+{mm('encoder_offset'):.0f}", "start", SMALL, GREY)


def _hatch(page: Page, centre, scale) -> None:
    """The launcher under the top: its hatch over the hopper, its path to the slot."""
    angle = SEAT_ANGLE[LAUNCHER_SEAT]
    apothem = mm("across_flats") / 2
    near = apothem - mm("gate") - mm("hopper_l")  # the hopper's back, from the centre
    far = apothem - mm("gate")
    mid = (near + far) / 2
    half_w, half_l = mm("hatch_w") / 2, mm("hatch_l") / 2
    corners = []
    for along, across in (
        (-half_l, -half_w),
        (half_l, -half_w),
        (half_l, half_w),
        (-half_l, half_w),
    ):
        r_point = _polar(centre, (mid + along) * scale, angle)
        corners.append(_polar(r_point, across * scale, angle + 90))
    page.polygon(corners, 1.0, BLUE, dash="5,3")
    inner = _polar(centre, (mid - 8) * scale, angle)
    page.text((inner[0] + 4, inner[1] + 8), "hatch", "middle", SMALL, BLUE)
    # the cards' path from the hopper's front to the slot in seat 8's flat
    start = _polar(centre, far * scale, angle)
    end = _polar(centre, (apothem + 14) * scale, angle)
    page.line(start, end, 1.0, BLUE)
    page.arrow(end, start, BLUE)
    wall = _polar(centre, apothem * scale, angle)
    a = _polar(wall, mm("slot_w") / 2 * scale, angle + 90)
    b = _polar(wall, mm("slot_w") / 2 * scale, angle - 90)
    page.line(a, b, 3.0, BLUE)
    page.text((end[0] - 6, end[1] - 14), "slot", "middle", SMALL, BLUE)


def _section(page: Page, origin: tuple[float, float]) -> None:
    """The launcher cut along the cards' path: the slot's wall on the left, the hopper to
    its right; the cards leave to the left."""
    scale = 2.2  # px per mm
    ox, oy = origin

    def at(u: float, z: float) -> tuple[float, float]:
        """u: mm in from the wall's outer face; z: mm above the table."""
        return (ox + 40 + u * scale, oy + 250 - z * scale)

    page.text((ox, oy), "Launcher in section (launcher table), 2.2 px per mm", size=12)
    ply, plane, height = mm("plywood"), mm("card_plane"), mm("height")
    gate, pick, nip, beam = mm("gate"), mm("pick"), mm("exit_nip"), mm("beam")
    back = gate + mm("hopper_l")
    right = back + 12
    page.line(at(-18, 0), at(right, 0), 1.0)  # the table
    page.rect(*at(0, height), ply * scale, height * scale, 1.0)  # the wall
    # the bottom plate, with its cut-out under the 60-tooth pulley
    cut_from, cut_to = pick - mm("cutout_l") / 2, pick + mm("cutout_l") / 2
    page.rect(*at(ply, ply), (cut_from - ply) * scale, ply * scale, 1.0, fill="#eeeeee")
    page.rect(*at(cut_to, ply), (right - cut_to) * scale, ply * scale, 1.0, fill="#eeeeee")
    page.rect(*at(ply, height), (right - ply) * scale, ply * scale, 1.0, fill="#eeeeee")  # top
    slot_top = plane + mm("slot_h")
    page.rect(*at(-0.5, slot_top), (ply + 1) * scale, mm("slot_h") * scale, 0.8, fill="white")
    # the hopper: its floor, the gate in front of it, its back wall
    page.rect(*at(gate - 8, plane), (back - gate + 11) * scale, 3 * scale, 1.0, fill="#dddddd")
    gate_bottom = plane + 0.45
    page.rect(
        *at(gate - 2, height - ply),
        2 * scale,
        (height - ply - gate_bottom) * scale,
        1.0,
        fill="#bbbbbb",
    )
    page.rect(
        *at(back, height - ply), 3 * scale, (height - ply - plane) * scale, 1.0, fill="#dddddd"
    )
    page.text(at(gate - 3, plane + 26), "gate", "end", SMALL)
    # the cards, and the weight on them
    stack_top = plane + 26
    page.rect(*at(gate, stack_top), mm("hopper_l") * scale, 26 * scale, 0.6, BLUE, fill="#dbe6f3")
    page.text(at(gate + mm("hopper_l") / 2, plane + 13), "cards", "middle", SMALL, BLUE)
    page.rect(
        *at(gate + 4, stack_top + 3), (mm("hopper_l") - 8) * scale, 3 * scale, 1.0, fill="#999999"
    )
    page.text(at(gate + 20, stack_top + 10), "weight, 70 g", "start", SMALL)
    # the rollers: the pick roller under the stack, the exit roller and its idler at the nip
    r = mm("roller") / 2
    pick_c = (pick, plane + mm("proud") - r)
    drive_c = (nip, plane - r)
    idler_c = (nip, plane + r + 0.3)
    for c in (pick_c, drive_c, idler_c):
        page.circle(at(*c), r * scale, 1.2)
        page.circle(at(*c), 1.5 * scale, 0.8)
    # beyond the 60-tooth pulley behind it, with a leader to the roller
    beyond = pick + pitch_diameter(LARGE_TEETH) / 2 + 2
    page.line(at(pick + r, pick_c[1]), at(beyond - 0.5, pick_c[1]), 0.6)
    page.text(at(beyond, pick_c[1]), "pick roller", "start", SMALL)
    # left of the wall, with a leader: the pulleys behind fill the room beside the roller
    page.line(at(nip - r, drive_c[1]), at(-3.5, drive_c[1]), 0.6)
    page.text(at(-4, drive_c[1]), "exit", "end", SMALL)
    page.text(at(nip + r + 1.5, plane + 17), "idler", "start", SMALL)
    _belt(page, at, scale)
    # the opto-interrupter's two arms around the path; the cards' way out
    page.rect(*at(beam - 3, plane + 7), 6 * scale, 5 * scale, 1.0, BLUE, fill="#dbe6f3")
    page.rect(*at(beam - 3, plane - 2), 6 * scale, 5 * scale, 1.0, BLUE, fill="#dbe6f3")
    page.line(at(-16, plane + 1.5), at(gate - 2, plane + 1.5), 1.0, BLUE)
    page.arrow(at(-16, plane + 1.5), at(0, plane + 1.5), BLUE)
    # the hopper switch under the floor, its lever through it
    lever = mm("hopper_switch")
    page.rect(*at(lever - 6, plane - 3), 12 * scale, 8 * scale, 1.0)
    page.line(at(lever - 4, plane - 3), at(lever + 3, plane + 2.5), 1.4)
    # along the path, from the wall's outer face: each a line below the table
    for i, u in enumerate((beam, nip, gate, pick)):
        page.line(at(u, plane), at(u, 0), 0.5, GREY, "2,3")
        # the shortest has no room between its arrows: its label goes beyond
        along = 1.7 if u < 15 else 0.5
        page.dimension(at(0, 0), at(u, 0), f"{u:.0f}", (0, 16 + 18 * i), along=along)
    page.dimension(at(right, 0), at(right, plane), f"{plane:.0f}", (14, 0))
    cut_out = f"cut-out {mm('cutout_l'):.0f}"
    page.dimension(at(cut_from, 0), at(cut_to, 0), cut_out, (0, 88), along=1.9)
    page.dimension(at(right, 0), at(right, height), f"{height:.0f}", (40, 0))
    page.dimension(
        at(gate, height),
        at(back, height),
        f"hopper {mm('hopper_l'):.0f}",
        (0, -14),
    )
    notes = (
        ("the gate passes one card: its edge 1.5 card thicknesses above the floor", BLUE),
        ("the pick roller stands 1 mm proud of the floor; a belt (20:60) turns it", "black"),
        ("at a third of the exit roller's speed, so each card leaves a gap", "black"),
        (
            f"belt {BELT_TEETH * GT2_PITCH:.0f} mm ({BELT_TEETH} teeth), shafts"
            f" {SHAFTS:.1f} apart; T: its tensioner, on the upper run",
            GREY,
        ),
        ("the beam: the opto-interrupter's gap, which every card passes through", BLUE),
        (f"the hopper switch's lever, {lever:.0f} from the face, through the floor", "black"),
    )
    for i, (note, colour) in enumerate(notes):
        page.text((ox, oy + 346 + i * 15), note, "start", SMALL, colour)


def _outer_tangent(c1, r1, c2, r2, side: float) -> tuple[tuple[float, float], ...]:
    """Where the belt's straight run touches two pulleys (circles c1, r1 and c2, r2) on
    one `side` (+1: the upper run, -1: the lower), in the drawing's millimetres."""
    (x1, y1), (x2, y2) = c1, c2
    d = math.dist(c1, c2)
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    k = (r1 - r2) / d
    h = side * math.sqrt(1 - k * k)
    nx, ny = ux * k - uy * h, uy * k + ux * h  # the run's normal, out from both pulleys
    return (x1 + nx * r1, y1 + ny * r1), (x2 + nx * r2, y2 + ny * r2)


def _belt(page: Page, at, scale: float) -> None:
    """The pulleys behind the rollers (dashed: beside the hopper, off the cards' path), the
    belt's two runs, and the tensioner pressing on the upper run."""
    drive, pick = _shafts()
    small, large = pitch_diameter(SMALL_TEETH) / 2, pitch_diameter(LARGE_TEETH) / 2
    page.circle(at(*drive), small * scale, 0.7, GREY, dash="3,2")
    page.circle(at(*pick), large * scale, 0.7, GREY, dash="3,2")
    for side in (1, -1):
        a, b = _outer_tangent(drive, small, pick, large, side)
        page.line(at(*a), at(*b), 1.0, GREY)
    a, b = _outer_tangent(drive, small, pick, large, 1)
    along = 0.6  # of the run from the small pulley: clear of the idler roller
    middle = (a[0] + (b[0] - a[0]) * along, a[1] + (b[1] - a[1]) * along)
    normal = (-(b[1] - a[1]), b[0] - a[0])
    length = math.hypot(*normal)
    idler = 6.0  # a smooth GT2 idler of 12 mm on an M3 screw
    centre = (middle[0] + normal[0] / length * idler, middle[1] + normal[1] / length * idler)
    page.circle(at(*centre), idler * scale, 1.0, GREY)
    page.text(at(*centre), "T", "middle", SMALL, GREY)


def _slot_wall(page: Page, origin: tuple[float, float]) -> None:
    """Seat 8's wall on the launcher table, from outside."""
    scale = 1.6
    ox, oy = origin
    page.text((ox, oy - 38), "Seat 8's wall (launcher table), outside", size=12)
    w, h = SIDE * scale, mm("height") * scale
    page.rect(ox, oy, w, h, 1.2)
    sw, sh = mm("slot_w") * scale, mm("slot_h") * scale
    slot_x = ox + (w - sw) / 2
    slot_y = oy + h - (mm("card_plane") + mm("slot_h")) * scale
    page.rect(slot_x, slot_y, sw, sh, 1.0, fill="#333333")
    page.dimension((ox, oy), (ox + w, oy), f"{SIDE:.1f}", (0, -14))
    page.dimension(
        (slot_x, slot_y),
        (slot_x + sw, slot_y),
        f"slot {mm('slot_w'):.0f} x {mm('slot_h'):.0f}",
        (0, -12),
    )
    page.dimension((ox + w, oy + h), (ox + w, slot_y + sh), f"{mm('card_plane'):.0f}", (14, 0))
    page.dimension((ox, oy + h), (ox, oy), f"{mm('height'):.0f}", (-14, 0))


if __name__ == "__main__":
    draw()
