"""Starting a round, what Play/Pause does, and the intents a remote or the menu asks for:
start, pause, resume, the next round now.

Play/Pause is a toggle: it does what the phase it meets calls for. An intent says what is
wanted, and is checked against the table in the step that carries it out: one that is so
already does nothing (a resume of a running table), so two at once, or one racing a press,
never undo each other. What each did is told by the events of its step.
"""

from __future__ import annotations

import random

from . import places, rest, score, summary, turns
from .effects import Announce, Effect, Sound
from .frozen import replace
from .state import ROUND_PHASES, Message, Phase, Table
from .text import lcd_words

MESSAGE_TIME = 3.0  # how long a seating message stays up
INTENTS = ("start", "pause", "resume", "next_round")
BETWEEN_ROUNDS = (Phase.SEATING, Phase.ROUND_OVER)


def play(table: Table, at: float, rng: random.Random, effects: list[Effect]) -> Table:
    """What Play/Pause does: start a round, pause, resume. With the LCD menu open it closes
    the menu (the daemon's panel follows `menu_open`) and play goes on: what the menu held
    resumes, a pause resumes, a round starts; the LCD shows the game again."""
    if table.menu_open:
        table = rest.menu_closed(table, at, effects)
        if table.phase in BETWEEN_ROUNDS:
            return start(table, at, rng, effects)
        return intend(table, "resume", at, rng, effects)
    if table.phase in BETWEEN_ROUNDS:
        return start(table, at, rng, effects)
    if table.phase is Phase.TURN and table.turn is not None:
        return rest.pause(table, at, effects)
    if table.phase is Phase.PAUSED:
        return rest.resume(table, at, effects)
    return table


def intend(table: Table, name: str, at: float, rng: random.Random, effects: list[Effect]) -> Table:
    """Carry out the intent `name` ("start", "pause", "resume", "next_round") if the table
    is not there already and can be. A sleeping table is woken for it, except for a pause:
    asleep, it is paused already. No turn runs while the LCD shows the menu: a turn a start
    brings starts paused, and a resume waits, until the menu closes."""
    if table.asleep and name != "pause":
        table = rest.wake(table, at, effects)
    if name == "start" and table.phase in BETWEEN_ROUNDS:
        return rest.hold_for_menu(start(table, at, rng, effects), at, effects)
    if name == "pause" and table.phase is Phase.TURN and table.turn is not None:
        return rest.pause(table, at, effects)
    if name == "resume" and table.phase is Phase.PAUSED and not table.asleep:
        if table.menu_open:  # closing the menu resumes what it holds
            return replace(table, menu_paused=True)
        return rest.resume(table, at, effects)
    if name == "next_round" and table.phase is not Phase.SEATING:
        if table.phase in ROUND_PHASES:
            # It ends first, with its summary: its statistics are not lost.
            table = summary.round_over(table, None, at, effects)
        return rest.hold_for_menu(start(table, at, rng, effects), at, effects)
    return table


def start(table: Table, at: float, rng: random.Random, effects: list[Effect]) -> Table:
    """From seating, or after a round (`summary.out_of_play` left nothing of the last round's
    play): the seats stay as they are."""
    if len(table.seated) < 2:
        effects += [Sound("refuse"), Announce("start_refused", {"seated": len(table.seated)})]
        t = lcd_words(table.settings)
        lines = (t.gettext("Need 2+ players"), t.gettext("Press to join"))
        message = Message(lines, at + MESSAGE_TIME)
        return replace(table, message=message)
    table = score.next_round(table, effects)  # the last round's points, or a new game
    effects += [
        Sound("start"),
        Announce(
            "round_started",
            {
                "seats": sorted(table.seated),
                "mode": table.settings.mode,
                "finish": table.settings.finish,
            },
        ),
    ]
    table = replace(
        table,
        message=None,
        picks=(),
        summary=None,
        round_mode=str(table.settings.mode),
        round_finish=str(table.settings.finish),
        places=(),
    )
    table = summary.fresh_stats(table)
    if table.mode == "extreme":
        # No turns in Extreme: players pass clockwise by themselves and hit the launcher.
        return replace(table, phase=Phase.EXTREME, turn=None)
    # The start tune is the first light's cue: no turn blip to cut it short.
    table = turns.next_turn(table, at, rng, effects, sound=False)
    if table.finish == "places" and table.turn is not None:
        # Nobody at the table should think the round ends with the first player out.
        banner = lcd_words(table.settings).gettext(places.ROUND_BANNER)
        until = at + turns.BANNER_TIME
        table = replace(table, turn=table.turn.with_banner(banner, until))
    return table
