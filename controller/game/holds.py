"""Seat buttons held down during play: a Jump-In after JUMP_HOLD, the round's end (or, for
places, that player's place) after WIN_HOLD. Holds are measured from the press edge; a
release before the mark cancels.

The player who empties their hand presses their button, which ends their turn and lights the
next player, and holds on. Past OUT_HINT the table takes the hold for a player going out: the
next player's turn waits (its light dim, its timer stopped with the time it had) and the LCD
names the player going out, until they let go (the turn goes on) or reach WIN_HOLD.
"""

from __future__ import annotations

import random

from . import places, summary, turns
from .effects import Announce, Effect, Sound
from .frozen import replace
from .seat_names import lcd_name, lcd_row
from .state import Hold, Phase, Table
from .text import COLUMNS, lcd_words

JUMP_HOLD = 0.6  # a tap never jumps in
WIN_HOLD = 2.0  # the player who emptied their hand
OUT_HINT = 0.6  # a hold this long by the player who just ended their turn: going out?
OUT = "out"  # what the next turn's timer waits for meanwhile (Turn.waits_for)


def begin(table: Table, seat: int, at: float, *, was_lit: bool) -> Table:
    """A seated player pressed during play (after their press did whatever it does).

    Only a player who was not lit when they pressed may jump in: the lit player's own press
    ends their turn, and holding on must not take the next one back.
    """
    may_jump = table.phase is Phase.TURN and not was_lit and table.settings.jump_in == "on"
    return replace(table, holds={**table.holds, seat: Hold(at, may_jump, was_lit)})


def end(table: Table, seat: int) -> Table:
    if seat not in table.holds:
        return table
    return replace(table, holds={s: h for s, h in table.holds.items() if s != seat})


def settle(table: Table, at: float) -> Table:
    """After every step: once no hold is going out (let go, taken a place, cleared by a pause),
    a turn that waited for one runs on."""
    turn = table.turn
    if turn is None or turn.waits_for != OUT:
        return table
    if any(hold.going_out for hold in table.holds.values()):
        return table
    banner = None if turn.going_out_banner else turn.banner
    return replace(
        table, turn=replace(turns.go_on(turn, at, OUT), banner=banner, going_out_banner=False)
    )


def _marks(table: Table) -> list[tuple[float, int, int]]:
    """(when, order, seat) for every mark still ahead; a Jump-In sorts before a round end."""
    marks = []
    for seat, hold in table.holds.items():
        if hold.may_jump:
            marks.append((hold.since + JUMP_HOLD, 0, seat))
        if hold.was_lit and not hold.going_out:
            marks.append((hold.since + OUT_HINT, 2, seat))
        marks.append((hold.since + WIN_HOLD, 1, seat))
    return sorted(marks)


def due(table: Table) -> float | None:
    marks = _marks(table)
    return marks[0][0] if marks else None


def fire(table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]) -> Table:
    mark, kind, seat = _marks(table)[0]
    if kind == 2:
        return _going_out(table, seat, mark)
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
    jump_in = lcd_words(table.settings).gettext("Jump-In!")
    banner = f"{jump_in} {lcd_name(table, seat, COLUMNS - len(jump_in) - 1)}"
    return turns.start(table, seat, mark, rng, effects, banner=banner)


def _going_out(table: Table, seat: int, at: float) -> Table:
    """`seat` still holds the press that ended their turn: the next turn waits for them."""
    table = replace(table, holds={**table.holds, seat: replace(table.holds[seat], going_out=True)})
    turn = table.turn
    if table.phase is not Phase.TURN or turn is None or turn.seat == seat:
        return table
    waiting = turns.wait(turn, at, OUT)
    # "Seat 3 going out": the first line while the next turn waits for them.
    banner = lcd_row(table, seat, lcd_words(table.settings).gettext("going out"))
    waiting = replace(waiting, banner=banner, banner_until=at + WIN_HOLD, going_out_banner=True)
    return replace(table, turn=waiting)
