"""The LCD's own glyphs: the menu's arrows and German's capital umlauts, which the driver
loads into CGRAM, and the characters the ROM (A00) lacks, each with the code that shows it.

Game text includes the arrows as ordinary characters, e.g. ``ARROW_RIGHT + "Start"``, and
German as it is written ("Größe", "Ärger"): the display writes each of SUBSTITUTES as its
code. Codes 0-7 name the eight CGRAM slots; five are in use, the others are free.
"""

from __future__ import annotations

ARROW_LEFT = "\x00"
ARROW_RIGHT = "\x01"

# Bitmaps for the CGRAM slots in use: eight rows of five pixels each, top row first.
CUSTOM_CHARS: tuple[tuple[int, ...], ...] = (
    (0b00000, 0b00100, 0b01000, 0b11111, 0b01000, 0b00100, 0b00000, 0b00000),
    (0b00000, 0b00100, 0b00010, 0b11111, 0b00010, 0b00100, 0b00000, 0b00000),
    (0b01010, 0b00000, 0b01110, 0b10001, 0b11111, 0b10001, 0b10001, 0b00000),  # Ä
    (0b01010, 0b00000, 0b01110, 0b10001, 0b10001, 0b10001, 0b01110, 0b00000),  # Ö
    (0b01010, 0b00000, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110, 0b00000),  # Ü
)
CAPITAL_UMLAUTS = "ÄÖÜ"  # in CGRAM slots 2, 3, 4
# Each character A00 lacks, as the code that shows it: ß is A00's own 0xE2 (a beta in its
# table, the sharp s a German reads), the capital umlauts the glyphs above.
SUBSTITUTES = {"ß": 0xE2, **{letter: 2 + n for n, letter in enumerate(CAPITAL_UMLAUTS)}}


# Look-alikes of the CGRAM glyphs, for views that print the glass as text.
_LOOKALIKES = str.maketrans(
    {
        ARROW_LEFT: "\u2190",
        ARROW_RIGHT: "\u2192",
        **{chr(2 + n): letter for n, letter in enumerate(CAPITAL_UMLAUTS)},
    }
)


def readable(text: str) -> str:
    """`text` with each CGRAM glyph replaced by the Unicode character it looks like."""
    return text.translate(_LOOKALIKES)
