"""Checks of the values a snapshot gives back (game/codec.py, game/evening_codec.py): each
raises UndecodableSnapshot for a value no game keeps."""

from __future__ import annotations

from ..errors import UndecodableSnapshot
from .state import MAX_COUNT


def seat(value: object, seats: range) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in seats:
        raise UndecodableSnapshot(f"no seat {value!r} at this table")
    return value


def count(value: object, most: int = MAX_COUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise UndecodableSnapshot(f"{value!r} is not a count")
    return value
