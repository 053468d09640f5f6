"""Round statistics per seat, the round end, and the summary screens that follow it.

The screens advance on their own every PAGE_TIME seconds and start over; a seated player's
press jumps to their own screens.
"""

from __future__ import annotations

import random

from ..catalogs import N_, decimal
from . import score, standings
from .effects import Announce, Effect, Sound
from .frozen import replace
from .seat_names import lcd_name, lcd_row
from .state import Lines, Phase, SeatStats, SlapTimes, Summary, Table, up
from .text import COLUMNS, lcd_words, ordinal, row

PAGE_TIME = 3.0
ENDED = (N_("Round ended"), N_("no winner"))  # from the menu: the summary of the round it ends


def fresh_stats(table: Table) -> Table:
    return replace(table, stats={seat: SeatStats() for seat in sorted(table.seated)})


def record_turn(table: Table, seat: int, seconds: float, *, timeout: bool = False) -> Table:
    stats = _of(table, seat)
    stats = replace(
        stats,
        turns=up(stats.turns),
        timeouts=up(stats.timeouts, timeout),
        turn_time=stats.turn_time + max(seconds, 0.0),
    )
    return replace(table, stats={**table.stats, seat: stats})


def record_slap_lost(table: Table, seats: frozenset[int]) -> Table:
    changed = {s: replace(_of(table, s), slaps_lost=up(_of(table, s).slaps_lost)) for s in seats}
    return replace(table, stats={**table.stats, **changed})


def record_slap_press(table: Table, seat: int, ms: int) -> Table:
    """A racer's reaction time in a slap race, in milliseconds."""
    stats = _of(table, seat)
    slap = stats.slap.add(SlapTimes(1, ms, ms))
    # Past MAX_COUNT the press is not counted: the presses and their total go together.
    stats = replace(stats, slap=slap if slap.kept else stats.slap)
    return replace(table, stats={**table.stats, seat: stats})


def record_launcher_cards(table: Table, seat: int, cards: int) -> Table:
    """Cards the launcher's beam counted out to `seat` (for the launcher's exact draws)."""
    stats = _of(table, seat)
    stats = replace(stats, launcher_cards=up(stats.launcher_cards, cards))
    return replace(table, stats={**table.stats, seat: stats})


def _of(table: Table, seat: int) -> SeatStats:
    return table.stats.get(seat, SeatStats())


def round_over(table: Table, winner: int | None, at: float, effects: list[Effect]) -> Table:
    """The round ends: won (its winner held their button, or the last place was taken), or
    ended from the menu (None; in a round for places, whoever went out first has won)."""
    ended = winner is None
    if ended and table.places:
        winner = table.places[0]
    if winner is not None:
        table = score.round_won(table, winner)
    names = table.names
    seats = [_report(seat, names.get(seat, ""), _of(table, seat)) for seat in sorted(table.seated)]
    standings_now = standings.fold(table, winner)
    effects += [
        Sound("round_ended") if ended else Sound("fanfare"),
        Announce(
            "round_over",
            {
                "winner": winner,
                "places": list(table.places),
                "seats": seats,
                "standings": standings.report(standings_now, table.names),
            },
        ),
    ]
    table = replace(table, standings=standings_now, summary=Summary(winner, 0, at))
    return out_of_play(table, Phase.ROUND_OVER)


def out_of_play(table: Table, phase: Phase) -> Table:
    """The table in `phase`, with no round in play: everything a round's play holds (its turn,
    a notice, a race, holds, a pause, the mode and finish it began with) is cleared here, and
    only here, when a round ends or the table goes back to seating. A round starts from this."""
    return replace(
        table,
        phase=phase,
        turn=None,
        notice=None,
        race=None,
        holds={},
        paused_left=None,
        paused_at=None,
        menu_paused=False,
        round_mode=None,
        round_finish=None,
    )


def _report(seat: int, name: str, stats: SeatStats) -> dict[str, object]:
    average = stats.average
    return {
        "seat": seat,
        "name": name,
        "turns": stats.turns,
        "timeouts": stats.timeouts,
        "slaps_lost": stats.slaps_lost,
        "slap_best_ms": stats.slap.best_ms,
        "slap_average_ms": stats.slap.average_ms,
        "launcher_cards": stats.launcher_cards,
        "average_turn": None if average is None else round(average, 3),
    }


# -- the screens -------------------------------------------------------------------------


def ended_early(table: Table) -> bool:
    """Whether the round shown was ended from the menu rather than played to its end."""
    assert table.summary is not None
    if table.places:
        return len(table.places) < len(table.seated)
    return table.summary.winner is None


def pages(table: Table) -> tuple[Lines, ...]:
    """The title, the places (finish = places), three screens per seat, the evening's
    standings, and how to go on."""
    return tuple(lines for lines, _ in _screens(table))


def _screens(table: Table) -> list[tuple[Lines, int | None]]:
    """Each screen, with the seat it is about (its light comes on while it shows)."""
    assert table.summary is not None
    winner, t = table.summary.winner, lcd_words(table.settings)
    first = t.gettext("Round ended") if ended_early(table) else t.gettext("Round over!")
    if winner is not None:
        title = (first, lcd_row(table, winner, t.gettext("wins!")))
    else:
        title = (t.gettext(ENDED[0]), t.gettext(ENDED[1]))
    screens: list[tuple[Lines, int | None]] = [(title, None)]
    screens += [(lines, None) for lines in _place_pages(table)]
    for seat in sorted(table.seated):
        screens += [(lines, seat) for lines in _seat_pages(table, seat, winner)]
    screens += [(lines, None) for lines in standings.pages(table)]
    screens.append(((t.gettext("Play/Pause:"), t.gettext("new round")), None))
    return screens


def _place_pages(table: Table) -> list[Lines]:
    t = lcd_words(table.settings)
    lines = [
        row(ordinal(t, place), lcd_name(table, seat, COLUMNS - 5))
        for place, seat in enumerate(table.places, 1)
    ]
    if len(lines) % 2:
        lines.append("")
    return [(lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]


def _seat_pages(table: Table, seat: int, winner: int | None) -> tuple[Lines, Lines, Lines]:
    # "late": turns that timed out; "slaps": slap races lost; "cards": from the launcher;
    # "SLAP 212ms/388ms": the best and the average reaction in the round's slap races.
    stats, t = _of(table, seat), lcd_words(table.settings)
    average = stats.average
    turns = t.ngettext("{count} turn", "{count} turns", stats.turns).format(count=stats.turns)
    if seat in table.places:
        place = ordinal(t, table.places.index(seat) + 1)
        rank = t.gettext("{ordinal} place").format(ordinal=place)
    else:
        rank = t.gettext("winner") if seat == winner else ""
    slaps = t.gettext("slaps {count}").format(count=stats.slaps_lost)
    return (
        (
            lcd_row(table, seat, right=turns),
            row(t.gettext("avg turn"), "-" if average is None else decimal(t, f"{average:.1f}s")),
        ),
        (
            lcd_row(table, seat, right=t.gettext("late {count}").format(count=stats.timeouts)),
            row(slaps, t.gettext("cards {count}").format(count=stats.launcher_cards)),
        ),
        (lcd_row(table, seat, right=rank), standings.slap_line(t, stats.slap)),
    )


def shown_seat(table: Table) -> int | None:
    """The seat whose screen is up, if any."""
    if table.summary is None:
        return None
    screens = _screens(table)
    page = table.summary.page
    return screens[page][1] if 0 <= page < len(screens) else None


def show_seat(table: Table, seat: int, at: float) -> Table:
    assert table.summary is not None
    page = next(n for n, (_, about) in enumerate(_screens(table)) if about == seat)
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
