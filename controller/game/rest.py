"""Pause and resume, the menu's pause, sleep after the inactivity time, and waking up.

A pause keeps the exact time left; a sleep is a pause with the lights and the backlight off.
The press that wakes the table does nothing else. While the LCD menu is open no turn runs:
opening it pauses the turn, a turn that comes up meanwhile starts paused, and closing the
menu resumes what it paused (a pause from Play/Pause stays until Play/Pause).
"""

from __future__ import annotations

import random

from . import standings, summary
from .effects import Announce, Effect, Sound
from .frozen import replace
from .state import Phase, Table

# Phases the table may fall asleep in; a slap race or a notice finishes first.
RESTFUL = frozenset({Phase.SEATING, Phase.TURN, Phase.PAUSED, Phase.ROUND_OVER, Phase.EXTREME})


def pause(table: Table, at: float, effects: list[Effect], *, sound: bool = True) -> Table:
    turn = table.turn
    assert turn is not None
    left = turn.time_left(at)
    if sound:
        effects.append(Sound("pause"))
    effects.append(Announce("paused", {"seat": turn.seat, "left": left}))
    return replace(
        table,
        phase=Phase.PAUSED,
        paused_left=left,
        paused_at=at,
        holds={},
        # The banner's moment is over, and with it a repeat's blink.
        turn=replace(turn, banner=None, again=False),
        menu_paused=False,
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
    if turn.waits_for:
        # What it waited for is not over: it waits on, with that time.
        turn = replace(turn, deadline=None, held_left=left)
    effects += [Sound("resume"), Announce("resumed", {"seat": turn.seat, "left": left})]
    return replace(
        table, phase=Phase.TURN, turn=turn, paused_left=None, paused_at=None, menu_paused=False
    )


def hold_for_menu(table: Table, at: float, effects: list[Effect]) -> Table:
    """With the menu open, a running turn pauses (the time left kept) until it closes."""
    if not table.menu_open or table.phase is not Phase.TURN or table.turn is None:
        return table
    return replace(pause(table, at, effects), menu_paused=True)


def menu_opened(table: Table, at: float, effects: list[Effect]) -> Table:
    return hold_for_menu(replace(table, menu_open=True), at, effects)


def menu_closed(table: Table, at: float, effects: list[Effect]) -> Table:
    ours = table.menu_paused and table.phase is Phase.PAUSED
    table = replace(table, menu_open=False, menu_paused=False)
    if not ours or table.asleep:
        return table  # asleep: it wakes paused, as any sleep does
    if table.launcher.fault is not None:
        # The launcher waits for OK (it closed the menu): OK resumes the turn.
        return replace(table, launcher=replace(table.launcher, paused_play=True))
    return resume(table, at, effects)


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
    # The evening is over: whoever wakes the table starts new standings (SPEC §2.5).
    table = standings.reset(table, "sleep", when, effects)
    return replace(table, asleep=True, holds={}, message=None)


def wake(table: Table, at: float, effects: list[Effect]) -> Table:
    effects += [Sound("wake"), Announce("woke", {"phase": table.phase.value})]
    table = replace(table, asleep=False, last_input=at, idle_page=0, idle_since=at)
    return summary.awake_again(table, at)
