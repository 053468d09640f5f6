"""Turn pickers: who plays next.

classic: uniform over the seated players, repeats allowed (the original unit).
fair: repeats allowed, but never three times running; the longer a player has waited, the
likelier they are picked (weight = 1 + turns since they last played).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

HISTORY = 64  # picks remembered; a longer wait weighs the same


def pick(kind: str, seated: Collection[int], picks: Sequence[int], rng: random.Random) -> int:
    seats = sorted(seated)
    if kind == "classic":
        return rng.choice(seats)
    return _pick_fair(seats, picks, rng)


def _pick_fair(seats: list[int], picks: Sequence[int], rng: random.Random) -> int:
    if len(picks) >= 2 and picks[-1] == picks[-2]:
        seats = [s for s in seats if s != picks[-1]]
    weights = [1 + _waited(seat, picks) for seat in seats]
    return rng.choices(seats, weights)[0]


def _waited(seat: int, picks: Sequence[int]) -> int:
    for back, picked in enumerate(reversed(picks)):
        if picked == seat:
            return back
    return len(picks) + 1


def remember(picks: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return (*picks, seat)[-HISTORY:]
