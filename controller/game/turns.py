"""Turns: who is lit, for how long, and what happens when the time runs out.

A limit is the turn timer (or, for "surprise", a draw between the two surprise bounds) plus
the seat's handicap. The countdown wakes the engine each time the shown seconds drop.
"""

from __future__ import annotations

import math
import random

from ..settings import Settings
from . import launch, picker, summary
from .effects import Announce, Effect, Sound
from .frozen import replace
from .seat_names import lcd_row
from .state import Notice, Phase, Table, Turn
from .text import lcd_words, penalty_text

WARN_SECONDS = 2  # the last seconds of a turn: fast blink and ticks, a surprise shows
TIMEOUT_HOLD = 2.5  # how long a timeout holds the table before the next pick
BANNER_TIME = 2.0  # how long a Jump-In is named on the first line


def limit(settings: Settings, seat: int, rng: random.Random) -> tuple[float | None, bool]:
    """This turn's limit in seconds (None: no timer), and whether its countdown is hidden."""
    timer = settings.turn_timer
    if timer == "off":
        return None, False
    handicap = int(settings.get(f"handicap_seat{seat}", 0))
    if timer == "surprise":
        low, high = int(settings.surprise_min), int(settings.surprise_max)
        # Milliseconds are plenty, and keep the logs readable.
        return round(rng.uniform(low, high), 3) + handicap, True
    return float(timer) + handicap, False


def shown(deadline: float, now: float) -> int:
    return max(0, math.ceil(deadline - now - 1e-9))


def start(
    table: Table,
    seat: int,
    at: float,
    rng: random.Random,
    effects: list[Effect],
    *,
    banner: str | None = None,
    again: bool = False,
) -> Table:
    """Light `seat` from `at`, with a fresh limit; `again`: it was this seat's turn just now."""
    seconds, hidden = limit(table.settings, seat, rng)
    deadline = None if seconds is None else at + seconds
    if again:
        banner = lcd_row(table, seat, lcd_words(table.settings).gettext("again!"))
    turn = Turn(
        seat,
        at,
        deadline,
        None if deadline is None else shown(deadline, at),
        hidden,
        banner,
        at + BANNER_TIME if banner else 0.0,
        again,
    )
    effects.append(Announce("turn_started", {"seat": seat, "limit": seconds}))
    return replace(
        table,
        phase=Phase.TURN,
        turn=turn,
        notice=None,
        race=None,
        picks=picker.remember(table.picks, seat),
    )


def next_turn(
    table: Table, at: float, rng: random.Random, effects: list[Effect], *, sound: bool = True
) -> Table:
    # Players out with a place are never picked again.
    seat = picker.pick(str(table.settings.picker), table.in_play, table.picks, rng)
    # A repeat must not look like a missed press: it is named, sounds and blinks.
    again = bool(table.picks) and table.picks[-1] == seat
    if sound:
        effects.append(Sound("again") if again else Sound("turn"))
    return start(table, seat, at, rng, effects, again=again)


def end(table: Table, at: float, rng: random.Random, effects: list[Effect]) -> Table:
    """The lit player pressed their own button: the turn is theirs, the next is picked."""
    assert table.turn is not None
    seat = table.turn.seat
    seconds = round(at - table.turn.started, 3)
    effects.append(Announce("turn_ended", {"seat": seat, "seconds": seconds}))
    table = summary.record_turn(table, seat, seconds)
    return next_turn(table, at, rng, effects)


def timeout(table: Table, effects: list[Effect]) -> Table:
    turn = table.turn
    assert turn is not None and turn.deadline is not None
    seat, at = turn.seat, turn.deadline
    penalty = int(table.settings.timeout_penalty)
    effects += [Sound("timeout"), Announce("timeout", {"seat": seat, "penalty": penalty})]
    if penalty:
        effects.append(Announce("penalty", {"seat": seat, "cards": penalty, "reason": "timeout"}))
        table = launch.penalty(table, seat, penalty, "timeout", effects)
    table = summary.record_turn(table, seat, at - turn.started, timeout=True)
    t = lcd_words(table.settings)
    notice = Notice(
        ((lcd_row(table, seat, t.gettext("timeout!")), penalty_text(t, penalty)),),
        at,
        TIMEOUT_HOLD,
        frozenset({seat}),
    )
    return replace(table, phase=Phase.NOTICE, notice=notice, turn=None)


def wait(turn: Turn, at: float, why: str) -> Turn:
    """The turn's timer stops at `at` for `why` ("cards", "out"), keeping its time left; a
    turn that waits already waits on."""
    if turn.waits_for:
        return turn
    return replace(turn, waits_for=why, deadline=None, held_left=turn.time_left(at))


def go_on(turn: Turn, at: float, why: str) -> Turn:
    """What the turn waited for (`why`) is over: its timer runs on from `at` with the time
    it had. A wait for something else goes on."""
    if turn.waits_for != why:
        return turn
    left = turn.held_left
    deadline = None if left is None else at + left
    return replace(turn, waits_for="", deadline=deadline, held_left=None)


def warning(turn: Turn) -> bool:
    """In the last seconds: fast blink, ticks, and a surprise countdown shows."""
    return turn.shown is not None and turn.shown <= WARN_SECONDS


# -- timed -------------------------------------------------------------------------------


def countdown_due(table: Table) -> float | None:
    turn = table.turn
    if table.phase is not Phase.TURN or turn is None or turn.deadline is None:
        return None
    # When the countdown next shows one second less; at 1 that is the deadline itself.
    return turn.deadline - max((turn.shown or 1) - 1, 0)


def countdown_fire(
    table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]
) -> Table:
    turn = table.turn
    assert turn is not None and turn.deadline is not None
    deadline = turn.deadline
    if when >= deadline:
        return timeout(table, effects)
    # At least one second less, so each wake-up moves the countdown on. Caught up late, the
    # countdown goes to its last second, not past the deadline: what fell due before the
    # deadline (a hold completed, a place taken) still comes first.
    left = max(1, min((turn.shown or 1) - 1, shown(deadline, now)))
    turn = replace(turn, shown=left)
    if warning(turn) and now < deadline:
        effects.append(Sound("tick"))
    return replace(table, turn=turn)


def banner_due(table: Table) -> float | None:
    if table.phase is Phase.TURN and table.turn is not None and table.turn.banner:
        return table.turn.banner_until
    return None


def banner_fire(
    table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]
) -> Table:
    assert table.turn is not None
    turn = replace(table.turn, banner=None, again=False, going_out_banner=False)
    return replace(table, turn=turn)
