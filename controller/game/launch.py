"""The card launcher in the game: hits, exact draws, the cards owed, jams and refills.

The cards owed are part of the table's state: a delivery is asked of the launcher once (a
`Dispense` effect), the beam's counts come back as `CardOut` events and pay it off card by
card, and a jam or an empty hopper keeps what is still owed until OK. A hit chimes first,
then fires what the launcher profile drew; the burst cap bounds what one player receives
from hits within CAP_WINDOW seconds (in Extreme mode the unit cannot tell players apart, so
the cap counts for the whole table).
"""

from __future__ import annotations

import random
from typing import Any

from ..catalogs import N_
from ..settings import Settings
from . import profiles, rest, summary
from .effects import Announce, Dispense, Effect, ResumeLauncher, Sound
from .frozen import replace
from .state import MAX_OWED, Chime, Delivery, Lines, Message, Phase, Table, up
from .text import lcd_words, row

CHIME_TIME = 0.6
CAP_WINDOW = 10.0
RESULT_TIME = 2.0  # how long a hit's result replaces the first line during a turn
# What the LCD says of a hit: cards fired, none ("miss" read as a fault), and while the chime
# sounds, that the launcher is thinking (not the last hit's result).
NO_CARDS = N_("Lucky: no cards")
CHIMING = N_("Launcher ...")
HIT_PHASES = frozenset({Phase.TURN, Phase.NOTICE, Phase.EXTREME})
QUEUE_LIMIT = 32  # deliveries owed before new ones join their seat's (at most 41 then)
FAULT_LINES = {"jam": N_("JAM: clear slot"), "empty": N_("Refill cards")}


def in_use(table: Table) -> bool:
    """Whether hits and exact penalties go to the launcher (Extreme and Table modes)."""
    return table.has_launcher and table.mode in ("extreme", "table")


def answers(table: Table) -> bool:
    """Whether a press of the launcher button is a hit now. Extreme mode tracks no turns,
    so there its launcher answers from the idle screen too, with nobody seated."""
    if not in_use(table):
        return False
    if table.phase is Phase.SEATING:
        return table.mode == "extreme"
    return table.phase in HIT_PHASES


# Why a press of the launcher button is no hit, with the refusing tone, for RESULT_TIME: two
# lines over the screen, or in play one line over the first (the seat and its seconds stay
# in sight). Not answered: a slap race, a notice or a pause, whose own screens say what the
# table waits for.
# In English, marked for the catalogs: shown in the table's language.
NO_LAUNCHER = ((N_("No launcher"), N_("Draw from pile")), N_("No launcher"))
FLASH_DRAWS = ((N_("Launcher off"), N_("Flash: draw pile")), N_("Flash: draw pile"))
NO_ROUND = ((N_("Start a round"), N_("to use launcher")), "")  # Table mode: hits are for turns


def refusal(table: Table) -> tuple[Lines, str] | None:
    """What the LCD says to a press of the launcher button that is no hit now, if anything:
    its two lines, and its line in play."""
    if table.phase not in (Phase.SEATING, Phase.TURN, Phase.ROUND_OVER):
        return None
    if not table.has_launcher:
        return NO_LAUNCHER
    if table.mode == "flash":
        return FLASH_DRAWS
    return NO_ROUND if table.phase is not Phase.TURN else None


def refuse(table: Table, at: float, effects: list[Effect]) -> Table:
    """A press of the launcher button that is no hit: say why (`refusal`)."""
    said = refusal(table)
    if said is None:
        return table
    (first, second), in_play = said
    t = lcd_words(table.settings)
    effects.append(Sound("refuse"))
    until = at + RESULT_TIME
    if table.phase is Phase.TURN and table.turn is not None:
        banner = t.gettext(in_play)
        return replace(table, turn=table.turn.with_banner(banner, until))
    return replace(table, message=Message((t.gettext(first), t.gettext(second)), until))


def profile(settings: Settings) -> profiles.LauncherProfile:
    name = str(settings.launcher_profile)
    if name == "custom":
        return profiles.custom_profile(
            int(settings.custom_chance),
            int(settings.custom_min),
            int(settings.custom_max),
        )
    return profiles.PROFILES[name]


def _with(table: Table, **changes: Any) -> Table:
    return replace(table, launcher=replace(table.launcher, **changes))


# -- exact draws -------------------------------------------------------------------------


def owe(table: Table, seat: int | None, cards: int, reason: str, effects: list[Effect]) -> Table:
    """Ask the launcher for exactly `cards` more, for `seat` (None: whoever is at the slot);
    never past MAX_OWED in all: a deck that is all owed has no card left to give."""
    cards = min(cards, MAX_OWED - table.launcher.owed)
    if cards <= 0 or not table.has_launcher:
        return table
    effects += [
        Dispense(cards),
        Announce("dispense", {"seat": seat, "cards": cards, "reason": reason}),
    ]
    return _with(table, queue=_queued(table.launcher.queue, Delivery(seat, cards, reason)))


def _queued(queue: tuple[Delivery, ...], new: Delivery) -> tuple[Delivery, ...]:
    """The queue with `new` at its end, within QUEUE_LIMIT deliveries.

    A delivery to the seat owed last joins it (the cards come out in the same order). A
    launcher that cannot deliver while penalties keep coming must not grow the queue without
    end: past QUEUE_LIMIT a delivery joins the last one owed to the same seat, so no card and
    no seat's count is lost, only the order among seats in the backlog.
    """
    last = queue[-1] if queue else None
    if last is None or (len(queue) < QUEUE_LIMIT and last.seat != new.seat):
        return (*queue, new)
    index = next((i for i in range(len(queue) - 1, -1, -1) if queue[i].seat == new.seat), None)
    if index is None:
        return (*queue, new)
    joined = replace(queue[index], cards=queue[index].cards + new.cards)
    return (*queue[:index], joined, *queue[index + 1 :])


def penalty(table: Table, seat: int, cards: int, reason: str, effects: list[Effect]) -> Table:
    """A penalty the engine decided: in Table mode the launcher deals it out exactly."""
    if table.mode != "table":
        return table
    return owe(table, seat, cards, reason, effects)


# -- hits --------------------------------------------------------------------------------


def hit(table: Table, at: float, rng: random.Random, effects: list[Effect]) -> Table:
    """A press of the launcher button: chime now, fire what the profile draws after it."""
    launcher = table.launcher
    drawn = profiles.hit(profile(table.settings), launcher.misses, rng)
    player = table.turn.seat if table.phase is Phase.TURN and table.turn else None
    recent = tuple(r for r in launcher.recent if r[0] > at - CAP_WINDOW)
    cap = table.settings.burst_cap
    # What the chimes still sounding will ask comes first: no hit promises a card past MAX_OWED.
    room = MAX_OWED - launcher.owed - sum(chime.cards for chime in launcher.chimes)
    if cap == "off":
        cards = max(0, min(drawn, room))
    else:
        received = sum(cards for _, who, cards in recent if who == player)
        cards = max(0, min(drawn, int(cap) - received, room))
    misses = 0 if drawn else up(launcher.misses)
    effects += [
        Sound(_chime_tune(table, launcher.misses)),
        Announce("hit", {"seat": player, "cards": cards, "drawn": drawn}),
    ]
    return _with(
        table,
        misses=misses,
        recent=(*recent, (at, player, cards)) if cards else recent,
        chimes=(*launcher.chimes, Chime(at + CHIME_TIME, player, cards, launcher.misses)),
    )


def _chime_tune(table: Table, misses: int) -> str:
    # The ascending profile chimes faster with every miss, as the newest originals do.
    if table.settings.launcher_profile == "ascending":
        return f"chime{min(misses, 3)}"
    return "chime0"


def chime_due(table: Table) -> float | None:
    chimes = table.launcher.chimes
    return chimes[0].until if chimes else None


def chime_fire(
    table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]
) -> Table:
    chime, *rest_ = table.launcher.chimes
    t = lcd_words(table.settings)
    fired = t.gettext("Launcher: {cards}!").format(cards=chime.cards)
    result = fired if chime.cards else t.gettext(NO_CARDS)
    table = _with(table, chimes=tuple(rest_), result=result)
    if chime.cards:
        effects.append(Sound("fire"))
        table = owe(table, chime.seat, chime.cards, "hit", effects)
    if table.phase is Phase.TURN and table.turn is not None:
        table = replace(table, turn=table.turn.with_banner(result, when + RESULT_TIME))
    return table


# -- what the launcher reports -----------------------------------------------------------


def card_out(table: Table, effects: list[Effect]) -> Table:
    """The beam counted a card: it pays off the first delivery still owed."""
    launcher = table.launcher
    seat = launcher.queue[0].seat if launcher.queue else None
    queue = launcher.queue
    if queue:
        first = replace(queue[0], cards=queue[0].cards - 1)
        queue = ((first,) if first.cards else ()) + queue[1:]
    table = _with(table, queue=queue, cards_out=up(launcher.cards_out))
    if seat is not None:
        table = summary.record_launcher_cards(table, seat, 1)
    effects.append(Announce("card_out", {"seat": seat, "owed": table.launcher.owed}))
    return table


def stopped(table: Table, reason: str, at: float, effects: list[Effect]) -> Table:
    """The motor stopped; a jam or an empty hopper waits for OK with the count still owed."""
    launcher = table.launcher
    if reason not in FAULT_LINES or not launcher.owed:
        return table
    effects += [
        Sound("alarm"),
        Announce("launcher_fault", {"fault": reason, "owed": launcher.owed}),
    ]
    return _with(table, fault=reason, fault_at=at, jams=up(launcher.jams, reason == "jam"))


def hold_due(table: Table) -> float | None:
    """While the launcher waits for OK no turn runs: nobody loses time to clearing the slot."""
    launcher, turn = table.launcher, table.turn
    if launcher.fault is None or table.phase is not Phase.TURN or turn is None:
        return None
    return max(launcher.fault_at, turn.started)


def hold_fire(
    table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]
) -> Table:
    return _with(rest.pause(table, when, effects, sound=False), paused_play=True)


def ok(table: Table, at: float, effects: list[Effect]) -> Table:
    """The operator cleared the slot or refilled the hopper and pressed OK."""
    launcher = table.launcher
    effects += [
        Sound("resume"),
        ResumeLauncher(),
        Announce("launcher_resumed", {"owed": launcher.owed}),
    ]
    table = _with(table, fault=None, paused_play=False)
    if launcher.paused_play and table.phase is Phase.PAUSED:
        table = rest.resume(table, at, effects)
    return table


def fault_lines(table: Table) -> tuple[str, str]:
    launcher, t = table.launcher, lcd_words(table.settings)
    assert launcher.fault is not None
    owed = t.gettext("{cards} owed").format(cards=launcher.owed)
    return (t.gettext(FAULT_LINES[launcher.fault]), row(t.gettext("press OK"), owed))
