"""The rules: `step(table, event, now, rng) -> (table, effects)` and `next_wakeup(table)`.

`now` is when the daemon handles the event; an input event's own `time` is its pin edge, and
turn times count from edges, never from when the software got round to them.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

from ..settings import Settings
from . import picker
from .effects import Announce, Effect, Sound
from .events import Event, Press, Release, Stuck
from .state import Message, Notice, Phase, Table, Turn

STUCK_AFTER = 8.0  # a seat button held this long while seating is stuck, not a player
MESSAGE_TIME = 3.0  # how long a seating message stays up
NOTICE_TIME = 2.5  # how long a timeout holds the table before the next pick
WARN_SECONDS = 2  # the last seconds of a turn: fast blink and ticks
PLAY_INPUTS = frozenset({"play_pause", "encoder.push"})  # the encoder push is Play/Pause too

Result = tuple[Table, list[Effect]]


def new_table(settings: Settings, stations: int) -> Table:
    return Table(settings=settings, stations=stations)


def seat_of(name: str) -> int | None:
    """3 for "seat3", None for any other input."""
    if name.startswith("seat") and name[4:].isdigit():
        return int(name[4:])
    return None


def step(table: Table, event: Event, now: float, rng: random.Random) -> Result:
    """The table after `event`, and what the daemon must do about it."""
    effects: list[Effect] = []
    if isinstance(event, Stuck):
        table = _mark_stuck(table, event.input, now, effects)
    elif isinstance(event, Release):
        table = _release(table, event, effects)
    elif isinstance(event, Press):
        if event.input in table.stuck:
            return table, effects
        table = replace(table, held={**table.held, event.input: event.time})
        table = _press(table, event, rng, effects)
    table = _on_time(table, now, rng, effects)
    return table, effects


def next_wakeup(table: Table) -> float | None:
    """The next moment the engine needs a Tick at, or None while nothing is timed."""
    moments: list[float] = []
    if table.message is not None:
        moments.append(table.message.until)
    if table.phase is Phase.SEATING:
        moments += [since + STUCK_AFTER for name, since in table.held.items() if seat_of(name)]
    elif table.phase is Phase.NOTICE and table.notice is not None:
        moments.append(table.notice.until)
    elif table.phase is Phase.TURN and table.turn is not None and table.turn.deadline is not None:
        # When the countdown next shows one second less; at 1 that is the deadline itself.
        moments.append(table.turn.deadline - max((table.turn.shown or 1) - 1, 0))
    return min(moments) if moments else None


def _shown(deadline: float, now: float) -> int:
    return max(0, math.ceil(deadline - now - 1e-9))


# -- inputs ------------------------------------------------------------------------------


def _press(table: Table, event: Press, rng: random.Random, effects: list[Effect]) -> Table:
    seat = seat_of(event.input)
    if seat is not None and seat > table.stations:
        return table
    if table.phase is Phase.SEATING:
        if seat is not None:
            return _toggle_seat(table, seat, effects)
        if event.input in PLAY_INPUTS:
            return _start_round(table, event.time, rng, effects)
        return table
    if table.phase is Phase.TURN and table.turn is not None:
        if event.input in PLAY_INPUTS:
            return _pause(table, event.time, effects)
        if seat == table.turn.seat:
            return _end_turn(table, event.time, rng, effects)
        return table
    if table.phase is Phase.PAUSED and event.input in PLAY_INPUTS:
        return _resume(table, event.time, effects)
    return table


def _release(table: Table, event: Release, effects: list[Effect]) -> Table:
    held = {k: v for k, v in table.held.items() if k != event.input}
    table = replace(table, held=held)
    if event.input in table.stuck:
        effects.append(Announce("button_freed", {"input": event.input}))
        table = replace(table, stuck=table.stuck - {event.input})
    return table


def _mark_stuck(table: Table, name: str, now: float, effects: list[Effect]) -> Table:
    effects += [Sound("refuse"), Announce("button_stuck", {"input": name})]
    seat = seat_of(name)
    label = f"Seat {seat}" if seat is not None else name.replace("_", "/").title()
    return replace(
        table,
        stuck=table.stuck | {name},
        seated=table.seated - {seat} if seat is not None else table.seated,
        held={k: v for k, v in table.held.items() if k != name},
        message=Message((f"{label} button", "stuck: check it"), now + MESSAGE_TIME),
    )


# -- seating -----------------------------------------------------------------------------


def _toggle_seat(table: Table, seat: int, effects: list[Effect]) -> Table:
    if seat in table.seated:
        effects += [Sound("leave"), Announce("seat_released", {"seat": seat})]
        return replace(table, seated=table.seated - {seat})
    effects += [Sound("join"), Announce("seat_claimed", {"seat": seat})]
    return replace(table, seated=table.seated | {seat})


def _start_round(table: Table, now: float, rng: random.Random, effects: list[Effect]) -> Table:
    if len(table.seated) < 2:
        effects += [Sound("refuse"), Announce("start_refused", {"seated": len(table.seated)})]
        message = Message(("Need 2+ players", "Press to join"), now + MESSAGE_TIME)
        return replace(table, message=message)
    effects += [
        Sound("start"),
        Announce("round_started", {"seats": sorted(table.seated), "mode": table.settings.mode}),
    ]
    return _next_turn(replace(table, message=None, picks=()), now, rng, effects)


# -- turns -------------------------------------------------------------------------------


def _turn_limit(settings: Settings) -> float | None:
    timer = settings.turn_timer
    return float(timer) if isinstance(timer, int) else None


def _next_turn(table: Table, start: float, rng: random.Random, effects: list[Effect]) -> Table:
    seat = picker.pick(table.settings.picker, table.seated, table.picks, rng)
    limit = _turn_limit(table.settings)
    deadline = None if limit is None else start + limit
    turn = Turn(seat, start, deadline, None if deadline is None else _shown(deadline, start))
    effects += [Sound("turn"), Announce("turn_started", {"seat": seat, "limit": limit})]
    return replace(
        table,
        phase=Phase.TURN,
        turn=turn,
        notice=None,
        picks=picker.remember(table.picks, seat),
    )


def _end_turn(table: Table, now: float, rng: random.Random, effects: list[Effect]) -> Table:
    assert table.turn is not None
    seconds = round(now - table.turn.started, 3)
    effects.append(Announce("turn_ended", {"seat": table.turn.seat, "seconds": seconds}))
    return _next_turn(table, now, rng, effects)


def _timeout(table: Table, now: float, effects: list[Effect]) -> Table:
    assert table.turn is not None
    seat = table.turn.seat
    penalty = int(table.settings.timeout_penalty)
    effects += [Sound("timeout"), Announce("timeout", {"seat": seat, "penalty": penalty})]
    notice = Notice((f"Seat {seat} timeout!", _penalty_text(penalty)), now + NOTICE_TIME, seat)
    return replace(table, phase=Phase.NOTICE, notice=notice)


def _penalty_text(cards: int) -> str:
    if cards == 0:
        return "No penalty"
    return f"Draw {cards} card" + ("s" if cards > 1 else "")


def _pause(table: Table, now: float, effects: list[Effect]) -> Table:
    assert table.turn is not None
    left = None if table.turn.deadline is None else max(0.0, table.turn.deadline - now)
    effects += [Sound("pause"), Announce("paused", {"seat": table.turn.seat, "left": left})]
    return replace(table, phase=Phase.PAUSED, paused_left=left)


def _resume(table: Table, now: float, effects: list[Effect]) -> Table:
    assert table.turn is not None
    left = table.paused_left
    deadline = None if left is None else now + left
    turn = replace(table.turn, deadline=deadline)
    effects += [Sound("resume"), Announce("resumed", {"seat": turn.seat, "left": left})]
    return replace(table, phase=Phase.TURN, turn=turn, paused_left=None)


# -- time --------------------------------------------------------------------------------


def _on_time(table: Table, now: float, rng: random.Random, effects: list[Effect]) -> Table:
    """Everything that `now` has made due."""
    if table.message is not None and now >= table.message.until:
        table = replace(table, message=None)
    if table.phase is Phase.SEATING:
        for name, since in sorted(table.held.items()):
            if seat_of(name) is not None and now >= since + STUCK_AFTER:
                table = _mark_stuck(table, name, now, effects)
    elif table.phase is Phase.NOTICE and table.notice and now >= table.notice.until:
        table = _next_turn(table, table.notice.until, rng, effects)
    if table.phase is Phase.TURN and table.turn is not None and table.turn.deadline is not None:
        turn = table.turn
        if now >= turn.deadline:
            return _timeout(table, turn.deadline, effects)
        shown = _shown(turn.deadline, now)
        if shown != turn.shown:
            if shown <= WARN_SECONDS:
                effects.append(Sound("tick"))
            table = replace(table, turn=replace(turn, shown=shown))
    return table
