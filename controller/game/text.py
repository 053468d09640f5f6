"""Words for the 16x2 LCD that more than one rule needs, in the table's language.

The rules write the LCD's texts in the language set when they write them (`lcd_words`): a
text already on the glass keeps its language until it goes, a second or a page later. The
language is a setting like any other, changed by an event, so a replay shows the same words.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..catalogs import N_, Words, lcd_translation
from ..settings import Settings

COLUMNS = 16
ORDINALS = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th"), N_("7th"), N_("8th"))


def lcd_words(settings: Settings) -> Words:
    """The LCD's texts in the table's language (Chinese, which its ROM lacks, in English)."""
    return lcd_translation(str(settings.language))


def penalty_text(t: Words, cards: int, *, each: bool = False) -> str:
    if cards == 0:
        return t.gettext("No penalty")
    if each:
        return t.gettext("Each draws {cards}").format(cards=cards)
    return t.ngettext("Draw {cards} card", "Draw {cards} cards", cards).format(cards=cards)


def ordinal(t: Words, place: int) -> str:
    """ "1st", "2nd", "3rd", "4th" ... (a table has eight seats at most)."""
    return t.gettext(ORDINALS[place - 1])


def row(left: str, right: str) -> str:
    """`left` and `right` on one line, `right` flush with the last column. Too long, the
    letters of `left` give way, its first word's first ("press OK" becomes "pres OK"): a number
    is never cut, so a count on the LCD is always the whole count."""
    if len(right) >= COLUMNS:
        # Only a value the game bounds below this could fill the line: shown alone, and the
        # screen never fails for it.
        return right[:COLUMNS]
    room = COLUMNS - len(right) - 1  # one space between them at least
    if len(left) > room:
        left = _squeezed(left, room)
    return left + " " * (COLUMNS - len(left) - len(right)) + right


def _squeezed(text: str, width: int) -> str:
    """`text` in `width` columns, by taking letters off the ends of its words, the first word
    first, then whole words from the start; no digit is ever taken off a number."""
    words = text.split(" ")
    for index in range(len(words)):
        while len(" ".join(words)) > width and words[index][-1:].isalpha():
            words[index] = words[index][:-1]
    words = [word for word in words if word]
    while len(" ".join(words)) > width and words:
        words.pop(0)
    return " ".join(words)


def seat_numbers(seats: Iterable[int], room: int) -> str:
    """Seat numbers spaced out if they fit in `room` columns, run together if not."""
    numbers = [str(s) for s in sorted(seats)]
    spaced = " ".join(numbers)
    return spaced if len(spaced) <= room else "".join(numbers)
