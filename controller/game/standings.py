"""The evening's standings: every round with a winner since the table last woke from sleep (or
since Reset standings), per seat: rounds, wins, average place, SLAP reaction times, timeouts.

A round counts once it has a winner: won, or ended from the menu after someone went out
first. A round ended before anyone went out counts for nobody. Places count only in rounds
for places; wins in every round. The seating screen pages through them between rounds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from ..catalogs import Words, decimal
from . import score
from .effects import Announce, Effect
from .frozen import replace
from .seat_names import lcd_row
from .state import (
    MAX_COUNT,
    Lines,
    Phase,
    Score,
    SeatStanding,
    SeatStats,
    SlapTimes,
    Standings,
    Table,
)
from .text import lcd_words, row

PAGE_TIME = 3.0  # each standings page on the seating screen


def fold(table: Table, winner: int | None) -> Standings:
    """The standings with the round that has just ended added (its stats, its places); as
    they were when one of their counts would pass MAX_COUNT: a round is counted whole or
    not at all, so the standings always add up."""
    standings = table.standings
    if winner is None:
        return standings
    seats = dict(standings.seats)
    for seat in sorted(table.seated):
        stats = table.stats.get(seat, SeatStats())
        before = seats.get(seat, SeatStanding())
        place = table.places.index(seat) + 1 if seat in table.places else None
        seats[seat] = SeatStanding(
            rounds=before.rounds + 1,
            wins=before.wins + (seat == winner),
            placed=before.placed + (place is not None),
            place_total=before.place_total + (place or 0),
            timeouts=before.timeouts + stats.timeouts,
            slap=before.slap.add(stats.slap),
        )
    folded = Standings(rounds=standings.rounds + 1, seats=seats)
    return folded if _kept(folded) else standings


def _kept(standings: Standings) -> bool:
    """Whether a table keeps these: no count past MAX_COUNT."""
    counts = [standings.rounds]
    for s in standings.seats.values():
        counts += [s.rounds, s.wins, s.placed, s.place_total, s.timeouts]
    return max(counts) <= MAX_COUNT and all(s.slap.kept for s in standings.seats.values())


def reset(table: Table, reason: str, at: float, effects: list[Effect]) -> Table:
    """Standings back to none: "menu" (Reset standings, always said; the score to
    target_score too), "sleep" (said when there were any; the score outlasts a sleep: a
    family's game goes on after dinner)."""
    if reason == "sleep" and not table.standings.rounds:
        return table
    effects.append(Announce("standings_reset", {"reason": reason}))
    kept = Score() if reason == "menu" else table.score
    table = replace(table, standings=Standings(), score=kept, idle_page=0, idle_since=at)
    if table.summary is not None:
        # The round's summary shows the standings too: it starts over without them.
        table = replace(table, summary=replace(table.summary, page=0, since=at))
    return table


def report(standings: Standings, names: Mapping[int, str]) -> dict[str, object]:
    """The standings as JSON values: the `standings` topic, and the `round_over` event."""
    return {
        "rounds": standings.rounds,
        "seats": [
            _seat_report(seat, names.get(seat, ""), kept)
            for seat, kept in sorted(standings.seats.items())
        ],
    }


def _seat_report(seat: int, name: str, standing: SeatStanding) -> dict[str, object]:
    average = standing.average_place
    return {
        "seat": seat,
        "name": name,
        "rounds": standing.rounds,
        "wins": standing.wins,
        "average_place": None if average is None else round(average, 2),
        "timeouts": standing.timeouts,
        "slap_best_ms": standing.slap.best_ms,
        "slap_average_ms": standing.slap.average_ms,
    }


# -- the screens -------------------------------------------------------------------------


def pages(table: Table) -> tuple[Lines, ...]:
    """The score to target_score (game/score.py), then the evening's standings: a title,
    then two screens per seat: rounds, wins and average place; timeouts ("late", as in the
    round's summary) and SLAP reaction times, best/average. None without either."""
    standings = table.standings
    if not standings.rounds:
        return score.pages(table)
    t = lcd_words(table.settings)

    def rounds(count: int) -> str:
        return t.ngettext("{count} round", "{count} rounds", count).format(count=count)

    screens: list[Lines] = [
        *score.pages(table),
        (t.gettext("Standings after"), rounds(standings.rounds)),
    ]
    for seat, standing in sorted(standings.seats.items()):
        average = standing.average_place
        place = "-" if average is None else decimal(t, f"{average:.1f}")
        wins = t.gettext("wins {count}").format(count=standing.wins)
        late = t.gettext("late {count}").format(count=standing.timeouts)
        screens += [
            (
                lcd_row(table, seat, right=rounds(standing.rounds)),
                row(wins, t.gettext("place {place}").format(place=place)),
            ),
            (lcd_row(table, seat, right=late), slap_line(t, standing.slap)),
        ]
    return tuple(screens)


def slap_line(t: Words, times: SlapTimes) -> str:
    """ "SLAP 312ms/450ms": the best and the average reaction, or "-" without a press; each
    whole, whatever the race window allowed ("SLAP 1.10s/1.50s", "SLAP 1,10s/1,50s" in
    German)."""
    if times.best_ms is None or times.average_ms is None:
        return row("SLAP", "-")
    best, average = (decimal(t, reaction(ms)) for ms in (times.best_ms, times.average_ms))
    return row("SLAP", f"{best}/{average}")


def reaction(ms: int) -> str:
    """A reaction time in at most 5 characters up to the longest race window (10 s): "312ms",
    "1.10s" (never rounded up: a time shown is one that was reached), "10.0s"."""
    if ms < 1000:
        return f"{ms}ms"
    if ms < 10000:
        return f"{ms // 10 / 100:.2f}s"
    return f"{ms // 100 / 10:.1f}s"


# -- the seating screen pages through them -------------------------------------------------


def idle_pages(table: Table) -> int:
    """How many screens the seating screen shows in turn: itself, then the standings'."""
    return 1 + len(pages(table))


def idle_from(table: Table, at: float) -> Table:
    """Back to the seating screen itself (someone joined or left: they see it)."""
    return replace(table, idle_page=0, idle_since=at)


def paging(table: Table) -> bool:
    """Whether the seating screen pages through the standings now."""
    if table.phase is not Phase.SEATING or table.asleep:
        return False
    if not (table.standings.rounds or score.shown(table)):
        return False
    # In Extreme the launcher plays from this screen: what a hit did stays in sight.
    return not (table.mode == "extreme" and table.has_launcher)


def idle_due(table: Table) -> float | None:
    return table.idle_since + PAGE_TIME if paging(table) else None


def idle_fire(
    table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]
) -> Table:
    # Every page due by `now` at once: a late wakeup never replays them.
    steps = max(1, int((now - table.idle_since) // PAGE_TIME))
    return replace(
        table,
        idle_page=(table.idle_page + steps) % idle_pages(table),
        idle_since=table.idle_since + steps * PAGE_TIME,
    )
