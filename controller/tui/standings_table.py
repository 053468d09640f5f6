"""The evening's standings as a text table, and the places of the round in play: for the
view's `s` screen and the headless player's `standings` (no Textual here: the headless
player runs without it)."""

from __future__ import annotations

from controller.game import Table, score
from controller.game.seat_names import name_of
from controller.game.text import ordinal

HEADINGS = ("seat", "rounds", "wins", "avg place", "late", "SLAP best", "SLAP avg")
SEAT_CELL = 15  # "3 " and a name of 12 characters


def standings_lines(table: Table) -> list[str]:
    """The score to target_score, then the standings, as plain text rows (also what the
    headless player prints)."""
    lines = score_lines(table)
    standings = table.standings
    if not standings.rounds:
        return [*lines, "No round counted yet: the standings start with the first one won."]
    plural = "" if standings.rounds == 1 else "s"
    lines += [f"Standings after {standings.rounds} round{plural}:", row(HEADINGS)]
    for seat, standing in sorted(standings.seats.items()):
        average = standing.average_place
        cells = (
            f"{seat} {table.names.get(seat, '')}".strip(),
            str(standing.rounds),
            str(standing.wins),
            "-" if average is None else f"{average:.2f}",
            str(standing.timeouts),
            _ms(standing.slap.best_ms),
            _ms(standing.slap.average_ms),
        )
        lines.append(row(cells))
    return lines


def score_lines(table: Table) -> list[str]:
    """ "Game to 500: Anna 312, Seat 3 95" (the leader first), who won it, and the points
    still to enter; none with the score off or before a game has begun."""
    if not score.shown(table):
        return []
    kept = table.score
    totals = ", ".join(f"{name_of(table, s)} {total}" for s, total in score.ranked(table))
    lines = [f"Game to {score.target(table)}: {totals}"]
    if kept.won is not None:
        lines.append(f"{name_of(table, kept.won)} wins the game!")
    elif kept.open is not None:
        waiting = sorted(kept.open.seats - {kept.open.winner} - set(kept.open.points))
        if waiting:
            who = ", ".join(name_of(table, s) for s in waiting)
            lines.append(f"Card points to enter for {who}")
    return lines


def places_line(table: Table) -> str | None:
    """ "Places: 1st Anna, 2nd seat 1" while places are taken, else None."""
    if not table.places:
        return None
    taken = ", ".join(
        f"{ordinal(n)} {table.names.get(s) or f'seat {s}'}" for n, s in enumerate(table.places, 1)
    )
    return f"Places: {taken}"


def row(cells: tuple[str, ...]) -> str:
    """One row of the table, the seat and its name flush left, each figure flush right
    under its heading."""
    widths = [max(len(h), 4) for h in HEADINGS]
    first, *figures = cells
    return "  ".join(
        [first.ljust(SEAT_CELL), *(c.rjust(w) for c, w in zip(figures, widths[1:], strict=True))]
    )


def _ms(value: int | None) -> str:
    return "-" if value is None else f"{value} ms"
