"""How the table is played, in the few lines a new player asks for: joining and leaving, how
a round ends, what each long press does. `flashtable --help` and the simulated table's `?`
screen show these lines; README.md says the same in prose.
"""

from __future__ import annotations

from .catalogs import N_, Words, cells, translation
from .game.engine import STUCK_AFTER
from .game.holds import JUMP_HOLD, WIN_HOLD
from .shell.panel import HOLD_BACK

# Marked for the catalogs; the figures ({win}, {jump}, {stuck}, {back}) filled in as shown.
HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    (N_("seat button"), N_("before a round: join; press again to leave")),
    ("", N_("in a round: the lit player presses to end their turn")),
    ("SLAP", N_("played SLAP? press it; others race, the slowest draws")),
    (N_("hold it {win} s"), N_("hand empty: round over (finish = places: you are out)")),
    (N_("hold it {jump} s"), N_("not your turn: jump in (if Jump-In is on)")),
    (N_("held {stuck} s"), N_("before a round: reported stuck, not seated")),
    ("Play/Pause", N_("start, pause, resume; held down, still one press")),
    (N_("launcher"), N_("a hit; in your turn the timer waits till the cards land")),
    (N_("push held {back} s"), N_("in the menu: back; from its top, close it, play on")),
)


def how_to_play(words: Words | None = None, indent: str = "") -> list[str]:
    """The lines with a heading, each narrow enough for a box on an 80-column terminal, in
    the language of `words` (the CLI's help: English)."""
    t = words or translation("en")
    figures = {"win": f"{WIN_HOLD:g}", "jump": f"{JUMP_HOLD:g}"}
    figures |= {"stuck": f"{STUCK_AFTER:g}", "back": f"{HOLD_BACK:g}"}
    rows = [
        (t.gettext(what).format(**figures) if what else "", t.gettext(meaning))
        for what, meaning in HOW_TO_PLAY
    ]
    width = max(cells(what) for what, _ in rows)
    lines = (f"{indent}{what}{' ' * (width - cells(what))}  {meaning}" for what, meaning in rows)
    return [t.gettext("How to play:"), *lines]
