"""Playing on for places (finish = places, the house rule "Weiterspielen").

A player who empties their hand holds their button for 2 s, as with finish = first, but the
round goes on: they take the next place, are never picked again, race no more, and their
light stays on steadily. When one player is left, they take the last place and the round is
over. A player who went out by mistake is brought back from the menu; the places after theirs
move up.
"""

from __future__ import annotations

import random

from ..catalogs import N_
from . import score, summary, turns
from .effects import Announce, Effect, Sound
from .frozen import replace
from .seat_names import lcd_row
from .state import ROUND_PHASES, Message, Phase, Table
from .text import lcd_words, ordinal

SHOWN_FOR = 2.0  # seconds a place, or a player back, is named on the LCD
# The first turn's first line: the round goes on after one out.
ROUND_BANNER = N_("Round for places")


def place_line(table: Table, seat: int, place: int) -> str:
    """ "Seat 3 2nd place", "Anna 2nd place": the LCD's first line when a place is taken."""
    t = lcd_words(table.settings)
    return lcd_row(table, seat, t.gettext("{ordinal} place").format(ordinal=ordinal(t, place)))


def out_now(table: Table) -> tuple[int, ...]:
    """The seats out of the round in play, first place first; () between rounds."""
    return table.places if table.phase in ROUND_PHASES else ()


def go_out(table: Table, seat: int, at: float, rng: random.Random, effects: list[Effect]) -> Table:
    """`seat` held their button for 2 s: they take the next place; with one player left, that
    player takes the last one and the round is over."""
    place = len(table.places) + 1
    table = replace(
        table,
        places=(*table.places, seat),
        holds={s: h for s, h in table.holds.items() if s != seat},
    )
    if place == 1:
        table = score.round_won(table, seat)  # its points may be entered from now on
    still_in = table.in_play
    effects.append(
        Announce("place_taken", {"seat": seat, "place": place, "still_in": sorted(still_in)})
    )
    if len(still_in) <= 1:
        for last in sorted(still_in):
            effects.append(
                Announce("place_taken", {"seat": last, "place": place + 1, "still_in": []})
            )
        table = replace(table, places=(*table.places, *sorted(still_in)))
        return summary.round_over(table, table.places[0], at, effects)
    effects.append(Sound("place"))  # the round goes on (its end has the fanfare instead)
    line = place_line(table, seat, place)
    turn = table.turn
    if table.phase is Phase.TURN and turn is not None:
        if turn.seat == seat:
            # Their hold outlasted their own turn (picked again, or a Jump-In with their last
            # card): the turn goes on to a player still in.
            table = turns.next_turn(table, at, rng, effects, sound=False)
            turn = table.turn
            assert turn is not None
        # The second line keeps showing whose turn it is and the time left.
        return replace(table, turn=turn.with_banner(line, at + SHOWN_FOR))
    t = lcd_words(table.settings)
    count = len(still_in)
    still = t.ngettext("{count} still in", "{count} still in", count).format(count=count)
    return replace(table, message=Message((line, still), at + SHOWN_FOR))


def bring_back(table: Table, seat: int, at: float, effects: list[Effect]) -> Table:
    """From the menu: a player who went out by mistake is in the round again."""
    if table.phase not in ROUND_PHASES or seat not in table.places:
        return table
    places = tuple(s for s in table.places if s != seat)
    effects += [Sound("join"), Announce("player_back", {"seat": seat, "places": list(places)})]
    t = lcd_words(table.settings)
    lines = (lcd_row(table, seat, t.gettext("is back")), t.gettext("in the round"))
    message = Message(lines, at + SHOWN_FOR)
    return score.places_moved(replace(table, places=places, message=message))
