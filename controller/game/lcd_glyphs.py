"""The LCD's own glyphs: the menu's arrows, which the driver loads into CGRAM.

Game text includes them as ordinary characters, e.g. ``ARROW_RIGHT + "Start"``. Codes 0-7 name
the eight CGRAM slots; the arrows take the first two, the others are free.
"""

from __future__ import annotations

ARROW_LEFT = "\x00"
ARROW_RIGHT = "\x01"

# Bitmaps for the CGRAM slots in use: eight rows of five pixels each, top row first.
CUSTOM_CHARS: tuple[tuple[int, ...], ...] = (
    (0b00000, 0b00100, 0b01000, 0b11111, 0b01000, 0b00100, 0b00000, 0b00000),
    (0b00000, 0b00100, 0b00010, 0b11111, 0b00010, 0b00100, 0b00000, 0b00000),
)


# Look-alikes of the CGRAM glyphs, for views that print the glass as text.
_LOOKALIKES = str.maketrans({ARROW_LEFT: "\u2190", ARROW_RIGHT: "\u2192"})


def readable(text: str) -> str:
    """`text` with each CGRAM glyph replaced by the Unicode character it looks like."""
    return text.translate(_LOOKALIKES)
