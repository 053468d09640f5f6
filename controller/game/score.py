"""The official score to `target_score` (UNO's "first to 500"): after a round is won, the
card points left in each other player's hand are entered, once per seat (an entry again
corrects it) until the next round starts; the winner's total grows by their sum. A total at
the target wins the game (`game_won`, a fanfare, the LCD says it), and the next round starts
a new one.

A round is open for points from the moment its winner is known: when it is won, or with
finish = places when its first place is taken (the others may note their hands and play
on). With `target_score` 0 no round opens. The totals outlast sleep and restarts; a new
game or Reset standings clears them.
"""

from __future__ import annotations

from .effects import Announce, Effect, Sound
from .frozen import replace
from .seat_names import lcd_name, lcd_row, name_of
from .state import Lines, Message, RoundPoints, Score, Table
from .text import lcd_words, row

MAX_POINTS = 999  # one hand's card points, as entered for one seat
WON_SHOWN = 5.0  # seconds the LCD says who won the game, over whatever it shows


def target(table: Table) -> int:
    return int(table.settings.target_score)


def shown(table: Table) -> bool:
    """Whether there is a score to show: it is on, and a game has begun."""
    return bool(target(table) and (table.score.totals or table.score.open))


def round_won(table: Table, winner: int) -> Table:
    """The round's winner is known: its points may be entered (with the score on)."""
    score = table.score
    if not target(table) or (score.open is not None and score.open.winner == winner):
        return table
    return replace(table, score=replace(score, open=RoundPoints(winner, table.seated)))


def places_moved(table: Table) -> Table:
    """A player out with a place was brought back: the round's first place, if any, is the
    one who scores (the points entered for another winner no longer count)."""
    score = table.score
    if score.open is None or (table.places and table.places[0] == score.open.winner):
        return table
    table = replace(table, score=replace(score, open=None, won=None))
    return round_won(table, table.places[0]) if table.places else table


def why_not(table: Table, seat: int) -> str | None:
    """Why points cannot be entered for `seat` now, or None."""
    opened = table.score.open
    if not target(table):
        return "the score is off (target_score 0)"
    if opened is None:
        return "no round is waiting for its points"
    if seat == opened.winner:
        return f"{name_of(table, seat)} won the round: enter the others' points"
    if seat not in opened.seats:
        return f"seat {seat} did not play the round"
    return None


def hands(table: Table) -> tuple[tuple[int, int | None], ...]:
    """The hands whose points may be entered now, in seat order: (seat, the points entered
    for it so far, None before the first)."""
    opened = table.score.open
    if opened is None or not target(table):
        return ()
    return tuple((s, opened.points.get(s)) for s in sorted(opened.seats - {opened.winner}))


def enter(table: Table, seat: int, points: int, at: float, effects: list[Effect]) -> Table:
    """`points` left in `seat`'s hand at the end of the open round (refused: unchanged)."""
    table = replace(table, last_input=max(at, table.last_input or at))
    opened = table.score.open
    if why_not(table, seat) is not None or opened is None:
        return table
    before = table.score.won
    opened = replace(opened, points={**opened.points, seat: points})
    winner = opened.winner
    total = table.score.totals.get(winner, 0) + opened.sum
    reached = total >= target(table)
    won = winner if reached else None
    table = replace(table, score=replace(table.score, open=opened, won=won))
    effects.append(
        Announce(
            "points_entered",
            {
                "seat": seat,
                "points": points,
                "winner": winner,
                "round_points": opened.sum,
                "total": total,
                "game_won": won,
            },
        )
    )
    if won is None or won == before:  # a correction of a game won stays won, unsaid
        effects.append(Sound("points"))
        return table
    effects += [
        Sound("game_won"),
        Announce(
            "game_won",
            {
                "seat": winner,
                "name": table.names.get(winner, ""),
                "total": total,
                "target": target(table),
                "totals": totals_report(table),
            },
        ),
    ]
    lines = _won(table, winner, total)
    return replace(table, message=Message(lines, at + WON_SHOWN))


def next_round(table: Table, effects: list[Effect]) -> Table:
    """A round starts: the last round's points are in the totals for good; after a game
    won, a new game starts from nothing."""
    score = table.score
    if score.won is not None:
        effects.append(Announce("new_game", {"target": target(table)}))
        return replace(table, score=Score())
    if score.open is None:
        return table
    totals = dict(score.totals)
    for seat in score.open.seats:
        totals[seat] = totals.get(seat, 0) + (score.open.sum if seat == score.open.winner else 0)
    return replace(table, score=Score(totals=totals))


def totals(table: Table) -> dict[int, int]:
    """Each seat's total now, the round being scored counted in, by seat."""
    score = table.score
    current = dict(score.totals)
    if score.open is not None:
        for seat in score.open.seats:
            current.setdefault(seat, 0)
        current[score.open.winner] += score.open.sum
    return current


def ranked(table: Table) -> list[tuple[int, int]]:
    """(seat, total), the leader first (a tie in seat order)."""
    return sorted(totals(table).items(), key=lambda item: (-item[1], item[0]))


def totals_report(table: Table) -> list[dict[str, object]]:
    return [
        {"seat": seat, "name": table.names.get(seat, ""), "total": total}
        for seat, total in sorted(totals(table).items())
    ]


def report(table: Table) -> dict[str, object]:
    """The score as JSON values, for the `standings` topic (docs/mqtt.md)."""
    opened = table.score.open
    return {
        "target": target(table),
        "totals": totals_report(table),
        "round": None
        if opened is None
        else {
            "winner": opened.winner,
            "points": [{"seat": s, "points": p} for s, p in sorted(opened.points.items())],
            "waiting": sorted(opened.seats - {opened.winner} - set(opened.points)),
        },
        "won": table.score.won,
    }


# -- the screens -------------------------------------------------------------------------


def _won(table: Table, winner: int, total: int) -> Lines:
    t = lcd_words(table.settings)
    return (lcd_row(table, winner, t.gettext("wins")), row(t.gettext("the game!"), str(total)))


def pages(table: Table) -> tuple[Lines, ...]:
    """The score on the LCD: who won the game, or the points still to enter, then the
    totals two to a screen, the leader first. None with the score off or not begun."""
    shown = ranked(table)
    if not target(table) or not shown:
        return ()
    score, screens, t = table.score, [], lcd_words(table.settings)
    if score.won is not None:
        screens.append(_won(table, score.won, totals(table)[score.won]))
    elif score.open is not None:
        waiting = len(score.open.seats) - 1 - len(score.open.points)
        left = t.gettext("{count} to enter").format(count=waiting)
        left = left if waiting else t.gettext("all entered")
        screens.append((row(t.gettext("Card points"), str(score.open.sum)), left))
    else:
        game_to = t.gettext("Game to {points}").format(points=target(table))
        screens.append((game_to, t.gettext("totals:")))
    lines = [row(lcd_name(table, seat, 11), str(total)) for seat, total in shown]
    if len(lines) % 2:
        lines.append("")
    screens += [(lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]
    return tuple(screens)
