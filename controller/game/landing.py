"""A launcher press of the lit player in Table mode holds their turn's timer until its cards
have landed (SPEC §2.4): no player times out while cards fly at them.

From the press the turn waits for the cards (the LCD's second line says "wait" over the
frozen seconds), through the chime, the burst, and any jam or refill. Once no chime sounds
and nothing is owed to the lit seat, the burst has landed: with the setting
`hit_ends_turn` off (the default) the timer goes on from where it stood and the LCD asks the
player for their own button ("press"), as a normal turn ends; on, the turn ends there, as UNO
Attack's "press once, and the turn ends" says. Presses in a row ("press twice", Hit 2) keep the
burst flying until the last one's cards have landed, so the turn never ends between them.
"""

from __future__ import annotations

import random

from . import turns
from .effects import Effect
from .frozen import replace
from .launch import CHIME_TIME, CHIMING
from .state import Phase, Table
from .text import lcd_words

CARDS = "cards"  # what the turn's timer waits for (Turn.waits_for)


def hold(table: Table, at: float) -> Table:
    """The lit player pressed the launcher: their timer waits until the cards have landed (a
    press in a run: the wait goes on)."""
    turn = table.turn
    if table.mode != "table" or table.phase is not Phase.TURN or turn is None:
        return table
    # A wait for a player going out becomes one for the cards, which outlasts it (its timer
    # stopped already: `turns.wait` leaves a wait as it is).
    waiting = turns.wait(turn, at, CARDS)
    # The first line says the launcher is on it until the chime's result replaces it.
    chiming = lcd_words(table.settings).gettext(CHIMING)
    waiting = waiting.with_banner(chiming, at + CHIME_TIME)
    return replace(table, turn=replace(waiting, waits_for=CARDS, landed=False))


def check(table: Table, at: float, rng: random.Random, effects: list[Effect]) -> Table:
    """After a chime or a card out: the burst has landed once no chime sounds and nothing is
    owed to the lit seat; then the timer goes on, or the turn ends (`hit_ends_turn`)."""
    turn = table.turn
    if table.phase is not Phase.TURN or turn is None or turn.waits_for != CARDS:
        return table
    launcher = table.launcher
    if launcher.chimes or any(delivery.seat == turn.seat for delivery in launcher.queue):
        return table
    if table.settings.hit_ends_turn == "on":
        return turns.end(table, at, rng, effects)
    return replace(table, turn=replace(turns.go_on(turn, at, CARDS), landed=True))
