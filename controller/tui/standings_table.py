"""The evening's standings as a text table, and the places of the round in play: for the
view's `s` screen and the headless player's `standings` (no Textual here: the headless
player runs without it)."""

from __future__ import annotations

from controller.catalogs import N_, Words, decimal, translation
from controller.catalogs import cells as width
from controller.game import Table, score
from controller.game.seat_names import name_of
from controller.game.text import ordinal

# The columns, marked for the catalogs: the view shows them in the table's language, the
# headless player in English.
HEADINGS = (
    N_("seat"),
    N_("rounds"),
    N_("wins"),
    N_("avg place"),
    N_("late"),
    N_("SLAP best"),
    N_("SLAP avg"),
)
SEAT_CELL = 15  # "3 " and a name of 12 characters


def standings_lines(table: Table, words: Words | None = None) -> list[str]:
    """The score to target_score, then the standings, as plain text rows (also what the
    headless player prints), in the language of `words` (English without)."""
    t = words or translation("en")
    lines = score_lines(table, t)
    standings = table.standings
    if not standings.rounds:
        return [
            *lines,
            t.gettext("No round counted yet: the standings start with the first one won."),
        ]
    after = t.ngettext(
        "Standings after {count} round:", "Standings after {count} rounds:", standings.rounds
    )
    lines += [after.format(count=standings.rounds), row(t, tuple(map(t.gettext, HEADINGS)))]
    for seat, standing in sorted(standings.seats.items()):
        average = standing.average_place
        cells = (
            f"{seat} {table.names.get(seat, '')}".strip(),
            str(standing.rounds),
            str(standing.wins),
            "-" if average is None else decimal(t, f"{average:.2f}"),
            str(standing.timeouts),
            _ms(standing.slap.best_ms),
            _ms(standing.slap.average_ms),
        )
        lines.append(row(t, cells))
    return lines


def score_lines(table: Table, t: Words) -> list[str]:
    """ "Game to 500: Anna 312, Seat 3 95" (the leader first), who won it, and the points
    still to enter; none with the score off or before a game has begun."""
    if not score.shown(table):
        return []
    kept = table.score
    totals = ", ".join(f"{name_of(table, s, t)} {total}" for s, total in score.ranked(table))
    lines = [
        t.gettext("Game to {points}: {totals}").format(points=score.target(table), totals=totals)
    ]
    if kept.won is not None:
        lines.append(t.gettext("{name} wins the game!").format(name=name_of(table, kept.won, t)))
    elif kept.open is not None:
        waiting = sorted(kept.open.seats - {kept.open.winner} - set(kept.open.points))
        if waiting:
            who = ", ".join(name_of(table, s, t) for s in waiting)
            lines.append(t.gettext("Card points to enter for {names}").format(names=who))
    return lines


def places_line(table: Table, words: Words | None = None) -> str | None:
    """ "Places: 1st Anna, 2nd Seat 1" while places are taken, else None."""
    if not table.places:
        return None
    t = words or translation("en")
    taken = ", ".join(
        f"{ordinal(t, n)} {name_of(table, s, t)}" for n, s in enumerate(table.places, 1)
    )
    return t.gettext("Places: {places}").format(places=taken)


def row(t: Words, cells: tuple[str, ...]) -> str:
    """One row of the table, the seat and its name flush left, each figure flush right
    under its heading (by the columns a terminal gives each character)."""
    widths = [max(width(t.gettext(h)), 4) for h in HEADINGS]
    first, *figures = cells
    return "  ".join(
        [
            first + " " * (SEAT_CELL - width(first)),
            *(" " * (w - width(c)) + c for c, w in zip(figures, widths[1:], strict=True)),
        ]
    )


def _ms(value: int | None) -> str:
    return "-" if value is None else f"{value} ms"
