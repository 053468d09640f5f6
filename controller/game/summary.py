"""Round statistics per seat, the round end, and the summary screens that follow it.

The screens advance on their own every PAGE_TIME seconds and start over; a seated player's
press jumps to their own screens.
"""

from __future__ import annotations

import random

from .effects import Announce, Effect, Sound
from .frozen import replace
from .state import Lines, Phase, SeatStats, Summary, Table
from .text import row

PAGE_TIME = 3.0
ENDED = ("Round ended", "no winner")  # from the menu: the summary of the round it ends
PAGES_PER_SEAT = 2


def fresh_stats(table: Table) -> Table:
    return replace(table, stats={seat: SeatStats() for seat in sorted(table.seated)})


def record_turn(table: Table, seat: int, seconds: float, *, timeout: bool = False) -> Table:
    stats = _of(table, seat)
    stats = replace(
        stats,
        turns=stats.turns + 1,
        timeouts=stats.timeouts + timeout,
        turn_time=stats.turn_time + max(seconds, 0.0),
    )
    return replace(table, stats={**table.stats, seat: stats})


def record_slap_lost(table: Table, seats: frozenset[int]) -> Table:
    changed = {s: replace(_of(table, s), slaps_lost=_of(table, s).slaps_lost + 1) for s in seats}
    return replace(table, stats={**table.stats, **changed})


def record_launcher_cards(table: Table, seat: int, cards: int) -> Table:
    """Cards the launcher's beam counted out to `seat` (for the launcher's exact draws)."""
    stats = _of(table, seat)
    stats = replace(stats, launcher_cards=stats.launcher_cards + cards)
    return replace(table, stats={**table.stats, seat: stats})


def _of(table: Table, seat: int) -> SeatStats:
    return table.stats.get(seat, SeatStats())


def round_over(table: Table, winner: int | None, at: float, effects: list[Effect]) -> Table:
    """The round ends: won (its winner held their button), or ended from the menu (None)."""
    seats = [_report(seat, _of(table, seat)) for seat in sorted(table.seated)]
    effects += [
        Sound("fanfare") if winner is not None else Sound("round_ended"),
        Announce("round_over", {"winner": winner, "seats": seats}),
    ]
    return replace(
        table,
        phase=Phase.ROUND_OVER,
        turn=None,
        notice=None,
        race=None,
        holds={},
        paused_left=None,
        paused_at=None,
        menu_paused=False,
        round_mode=None,
        summary=Summary(winner, 0, at),
    )


def _report(seat: int, stats: SeatStats) -> dict[str, object]:
    average = stats.average
    return {
        "seat": seat,
        "turns": stats.turns,
        "timeouts": stats.timeouts,
        "slaps_lost": stats.slaps_lost,
        "launcher_cards": stats.launcher_cards,
        "average_turn": None if average is None else round(average, 3),
    }


# -- the screens -------------------------------------------------------------------------


def pages(table: Table) -> tuple[Lines, ...]:
    """The title, two screens per seat, and how to go on."""
    assert table.summary is not None
    winner = table.summary.winner
    title = ("Round over!", f"Seat {winner} wins!") if winner is not None else ENDED
    per_seat = [
        screen for seat in sorted(table.seated) for screen in _seat_pages(seat, _of(table, seat))
    ]
    return (title, *per_seat, ("Play/Pause:", "new round"))


def _seat_pages(seat: int, stats: SeatStats) -> tuple[Lines, Lines]:
    # "late": turns that timed out; "slaps": slap races lost; "cards": from the launcher.
    average = stats.average
    turns = f"{stats.turns} turn" + ("" if stats.turns == 1 else "s")
    return (
        (
            row(f"Seat {seat}", turns),
            row("avg turn", "-" if average is None else f"{average:.1f}s"),
        ),
        (
            row(f"Seat {seat}", f"late {stats.timeouts}"),
            row(f"slaps {stats.slaps_lost}", f"cards {stats.launcher_cards}"),
        ),
    )


def shown_seat(table: Table) -> int | None:
    """The seat whose screen is up, if any."""
    if table.summary is None:
        return None
    index = table.summary.page - 1
    seats = sorted(table.seated)
    if 0 <= index < len(seats) * PAGES_PER_SEAT:
        return seats[index // PAGES_PER_SEAT]
    return None


def show_seat(table: Table, seat: int, at: float) -> Table:
    assert table.summary is not None
    page = 1 + sorted(table.seated).index(seat) * PAGES_PER_SEAT
    return replace(table, summary=replace(table.summary, page=page, since=at))


def due(table: Table) -> float | None:
    if table.phase is Phase.ROUND_OVER and table.summary is not None and not table.asleep:
        return table.summary.since + PAGE_TIME
    return None


def fire(table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]) -> Table:
    assert table.summary is not None
    # Jump over every page that was due by `now` at once: a late wake-up never replays them.
    steps = max(1, int((now - table.summary.since) // PAGE_TIME))
    count = len(pages(table))
    summary = replace(
        table.summary,
        page=(table.summary.page + steps) % count,
        since=table.summary.since + steps * PAGE_TIME,
    )
    return replace(table, summary=summary)


def awake_again(table: Table, at: float) -> Table:
    """The screens go on from the wake-up, not from before the sleep."""
    if table.summary is None:
        return table
    return replace(table, summary=replace(table.summary, since=at))
