"""Players' names for the seats: checked, kept by the table until changed, and shown on the
LCD as much as fits (the seat's number where the LCD's characters cannot show the name).

A name is up to MAX_NAME characters of any script (Unicode code points, composed as NFC),
trimmed; control characters, line breaks and the marks that turn text right to left are
refused. An empty name clears the seat's.
"""

from __future__ import annotations

import unicodedata

from ..catalogs import N_, Words, translation
from .effects import Announce, Effect
from .frozen import replace
from .lcd_charset import can_show
from .state import Table
from .text import COLUMNS, lcd_words, row

MAX_NAME = 12
# Unicode categories a name may not hold: controls, surrogates, private use, unassigned,
# line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
# The format marks that reorder text (bidirectional embeddings, overrides and isolates): a
# name could show as another. Joiners, which some scripts need, stay allowed.
BIDI_MARKS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def checked(raw: object) -> str:
    """`raw` as a name: trimmed and composed; raises ValueError saying what is wrong."""
    if not isinstance(raw, str):
        raise ValueError(f"a name is text, not {type(raw).__name__}")
    name = unicodedata.normalize("NFC", raw).strip()
    for character in name:
        if unicodedata.category(character) in REFUSED_CATEGORIES or character in BIDI_MARKS:
            raise ValueError(f"a name may not hold the character U+{ord(character):04X}")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has {MAX_NAME} characters at most, not {len(name)}")
    return name


def name_of(table: Table, seat: int, t: Words | None = None) -> str:
    """The seat's player's name, or "Seat 3" while it has none (in the language of `t`,
    English without)."""
    return table.names.get(seat) or (t or translation("en")).gettext("Seat {n}").format(n=seat)


# The table's other buttons, as the LCD names them (a seat's by its number).
INPUT_NAMES = {
    "play_pause": N_("Play/Pause"),
    "encoder.push": N_("Encoder"),
    "slap": N_("SLAP"),
    "launcher": N_("Launcher"),
}


def button_name(t: Words, name: str, seat: int | None) -> str:
    """ "Seat 3" for seat 3's button, "Play/Pause" for that one, in the language of `t`."""
    if seat is not None:
        return t.gettext("Seat {n}").format(n=seat)
    return t.gettext(INPUT_NAMES[name]) if name in INPUT_NAMES else name


def lcd_name(table: Table, seat: int, room: int = COLUMNS) -> str:
    """The seat's name as the LCD shows it: cut to `room` columns, or "Seat 3" where it has
    none or the LCD cannot show it."""
    name = table.names.get(seat, "")
    if not name or not can_show(name):
        return lcd_words(table.settings).gettext("Seat {n}").format(n=seat)
    return name[: max(room, 1)].rstrip()


def lcd_row(table: Table, seat: int, after: str = "", right: str | None = None) -> str:
    """ "Anna turn     4s": the seat's name as much of it as fits, `after` it, and `right`
    flush with the last column, the line filled (text.row: a seat's number is never cut);
    without `right`, the line as long as its text."""
    tail = f" {after}" if after else ""
    if right is None:
        return lcd_name(table, seat, COLUMNS - len(tail)) + tail
    room = COLUMNS - len(tail) - len(right) - 1
    return row(lcd_name(table, seat, room) + tail, right)


def rename(table: Table, seat: int, name: str, at: float, effects: list[Effect]) -> Table:
    """`seat`'s player is called `name` ("" clears it); a seat the table does not have is
    left alone (the request's answer says why: `why_not`)."""
    table = replace(table, last_input=max(at, table.last_input or at))
    if why_not(table, seat) is not None or table.names.get(seat, "") == name:
        return table
    names = {s: n for s, n in table.names.items() if s != seat}
    if name:
        names[seat] = name
    effects.append(Announce("seat_named", {"seat": seat, "name": name}))
    return replace(table, names=names)


def why_not(table: Table, seat: int) -> str | None:
    """Why `seat` cannot be named at this table, or None."""
    if not 1 <= seat <= table.stations:
        return f"no seat {seat} at this table ({table.stations} seats)"
    return None
