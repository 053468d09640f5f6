"""The LCD's own glyphs: menu arrows and timer-bar cells, which the driver loads into CGRAM.

Game text includes them as ordinary characters, e.g. ``ARROW_RIGHT + " Start"`` or
``timer_bar(left / total)``. Codes 0-7 name the eight CGRAM slots; ``BAR_FULL`` is the A00
ROM's solid block, so the bar needs no slot of its own.
"""

from __future__ import annotations

import math

from .text import COLUMNS

ARROW_LEFT = "\x00"
ARROW_RIGHT = "\x01"
ARROW_UP = "\x02"
ARROW_DOWN = "\x03"
BAR_1 = "\x04"
BAR_2 = "\x05"
BAR_3 = "\x06"
BAR_4 = "\x07"
BAR_FULL = "\u2588"

# A cell of the timer bar with 0 to 5 of its pixel columns lit, from the left.
BAR = (" ", BAR_1, BAR_2, BAR_3, BAR_4, BAR_FULL)
BAR_STEPS = len(BAR) - 1


def _bar_cell(columns: int) -> tuple[int, ...]:
    row = ((1 << columns) - 1) << (BAR_STEPS - columns)
    return (row,) * 8


# Bitmaps for CGRAM slots 0-7: eight rows of five pixels each, top row first.
CUSTOM_CHARS: tuple[tuple[int, ...], ...] = (
    (0b00000, 0b00100, 0b01000, 0b11111, 0b01000, 0b00100, 0b00000, 0b00000),
    (0b00000, 0b00100, 0b00010, 0b11111, 0b00010, 0b00100, 0b00000, 0b00000),
    (0b00100, 0b01110, 0b10101, 0b00100, 0b00100, 0b00100, 0b00100, 0b00000),
    (0b00100, 0b00100, 0b00100, 0b00100, 0b10101, 0b01110, 0b00100, 0b00000),
    _bar_cell(1),
    _bar_cell(2),
    _bar_cell(3),
    _bar_cell(4),
)


# Look-alikes of the CGRAM glyphs, for views that print the glass as text.
_LOOKALIKES = str.maketrans(
    {
        ARROW_LEFT: "\u2190",
        ARROW_RIGHT: "\u2192",
        ARROW_UP: "\u2191",
        ARROW_DOWN: "\u2193",
        BAR_1: "\u258e",
        BAR_2: "\u258d",
        BAR_3: "\u258b",
        BAR_4: "\u258a",
    }
)


def readable(text: str) -> str:
    """`text` with each CGRAM glyph replaced by the Unicode character it looks like."""
    return text.translate(_LOOKALIKES)


def timer_bar(fraction: float, width: int = COLUMNS) -> str:
    """A left-aligned bar `width` cells wide, `fraction` (0-1) of it lit in fifths of a cell."""
    fraction = min(max(fraction, 0.0), 1.0)
    # Round up, so a timer with any time left still shows a sliver; the tolerance keeps
    # float noise (0.6 * 5 = 3.0000000000000004) from lighting one column too many.
    lit = max(math.ceil(fraction * width * BAR_STEPS - 1e-9), 1 if fraction > 0 else 0)
    full, rest = divmod(lit, BAR_STEPS)
    bar = BAR_FULL * full + (BAR[rest] if rest else "")
    return bar.ljust(width)
