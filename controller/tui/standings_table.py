"""The evening's standings as a text table, and the places of the round in play: for the
view's `s` screen and the headless player's `standings` (no Textual here: the headless
player runs without it)."""

from __future__ import annotations

from controller.game import Table
from controller.game.text import ordinal

HEADINGS = ("seat", "rounds", "wins", "avg place", "late", "SLAP best", "SLAP avg")


def standings_lines(table: Table) -> list[str]:
    """The standings as plain text rows (also what the headless player prints)."""
    standings = table.standings
    if not standings.rounds:
        return ["No round counted yet: the standings start with the first one won."]
    plural = "" if standings.rounds == 1 else "s"
    lines = [f"Standings after {standings.rounds} round{plural}:", row(HEADINGS)]
    for seat, standing in sorted(standings.seats.items()):
        average = standing.average_place
        cells = (
            str(seat),
            str(standing.rounds),
            str(standing.wins),
            "-" if average is None else f"{average:.2f}",
            str(standing.timeouts),
            _ms(standing.slap.best_ms),
            _ms(standing.slap.average_ms),
        )
        lines.append(row(cells))
    return lines


def places_line(table: Table) -> str | None:
    """ "Places: 1st seat 3, 2nd seat 1" while places are taken, else None."""
    if not table.places:
        return None
    taken = ", ".join(f"{ordinal(n)} seat {s}" for n, s in enumerate(table.places, start=1))
    return f"Places: {taken}"


def row(cells: tuple[str, ...]) -> str:
    """One row of the table, each cell flush right under its heading."""
    widths = [max(len(h), 4) for h in HEADINGS]
    return "  ".join(cell.rjust(width) for cell, width in zip(cells, widths, strict=True))


def _ms(value: int | None) -> str:
    return "-" if value is None else f"{value} ms"
