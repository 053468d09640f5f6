"""Pause and resume, sleep after the inactivity time, and waking up.

A pause keeps the exact time left; a sleep is a pause with the lights and the backlight off.
The press that wakes the table does nothing else.
"""

from __future__ import annotations

import random
from dataclasses import replace

from . import summary
from .effects import Announce, Effect, Sound
from .state import Phase, Table

# Phases the table may fall asleep in; a slap race or a notice finishes first.
RESTFUL = frozenset({Phase.SEATING, Phase.TURN, Phase.PAUSED, Phase.ROUND_OVER, Phase.EXTREME})


def pause(table: Table, at: float, effects: list[Effect], *, sound: bool = True) -> Table:
    turn = table.turn
    assert turn is not None
    left = None if turn.deadline is None else max(0.0, turn.deadline - at)
    if sound:
        effects.append(Sound("pause"))
    effects.append(Announce("paused", {"seat": turn.seat, "left": left}))
    return replace(
        table,
        phase=Phase.PAUSED,
        paused_left=left,
        paused_at=at,
        holds={},
        turn=replace(turn, banner=None),
    )


def resume(table: Table, at: float, effects: list[Effect]) -> Table:
    turn = table.turn
    assert turn is not None
    left = table.paused_left
    paused_at = at if table.paused_at is None else table.paused_at
    turn = replace(
        turn,
        # The time spent paused is not turn time.
        started=turn.started + (at - paused_at),
        deadline=None if left is None else at + left,
    )
    effects += [Sound("resume"), Announce("resumed", {"seat": turn.seat, "left": left})]
    return replace(table, phase=Phase.TURN, turn=turn, paused_left=None, paused_at=None)


def sleep_due(table: Table) -> float | None:
    minutes = table.settings.sleep_time
    if table.asleep or minutes == "off" or table.last_input is None:
        return None
    if table.phase not in RESTFUL:
        return None
    return table.last_input + 60 * int(minutes)


def fall_asleep(
    table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]
) -> Table:
    if table.phase is Phase.TURN:
        table = pause(table, when, effects, sound=False)
    effects.append(Announce("asleep", {"phase": table.phase.value}))
    return replace(table, asleep=True, holds={}, message=None)


def wake(table: Table, at: float, effects: list[Effect]) -> Table:
    effects += [Sound("wake"), Announce("woke", {"phase": table.phase.value})]
    table = replace(table, asleep=False, last_input=at)
    return summary.awake_again(table, at)
