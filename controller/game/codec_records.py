"""The snapshot's records of seats, both ways: a seat's statistics of the round, its standing
in the evening and its SLAP times as short JSON lists, and back, each value checked as
`codec.decode` checks all it reads (UndecodableSnapshot for anything no game gives).
"""

from __future__ import annotations

from typing import Any

from ..errors import UndecodableSnapshot
from ..settings import setting
from .kept_values import count as _count
from .kept_values import seat as _seat
from .kept_values import seconds as _seconds
from .state import SeatStanding, SeatStats, SlapTimes, Standings

# The slowest reaction a race can time: a press within the longest window.
MAX_SLAP_MS = 1000 * max(int(o) for o in setting("slap_window").options)


def to_ms(seconds: float) -> float:
    """Seconds to the millisecond, as the heartbeat writes them: a float's full repr can be
    longer (2.220446049250313e-16) than the reader takes a number to be (20 characters)."""
    return round(seconds, 3)


def stats_list(stats: SeatStats) -> list[float | None]:
    return [
        stats.turns,
        stats.timeouts,
        stats.slaps_lost,
        stats.launcher_cards,
        to_ms(stats.turn_time),
        *slap_list(stats.slap),
    ]


def standing_list(standing: SeatStanding) -> list[int | None]:
    return [
        standing.rounds,
        standing.wins,
        standing.placed,
        standing.place_total,
        standing.timeouts,
        *slap_list(standing.slap),
    ]


def slap_list(times: SlapTimes) -> list[int | None]:
    return [times.presses, times.total_ms, times.best_ms]


def seat_stats(value: Any) -> SeatStats:
    turns_, timeouts, slaps, cards, seconds, presses, total_ms, best_ms = value
    return SeatStats(
        turns=_count(turns_),
        timeouts=_count(timeouts),
        slaps_lost=_count(slaps),
        launcher_cards=_count(cards),
        turn_time=_seconds(seconds),
        slap=slap_times(presses, total_ms, best_ms),
    )


def slap_times(presses: object, total_ms: object, best_ms: object) -> SlapTimes:
    count, total = _count(presses), _count(total_ms)
    if not count:
        if total or best_ms is not None:
            raise UndecodableSnapshot("SLAP times without a press")
        return SlapTimes()
    best = _count(best_ms)
    # The best is no slower than the average, and no press is slower than a race lasts.
    if not best * count <= total <= count * MAX_SLAP_MS:
        raise UndecodableSnapshot(f"SLAP times {[count, total, best]!r} no race gives")
    return SlapTimes(count, total, best)


def standings_of(value: Any, seats: range) -> Standings:
    rounds = _count(value["rounds"])
    kept = {
        _seat(int(seat), seats): seat_standing(entry, rounds, len(seats))
        for seat, entry in value["seats"].items()
    }
    # Every round counted has one winner, a seat that sat in it.
    if sum(standing.wins for standing in kept.values()) != rounds:
        raise UndecodableSnapshot(f"standings of {rounds} rounds with another count of wins")
    return Standings(rounds, kept)


def seat_standing(value: Any, rounds: int, stations: int) -> SeatStanding:
    played, wins, placed, place_total, timeouts, presses, total_ms, best_ms = value
    standing = SeatStanding(
        rounds=_count(played),
        wins=_count(wins),
        placed=_count(placed),
        place_total=_count(place_total),
        timeouts=_count(timeouts),
        slap=slap_times(presses, total_ms, best_ms),
    )
    if not (
        1 <= standing.rounds <= rounds
        and standing.wins <= standing.rounds
        and standing.placed <= standing.rounds
        and standing.placed <= standing.place_total <= standing.placed * stations
    ):
        raise UndecodableSnapshot(f"standings {value!r} no evening gives")
    return standing
