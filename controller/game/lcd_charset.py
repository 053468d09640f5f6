"""The characters the LCD shows as themselves: the one place that says which text can go on
the glass as it is written (players' names, German).

The HD44780's ROM A00 holds printable ASCII but for the backslash (a yen sign there) and the
tilde (an arrow), and a few accented letters; the display writes ß and Ä Ö Ü with a cell of
their own (lcd_glyphs.SUBSTITUTES). A text with any other character is not shown as written:
a player's name with one shows as the seat's number.
"""

from __future__ import annotations

from .lcd_glyphs import SUBSTITUTES

ASCII = frozenset(chr(code) for code in range(0x20, 0x7F)) - frozenset("\\~")
ACCENTED = frozenset("äöüñ")  # A00's own cells 0xE1, 0xEF, 0xF5, 0xEE
SHOWN = ASCII | ACCENTED | frozenset(SUBSTITUTES)


def can_show(text: str) -> bool:
    """Whether every character of `text` shows on the LCD as itself."""
    return all(character in SHOWN for character in text)
