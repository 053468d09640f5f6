"""Seat buttons held down during play: a Jump-In after JUMP_HOLD, the round's end (or, for
places, that player's place) after WIN_HOLD. Holds are measured from the press edge; a
release before the mark cancels.
"""

from __future__ import annotations

import random

from . import places, summary, turns
from .effects import Announce, Effect, Sound
from .frozen import replace
from .state import Hold, Phase, Table

JUMP_HOLD = 0.6  # a tap never jumps in
WIN_HOLD = 2.0  # the player who emptied their hand


def begin(table: Table, seat: int, at: float, *, was_lit: bool) -> Table:
    """A seated player pressed during play (after their press did whatever it does).

    Only a player who was not lit when they pressed may jump in: the lit player's own press
    ends their turn, and holding on must not take the next one back.
    """
    may_jump = table.phase is Phase.TURN and not was_lit and table.settings.jump_in == "on"
    return replace(table, holds={**table.holds, seat: Hold(at, may_jump)})


def end(table: Table, seat: int) -> Table:
    if seat not in table.holds:
        return table
    return replace(table, holds={s: h for s, h in table.holds.items() if s != seat})


def _marks(table: Table) -> list[tuple[float, int, int]]:
    """(when, order, seat) for every mark still ahead; a Jump-In sorts before a round end."""
    marks = []
    for seat, hold in table.holds.items():
        if hold.may_jump:
            marks.append((hold.since + JUMP_HOLD, 0, seat))
        marks.append((hold.since + WIN_HOLD, 1, seat))
    return sorted(marks)


def due(table: Table) -> float | None:
    marks = _marks(table)
    return marks[0][0] if marks else None


def fire(table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]) -> Table:
    mark, kind, seat = _marks(table)[0]
    if kind == 1:
        if table.finish == "places":
            return places.go_out(table, seat, mark, rng, effects)
        return summary.round_over(table, seat, mark, effects)
    table = replace(table, holds={**table.holds, seat: replace(table.holds[seat], may_jump=False)})
    turn = table.turn
    if table.phase is not Phase.TURN or turn is None or turn.seat == seat:
        return table
    if table.settings.jump_in != "on":
        return table
    effects += [Sound("jump_in"), Announce("jump_in", {"seat": seat, "from": turn.seat})]
    return turns.start(table, seat, mark, rng, effects, banner=f"Jump-In! Seat {seat}")
