"""Words for the 16x2 LCD that more than one rule needs."""

from __future__ import annotations

from collections.abc import Iterable

COLUMNS = 16


def penalty_text(cards: int, *, each: bool = False) -> str:
    if cards == 0:
        return "No penalty"
    if each:
        return f"Each draws {cards}"
    return f"Draw {cards} card" + ("s" if cards > 1 else "")


def row(left: str, right: str) -> str:
    """`left` and `right` on one line, `right` flush with the last column."""
    if len(left) + len(right) < COLUMNS:
        return left + " " * (COLUMNS - len(left) - len(right)) + right
    # Too long: the value on the right matters more than its label.
    return (left + " " + right)[-COLUMNS:]


def seat_numbers(seats: Iterable[int], room: int) -> str:
    """Seat numbers spaced out if they fit in `room` columns, run together if not."""
    numbers = [str(s) for s in sorted(seats)]
    spaced = " ".join(numbers)
    return spaced if len(spaced) <= room else "".join(numbers)
