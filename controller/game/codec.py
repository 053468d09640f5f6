"""The table's state as plain JSON values, to resume a game after a crash or a power cut.

`encode` keeps what a resumed game needs: the seats, the phase, whose turn and the time it
has played and has left, the picks the fair picker weighs, the round's statistics, its
finish and the places taken, the round-over summary, the evening's standings, and the
launcher's deliveries and counters. Moments are kept relative to the
time of the snapshot, since the monotonic clock starts over at a boot. What only lasts a
moment is not kept: buttons held, a seating message, the countdown shown, a hit's chime.

`decode` gives the table to resume at `now`, paused: a running turn as a paused one with the
time it had left; a slap race or a penalty screen as the next player's turn, paused (their
penalty cards are already owed). It raises UndecodableSnapshot for anything it cannot trust: a value
of the wrong kind, and values each fine alone that no game can reach together (a seat listed
twice, a turn or a winner nobody sits at, a summary page past the last, more cards owed than
a deck, a place taken by a seat nobody sits at or twice, a round for places with fewer than
two players still in, a turn of a player who is out, more wins than rounds) — a snapshot
that decodes is one the table can draw and play on.
"""

from __future__ import annotations

import random
from typing import Any

from ..errors import UndecodableSnapshot
from ..settings import Settings, setting
from . import evening_codec, summary, turns
from .codec_records import (
    seat_stats,
    standing_list,
    standings_of,
    stats_list,
    to_ms,
)
from .effects import Effect
from .frozen import replace
from .kept_values import count as _count
from .kept_values import seat as _seat
from .kept_values import seconds as _seconds
from .state import (
    MAX_OWED,
    ROUND_PHASES,
    Delivery,
    Launcher,
    Phase,
    Summary,
    Table,
    Turn,
)

# 2: the round's finish, its places, the evening's standings, SLAP times; 3: players' names
# and the score to target_score (a format 2 snapshot resumes without them).
FORMAT = 3
READ_FORMATS = frozenset({2, FORMAT})
KEPT_PHASES = frozenset({Phase.SEATING, Phase.EXTREME, Phase.ROUND_OVER})
REASONS = frozenset({"timeout", "slap", "hit", "quick", "restart"})
MODES = frozenset(setting("mode").options)
FINISHES = frozenset(setting("finish").options)


def encode(table: Table, now: float) -> dict[str, Any]:
    turn = table.turn
    launcher = table.launcher
    return {
        "format": FORMAT,
        "stations": table.stations,
        "phase": table.phase.value,
        "mode": table.round_mode,
        "finish": table.round_finish,
        "places": list(table.places),
        "seated": sorted(table.seated),
        "turn": None if turn is None else _turn(table, turn, now),
        "picks": list(table.picks),
        "stats": {str(seat): stats_list(stats) for seat, stats in sorted(table.stats.items())},
        "summary": None
        if table.summary is None
        else {"winner": table.summary.winner, "page": table.summary.page},
        "standings": {
            "rounds": table.standings.rounds,
            "seats": {
                str(seat): standing_list(standing)
                for seat, standing in sorted(table.standings.seats.items())
            },
        },
        "launcher": {
            "queue": [[d.seat, d.cards, d.reason] for d in launcher.queue],
            "misses": launcher.misses,
            "cards_out": launcher.cards_out,
            "jams": launcher.jams,
        },
        **evening_codec.encode(table),
    }


def _turn(table: Table, turn: Turn, now: float) -> dict[str, Any]:
    if table.phase is Phase.PAUSED:
        at = now if table.paused_at is None else table.paused_at
        left = table.paused_left
    else:
        at = now
        left = turn.time_left(now)
    played = to_ms(max(0.0, at - turn.started))
    return {"seat": turn.seat, "played": played, "left": None if left is None else to_ms(left)}


def time_left(data: object) -> float | None:
    """The time left of the turn in a snapshot, or None (for the heartbeat's checks)."""
    if isinstance(data, dict) and isinstance(data.get("turn"), dict):
        left = data["turn"].get("left")
        return float(left) if isinstance(left, int | float) else None
    return None


def decode(
    data: object,
    *,
    settings: Settings,
    stations: int,
    has_launcher: bool,
    now: float,
    rng: random.Random,
    left: float | None = None,
) -> Table:
    """The table to resume at `now`; `left` overrides the turn's time left (the heartbeat's
    newer figure)."""
    try:
        return _decode(data, settings, stations, has_launcher, now, rng, left)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        if isinstance(err, UndecodableSnapshot):
            raise
        raise UndecodableSnapshot(f"not a snapshot of this table ({type(err).__name__})") from None


def _decode(
    data: Any,
    settings: Settings,
    stations: int,
    has_launcher: bool,
    now: float,
    rng: random.Random,
    left: float | None,
) -> Table:
    if data["format"] not in READ_FORMATS:
        raise UndecodableSnapshot(f"format {data['format']!r}, not {FORMAT}")
    if data["stations"] != stations:
        raise UndecodableSnapshot(f"a table of {data['stations']!r} seats, not {stations}")
    seats = range(1, stations + 1)
    listed = [_seat(s, seats) for s in data["seated"]]
    seated = frozenset(listed)
    if len(seated) != len(listed):
        raise UndecodableSnapshot("a seat listed twice")
    phase = Phase(data["phase"])
    stats = {_seat(int(s), seats): seat_stats(v) for s, v in data["stats"].items()}
    queue = tuple(_delivery(d, seats) for d in data["launcher"]["queue"])
    if sum(delivery.cards for delivery in queue) > MAX_OWED:
        raise UndecodableSnapshot(f"more than {MAX_OWED} cards owed")
    launcher = Launcher(
        queue=queue if has_launcher else (),
        misses=_count(data["launcher"]["misses"]),
        cards_out=_count(data["launcher"]["cards_out"]),
        jams=_count(data["launcher"]["jams"]),
    )
    picks = tuple(_seat(s, seats) for s in data["picks"])
    table = Table(
        settings=settings,
        stations=stations,
        seated=seated,
        picks=picks,
        stats=stats,
        has_launcher=has_launcher,
        launcher=launcher,
        last_input=now,
        idle_since=now,
    )
    # The round's own mode; a snapshot that has none plays on in the settings' mode.
    mode = data.get("mode") or settings.mode
    if mode not in MODES:
        raise UndecodableSnapshot(f"no mode {mode!r}")
    if phase not in (Phase.SEATING, Phase.ROUND_OVER):
        table = replace(table, round_mode=str(mode))
    table = replace(table, standings=standings_of(data["standings"], seats))
    table = evening_codec.decode(data, table)
    table = _with_places(table, phase, data["finish"], data["places"], seats)
    if phase in KEPT_PHASES:
        kept = data["summary"]
        if phase is Phase.ROUND_OVER:
            if kept is None:
                raise UndecodableSnapshot("a round over without its summary")
            winner = kept["winner"]
            if winner is not None and _seat(winner, seats) not in seated:
                raise UndecodableSnapshot(f"a winner at seat {winner}, where nobody sits")
            if table.places and winner != table.places[0]:
                raise UndecodableSnapshot(f"a winner at seat {winner}, not the first place")
            over = replace(table, phase=phase, summary=Summary(winner, 0, now))
            page = _count(kept["page"])
            if page >= len(summary.pages(over)):
                raise UndecodableSnapshot(f"summary page {page} of {len(summary.pages(over))}")
            return replace(over, summary=Summary(winner, page, now))
        return replace(table, phase=phase)
    if len(seated) < 2:
        raise UndecodableSnapshot(f"a {phase.value} phase with {len(seated)} seated")
    turn = data["turn"]
    if phase in (Phase.SLAP, Phase.NOTICE):
        # The race or the penalty is over for the resumed game: the next player is up.
        effects: list[Effect] = []
        table = turns.next_turn(replace(table, phase=Phase.TURN), now, rng, effects, sound=False)
        assert table.turn is not None
        seat, played = table.turn.seat, 0.0
        deadline = table.turn.deadline
        kept_left = None if deadline is None else deadline - now
    elif phase in (Phase.TURN, Phase.PAUSED) and turn is not None:
        seat = _seat(turn["seat"], seats)
        if seat not in seated:
            raise UndecodableSnapshot(f"a turn of seat {seat}, where nobody sits")
        if seat in table.places:
            raise UndecodableSnapshot(f"a turn of seat {seat}, out with a place")
        played = _seconds(turn["played"])
        kept_left = None if turn["left"] is None else _seconds(turn["left"])
    else:
        raise UndecodableSnapshot(f"a {phase.value} phase without a turn")
    if left is not None and kept_left is not None:
        kept_left = max(0.0, min(left, kept_left))
    resumed = Turn(seat=seat, started=now - played, deadline=None)
    if kept_left is not None:
        resumed = replace(
            resumed, deadline=now + kept_left, shown=turns.shown(now + kept_left, now)
        )
    if table.mode == "table" and any(d.seat == seat for d in table.launcher.queue):
        # Cards were flying at the lit player: their timer waits for them again.
        resumed = turns.wait(resumed, now, "cards")
    return replace(table, phase=Phase.PAUSED, turn=resumed, paused_left=kept_left, paused_at=now)


def _with_places(table: Table, phase: Phase, finish: object, listed: Any, seats: range) -> Table:
    """The round's finish and the places taken, as only a game can leave them."""
    places = tuple(_seat(s, seats) for s in listed)
    if len(set(places)) != len(places):
        raise UndecodableSnapshot("a place taken twice")
    if not set(places) <= table.seated:
        raise UndecodableSnapshot("a place taken at a seat where nobody sits")
    still_in = len(table.seated) - len(places)
    if phase in ROUND_PHASES:
        if finish not in FINISHES:
            raise UndecodableSnapshot(f"a round with no finish {finish!r}")
        if places and finish != "places":
            raise UndecodableSnapshot("places taken in a round the first out wins")
        if places and still_in < 2:
            raise UndecodableSnapshot(f"a round for places with {still_in} still in")
        return replace(table, round_finish=str(finish), places=places)
    if finish is not None:
        raise UndecodableSnapshot(f"a finish {finish!r} with no round in play")
    # With one player left the round is over, with that player last: never one unplaced.
    if places and (phase is Phase.SEATING or still_in == 1):
        raise UndecodableSnapshot(f"places {list(places)} no round leaves")
    return replace(table, places=places)


def _delivery(value: Any, seats: range) -> Delivery:
    seat, cards, reason = value
    if reason not in REASONS or not 1 <= _count(cards) <= MAX_OWED:
        raise UndecodableSnapshot(f"{value!r} is not a delivery")
    return Delivery(None if seat is None else _seat(seat, seats), cards, reason)
