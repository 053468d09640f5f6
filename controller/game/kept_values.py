"""Checks of the values a snapshot gives back (game/codec.py, codec_records.py,
evening_codec.py): each raises UndecodableSnapshot for a value no game keeps."""

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


def seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e7:
        raise UndecodableSnapshot(f"{value!r} is not a number of seconds")
    return float(value)
