"""The players' names and the score to target_score in a game snapshot (game/codec.py keeps
the rest): plain JSON values out, and back only as a game can leave them.

A snapshot of format 2, from before names and the score, has neither: it resumes with no
names and a game to target_score not yet begun.
"""

from __future__ import annotations

from typing import Any

from ..errors import UndecodableSnapshot
from .frozen import replace
from .kept_values import count as _count
from .kept_values import seat as _seat
from .score import MAX_POINTS
from .seat_names import checked
from .state import RoundPoints, Score, Table


def encode(table: Table) -> dict[str, Any]:
    score, opened = table.score, table.score.open
    return {
        "names": {str(seat): name for seat, name in sorted(table.names.items())},
        "score": {
            "totals": {str(seat): total for seat, total in sorted(score.totals.items())},
            "open": None
            if opened is None
            else {
                "winner": opened.winner,
                "seats": sorted(opened.seats),
                "points": {str(seat): p for seat, p in sorted(opened.points.items())},
            },
            "won": score.won,
        },
    }


def decode(data: Any, table: Table) -> Table:
    """`table` with the names and the score `data` keeps (none in a format 2 snapshot)."""
    seats = range(1, table.stations + 1)
    names = {_seat(int(seat), seats): _name(name) for seat, name in data.get("names", {}).items()}
    kept = data.get("score")
    return replace(table, names=names, score=Score() if kept is None else _score(kept, seats))


def _score(value: Any, seats: range) -> Score:
    totals = {_seat(int(seat), seats): _count(total) for seat, total in value["totals"].items()}
    opened = value["open"]
    points: RoundPoints | None = None
    if opened is not None:
        winner = _seat(opened["winner"], seats)
        played = frozenset(_seat(seat, seats) for seat in opened["seats"])
        entered = {_seat(int(seat), seats): _points(p) for seat, p in opened["points"].items()}
        # The winner's own hand is empty: points only for the others who played the round.
        if winner not in played or not set(entered) <= played - {winner}:
            raise UndecodableSnapshot(f"card points {opened!r} no round leaves")
        points = RoundPoints(winner, played, entered)
    won = value["won"]
    # A game is won by the points of the round being scored, by that round's winner.
    if won is not None and (points is None or won != points.winner):
        raise UndecodableSnapshot(f"a game won by seat {won!r}, not the round's winner")
    return Score(totals, points, won)


def _points(value: object) -> int:
    return _count(value, MAX_POINTS)


def _name(value: object) -> str:
    try:
        name = checked(value)
    except ValueError as err:
        raise UndecodableSnapshot(str(err)) from None  # "a name may not hold ..."
    if not name:
        raise UndecodableSnapshot("an empty name kept")
    return name
