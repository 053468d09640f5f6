"""The SLAP race: every player still in the round but the slapper races to press their own
button.

Presses are only collected while the window is open and ranked when it closes, by their
edge times: the order in which the software happened to see them never matters.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..catalogs import N_
from . import launch, summary
from .effects import Announce, Effect, Sound
from .frozen import replace
from .seat_names import lcd_name
from .state import Lines, Message, Notice, Phase, SlapRace, Table
from .text import COLUMNS, lcd_words, penalty_text, seat_numbers

TIE = 0.001  # presses this close together are a tie, decided at random
PAGE_TIME = 2.0  # each result screen
EPSILON = 1e-9  # float slack so that exactly 1 ms still counts as a tie


@dataclass(frozen=True)
class Place:
    seat: int
    ms: int | None  # reaction time; None: never pressed
    tie: bool = False  # another press lies within TIE of this one: its place was drawn


def start(table: Table, at: float, effects: list[Effect]) -> Table:
    """The lit player pressed SLAP: their turn is over and the race is on."""
    assert table.turn is not None
    slapper = table.turn.seat
    # Players out with a place race no more.
    racers = table.in_play - {slapper}
    if not racers:
        return table  # nobody to race
    seconds = round(at - table.turn.started, 3)
    table = summary.record_turn(table, slapper, seconds)
    window = int(table.settings.slap_window)
    race = SlapRace(slapper, at, at + window, racers)
    effects += [
        Sound("slap"),
        Announce("slap_started", {"seat": slapper, "seconds": seconds, "racers": sorted(racers)}),
    ]
    return replace(table, phase=Phase.SLAP, race=race, turn=None, holds={})


# Why a press of SLAP starts no race, for launch.RESULT_TIME with the refusing tone: the race
# is the lit player's, who presses SLAP instead of their own button after a SLAP card. In the
# race itself a press says nothing: its screen already says what to do.
NO_RACE_IN_EXTREME = (N_("No SLAP race in"), N_("Extreme mode"))
NO_RACE: dict[Phase, Lines] = {
    Phase.SEATING: (N_("SLAP: in a round"), N_("on a SLAP card")),
    Phase.ROUND_OVER: (N_("SLAP: in a round"), N_("on a SLAP card")),
    Phase.NOTICE: (N_("SLAP: wait for"), N_("the next turn")),
    Phase.PAUSED: (N_("SLAP: paused,"), N_("press Play")),
}


def refuse(table: Table, at: float, effects: list[Effect]) -> Table:
    """A press of SLAP that starts no race: say why."""
    lines = NO_RACE_IN_EXTREME if table.mode == "extreme" else NO_RACE.get(table.phase)
    if lines is None or table.phase is Phase.SLAP:
        return table
    effects.append(Sound("refuse"))
    t = lcd_words(table.settings)
    said = (t.gettext(lines[0]), t.gettext(lines[1]))
    return replace(table, message=Message(said, at + launch.RESULT_TIME))


def press(table: Table, seat: int, at: float, effects: list[Effect]) -> Table:
    race = table.race
    assert race is not None
    # Before the SLAP edge it was not a race press; a second press changes nothing.
    if seat not in race.racers or seat in race.presses or not race.started <= at < race.closes:
        return table
    effects.append(Sound("slap_in"))
    return replace(table, race=replace(race, presses={**race.presses, seat: at}))


def due(table: Table) -> float | None:
    if table.phase is Phase.SLAP and table.race is not None:
        return table.race.closes
    return None


def fire(table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]) -> Table:
    """The window has closed: rank, name the slowest, hand out the penalty."""
    race = table.race
    assert race is not None
    places = rank(race, rng)
    losers = slowest(places)
    tie = len(losers) == 1 and places[-1].tie
    penalty = int(table.settings.slap_penalty)
    effects += [
        Sound("slap_over"),
        Announce(
            "slap_result",
            {
                "slapper": race.slapper,
                "order": [{"seat": p.seat, "ms": p.ms, "tie": p.tie} for p in places],
                "slowest": sorted(losers),
                "tie": tie,
                "penalty": penalty,
            },
        ),
    ]
    for seat in sorted(losers) if penalty else ():
        effects.append(Announce("penalty", {"seat": seat, "cards": penalty, "reason": "slap"}))
        table = launch.penalty(table, seat, penalty, "slap", effects)
    table = summary.record_slap_lost(table, losers)
    for place in places:
        if place.ms is not None:
            table = summary.record_slap_press(table, place.seat, place.ms)
    pages = (_verdict(table, losers, tie, penalty), *_order_pages(table, places))
    notice = Notice(pages, race.closes, PAGE_TIME, losers)
    return replace(table, phase=Phase.NOTICE, notice=notice, race=None)


def rank(race: SlapRace, rng: random.Random) -> list[Place]:
    """Fastest first by edge time; presses within TIE of each other in random order.

    A tie is a pair of presses, not a chain: 0.8 ms + 0.8 ms apart makes two ties, and the
    presses 1.6 ms apart keep their order. So each place is drawn at random among the
    presses still unplaced that lie within TIE of the earliest of them; any two presses more
    than TIE apart come out in edge order.
    """
    pending = sorted(race.presses.items(), key=lambda item: (item[1], item[0]))
    edges = [edge for _, edge in pending]
    places: list[Place] = []
    while pending:
        first = pending[0][1]
        candidates = [i for i, (_, edge) in enumerate(pending) if edge - first <= TIE + EPSILON]
        seat, edge = pending.pop(rng.choice(candidates) if len(candidates) > 1 else 0)
        tie = sum(abs(other - edge) <= TIE + EPSILON for other in edges) > 1
        places.append(Place(seat, round((edge - race.started) * 1000), tie))
    return places + [Place(s, None) for s in sorted(race.racers - race.presses.keys())]


def slowest(places: list[Place]) -> frozenset[int]:
    """Everyone who never pressed; if all pressed, the last."""
    missed = frozenset(p.seat for p in places if p.ms is None)
    return missed or frozenset(p.seat for p in places[-1:])


# -- the screens -------------------------------------------------------------------------


def _verdict(table: Table, losers: frozenset[int], tie: bool, penalty: int) -> Lines:
    t = lcd_words(table.settings)
    if len(losers) == 1:
        [seat] = losers
        # The name gets the room the words leave it: "Tie! Anna lost", "Slowest: Anna".
        said = t.gettext("Tie! {name} lost") if tie else t.gettext("Slowest: {name}")
        room = COLUMNS - len(said.format(name=""))
        return (said.format(name=lcd_name(table, seat, room)), penalty_text(t, penalty))
    head = t.gettext("Slowest: {name}").format(name="")
    seats = seat_numbers(losers, COLUMNS - len(head))
    return (head + seats, penalty_text(t, penalty, each=True))


def _order_pages(table: Table, places: list[Place]) -> list[Lines]:
    lines = [_place_line(table, n, place) for n, place in enumerate(places, start=1)]
    if len(lines) % 2:
        lines.append("")
    return [(lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]


def _place_line(table: Table, n: int, place: Place) -> str:
    # "=" marks a place drawn at random among a tie.
    missed = lcd_words(table.settings).gettext("missed")
    right = missed if place.ms is None else f"{place.ms}ms"
    room = COLUMNS - len(right) - len("1. ") - 1
    left = f"{n}{'=' if place.tie else '.'} {lcd_name(table, place.seat, room)}"
    return left + right.rjust(COLUMNS - len(left))
