"""What a remote is told of the table, as JSON objects: the state a scoreboard shows, a game
event, the settings, the evening's standings. MQTT publishes them on its topics
(docs/mqtt.md); the web page's stream carries the same objects.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..game import Phase, Table, score, standings
from ..game.seat_names import name_of
from ..settings import Settings

if TYPE_CHECKING:
    from ..shell.publish import GameEvent


def launcher_state(table: Table) -> str:
    """ "none" (no launcher wired), "idle", "dispensing", "jam" or "empty"."""
    launcher = table.launcher
    if not table.has_launcher:
        return "none"
    if launcher.fault is not None:
        return launcher.fault
    return "dispensing" if launcher.owed or launcher.chimes else "idle"


def state_snapshot(
    table: Table,
    *,
    dropped_events: int = 0,
    refused_messages: int = 0,
    last_outage: str | None = None,
) -> dict[str, object]:
    """The retained `state`: what a scoreboard shows, and what the link went through.
    Seconds left are what the LCD shows (None with no timer, or while a surprise limit is
    still hidden)."""
    turn = table.turn
    seat = turn.seat if turn is not None and table.phase is not Phase.SEATING else None
    left: int | None = None
    if turn is not None and not turn.hidden:
        if table.phase is Phase.PAUSED and table.paused_left is not None:
            left = math.ceil(table.paused_left)
        elif table.phase is Phase.TURN:
            left = turn.shown
    launcher = table.launcher
    return {
        "mode": table.mode,  # the round's own: a mode chosen during it waits for the next
        "finish": table.finish,  # the same
        "phase": table.phase.value,
        "seats": sorted(table.seated),
        # Out of the round with a place, first place first; after a round, its places.
        "places": [] if table.phase is Phase.SEATING else list(table.places),
        "seat": seat,
        "player": None if seat is None else name_of(table, seat),  # its name, or "Seat 3"
        "names": {str(s): name for s, name in sorted(table.names.items())},
        "seconds_left": left,
        "paused": table.phase is Phase.PAUSED,
        "asleep": table.asleep,
        "launcher": launcher_state(table),
        "owed": launcher.owed,
        "cards_dispensed": launcher.cards_out,
        "jams": launcher.jams,
        "dropped_events": dropped_events,
        "refused_messages": refused_messages,
        "last_outage": last_outage,
    }


def event_payload(event: GameEvent) -> dict[str, object]:
    """An `event` message: its number, its type, then the event's own fields."""
    return {"seq": event.seq, "type": event.type, **event.data}


def settings_payload(settings: Settings) -> dict[str, object]:
    return dict(settings)


def standings_payload(table: Table) -> dict[str, object]:
    """The retained `standings`: the evening's, as the `round_over` event carries them, and
    the score to target_score."""
    return {**standings.report(table.standings, table.names), "score": score.report(table)}
