"""How the view draws what the table shows, in text first so it reads without colour.

Each light pattern has its own marks around the seat number. An LCD custom character is
drawn as the Unicode look-alike of the display's own glyph with that bitmap, and any other
bitmap as one Braille cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from rich.style import Style

from controller.catalogs import Words
from controller.game.lcd_glyphs import CUSTOM_CHARS, readable
from controller.game.light_marks import LIGHT_MARKS, seat_label

# How long one on-off cycle of each moving pattern takes, in game seconds.
PERIODS: Mapping[str, float] = {"pulse": 1.2, "blink": 0.8, "blink_fast": 0.24, "flash": 0.12}

LIT_STYLE = Style(color="black", bgcolor="yellow", bold=True)
TURN_STYLE = Style(color="black", bgcolor="bright_green", bold=True)
WARN_STYLE = Style(color="black", bgcolor="bright_red", bold=True)
DIM_STYLE = Style(color="yellow", dim=True)
OFF_STYLE = Style(color="grey50")


def light_style(pattern: str, game_time: float) -> Style:
    """The colour of a light at a moment of game time: moving patterns alternate."""
    period = PERIODS.get(pattern)
    lit_now = period is None or (game_time % period) < period / 2
    if pattern == "on":
        return LIT_STYLE
    if pattern == "pulse":
        return TURN_STYLE if lit_now else Style(color="bright_green", bold=True)
    if pattern in ("blink", "blink_fast", "flash"):
        return WARN_STYLE if lit_now else Style(color="bright_red", bold=True)
    if pattern == "dim":
        return DIM_STYLE
    return OFF_STYLE


def legend(t: Words) -> list[str]:
    """One line per light pattern, as the help screen lists them, in the language of `t`."""
    marks = LIGHT_MARKS.items()
    return [f"{seat_label(3, p)}  {t.gettext(meaning)}" for p, (_, _, meaning) in marks]


UNKNOWN_CUSTOM = "▒"  # a custom character the display never defined


def braille(bitmap: Sequence[int]) -> str:
    """A 5x8 character bitmap (eight rows, bit 4 leftmost) as one 2x4 Braille cell.

    Columns 0-2 light the left dots and 3-4 the right ones; each dot row covers two pixel
    rows. A dot is raised when any pixel it covers is set, so thin strokes survive.
    """
    rows = list(bitmap)[:8] + [0] * (8 - len(bitmap))
    left_dots = (0x01, 0x02, 0x04, 0x40)
    right_dots = (0x08, 0x10, 0x20, 0x80)
    cell = 0
    for band in range(4):
        pixels = rows[2 * band] | rows[2 * band + 1]
        if pixels & 0b11100:
            cell |= left_dots[band]
        if pixels & 0b00011:
            cell |= right_dots[band]
    return chr(0x2800 + cell)


Glyphs = Mapping[int, Sequence[int]] | Sequence[Sequence[int]]


@cache
def lookalikes() -> Mapping[tuple[int, ...], str]:
    """The display's own glyph bitmaps and the Unicode characters they look like."""
    return {tuple(bitmap): readable(chr(slot)) for slot, bitmap in enumerate(CUSTOM_CHARS)}


def custom_glyph(bitmap: Sequence[int]) -> str:
    """How the view draws one custom character: its look-alike, or its bitmap in Braille."""
    return lookalikes().get(tuple(bitmap)) or braille(bitmap)


def lcd_text(line: str, custom: Glyphs) -> str:
    """An LCD line as the terminal shows it: codes 0-7 are the display's custom characters.

    `custom` holds their bitmaps by code: a mapping, or a sequence of the eight CGRAM slots.
    """
    out = []
    for char in line:
        code = ord(char)
        if code < 8:
            if isinstance(custom, Mapping):
                bitmap = custom.get(code)
            else:
                bitmap = custom[code] if code < len(custom) else None
            out.append(UNKNOWN_CUSTOM if bitmap is None else custom_glyph(bitmap))
        elif code < 32:
            out.append(" ")
        else:
            out.append(char)
    return "".join(out)
