"""What an SVG drawing of the docs shows where: each text's box, each straight stroke.

Text boxes are worked out from the text itself, with glyph widths at or above those of
DejaVu Sans and Verdana (the widest fonts the drawings name) and the ink's height for each
of SVG's baselines, so two boxes that do not meet are two texts that do not touch on any
of the viewers that render them.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from xml.etree import ElementTree

# Advance widths in em, rounded up over DejaVu Sans and Verdana; anything else counts 1 em.
_WIDTHS = (
    (0.30, "'ijl"),
    (0.37, ",. /:;\\|f"),
    (0.46, "()[]t!r-IJ"),
    (0.56, '"*_`sz?c'),
    (0.67, "LFkvxyPTYoaeEhnubdgpqS0123456789${}µ"),
    (0.83, "KAVXZBRCUNHΩDG&OQw"),
    (0.87, "#+<=>^~→≥M"),
)
WIDTH = {ch: width for width, chars in _WIDTHS for ch in chars}

# Where the ink lies around a line's reference y, in em: (above, below), per baseline.
_INK = {
    "central": (0.46, 0.60),
    "hanging": (0.05, 1.05),
    "ideographic": (1.00, 0.05),
    "alphabetic": (0.80, 0.25),
}


@dataclass(frozen=True)
class Box:
    text: str
    element: int  # which text element: its own lines sit one em apart by construction
    x0: float
    y0: float
    x1: float
    y1: float

    def meets(self, other: Box, gap: float = 0.0) -> bool:
        return not (
            self.x1 + gap <= other.x0
            or other.x1 + gap <= self.x0
            or self.y1 + gap <= other.y0
            or other.y1 + gap <= self.y0
        )

    def crossed_by(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Whether the straight stroke a-b passes through the box."""
        (ax, ay), (bx, by) = a, b
        t0, t1 = 0.0, 1.0
        dx, dy = bx - ax, by - ay
        for p, q in (
            (-dx, ax - self.x0),
            (dx, self.x1 - ax),
            (-dy, ay - self.y0),
            (dy, self.y1 - ay),
        ):
            if p == 0:
                if q <= 0:
                    return False
                continue
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 >= t1:
                return False
        return True


def text_width(text: str, size: float) -> float:
    return sum(WIDTH.get(ch, 1.0) for ch in text) * size


def _tag(element: ElementTree.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def root(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)


def texts(svg: str) -> list[list[str]]:
    """Each text element's lines."""
    return [
        ["".join(span.itertext()) for span in element if _tag(span) == "tspan"]
        or ["".join(element.itertext())]
        for element in root(svg).iter()
        if _tag(element) == "text"
    ]


def text_boxes(svg: str) -> list[Box]:
    """One box per line of text."""
    boxes = []
    elements = (e for e in root(svg).iter() if _tag(e) == "text")
    for number, element in enumerate(elements):
        size = float(element.get("font-size", "16"))
        x, y = float(element.get("x", "0")), float(element.get("y", "0"))
        above, below = _INK[element.get("dominant-baseline", "alphabetic")]
        anchor = element.get("text-anchor", "start")
        spans = [s for s in element if _tag(s) == "tspan"] or [element]
        for span in spans:
            y += float(span.get("dy", "0"))
            line = "".join(span.itertext())
            lx = float(span.get("x", x))
            width = text_width(line, size)
            left = {"start": lx, "middle": lx - width / 2, "end": lx - width}[anchor]
            boxes.append(Box(line, number, left, y - above * size, left + width, y + below * size))
    return boxes


_NUMBER = r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?"
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def strokes(svg: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Every straight stroke: path lines, polygon and polyline sides, and circles as the
    sides of their squares (a text must keep clear of a flag's circle too)."""
    found = []
    for element in root(svg).iter():
        tag = _tag(element)
        if tag == "path":
            found += _path_lines(element.get("d", ""))
        elif tag in ("polygon", "polyline"):
            values = [float(v) for v in re.findall(_NUMBER, element.get("points", ""))]
            points = list(zip(values[::2], values[1::2], strict=True))
            if tag == "polygon":
                points.append(points[0])
            found += list(itertools.pairwise(points))
        elif tag == "circle":
            cx, cy, r = (float(element.get(k, "0")) for k in ("cx", "cy", "r"))
            corners = [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
            found += list(zip(corners, [*corners[1:], corners[0]], strict=True))
        elif tag == "line":
            x1, y1, x2, y2 = (float(element.get(k, "0")) for k in ("x1", "y1", "x2", "y2"))
            found.append(((x1, y1), (x2, y2)))
        elif tag == "rect":
            x, y = float(element.get("x", "0")), float(element.get("y", "0"))
            w, h = float(element.get("width", "0")), float(element.get("height", "0"))
            corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            found += list(zip(corners, [*corners[1:], corners[0]], strict=True))
    return found


def _path_lines(d: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    tokens = re.findall(rf"[MLHVCSQTAZmlhvcsqtaz]|{_NUMBER}", d)
    lines = []
    pen = start = (0.0, 0.0)
    command = "M"
    i = 0
    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
            if command.upper() == "Z":
                lines.append((pen, start))
                pen = start
                continue
        upper = command.upper()
        args = [float(v) for v in tokens[i : i + _ARGS[upper]]]
        i += _ARGS[upper]
        rel = command.islower()
        if upper in ("M", "L", "T"):
            point = (args[0] + pen[0] * rel, args[1] + pen[1] * rel)
            if upper == "L":
                lines.append((pen, point))
            if upper == "M":
                start = point
                command = "l" if rel else "L"  # pairs after a move are lines
            pen = point
        elif upper == "H":
            point = (args[0] + pen[0] * rel, pen[1])
            lines.append((pen, point))
            pen = point
        elif upper == "V":
            point = (pen[0], args[0] + pen[1] * rel)
            lines.append((pen, point))
            pen = point
        else:  # curves and arcs: only where they end
            pen = (args[-2] + pen[0] * rel, args[-1] + pen[1] * rel)
    return lines


def size(svg: str) -> tuple[float, float]:
    """The drawing's width and height, from its viewBox."""
    values = [float(v) for v in root(svg).get("viewBox", "").split()]
    return values[2], values[3]


def clashes(svg: str, gap: float = 1.0) -> list[str]:
    """Every pair of texts that meet (closer than `gap`), and every text a stroke crosses."""
    boxes = text_boxes(svg)
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a.element != b.element and a.meets(b, gap):
                found.append(f"{a.text!r} meets {b.text!r}")
    lines = strokes(svg)
    for box in boxes:
        for a, b in lines:
            if box.crossed_by(a, b):
                found.append(f"{box.text!r} is crossed by the stroke {a}-{b}")
                break
    return found
