"""How the table is played, in the few lines a new player asks for: joining and leaving, how
a round ends, what each long press does. `flashtable --help` and the simulated table's `?`
screen show these lines; README.md says the same in prose.
"""

from __future__ import annotations

from .game.engine import STUCK_AFTER
from .game.holds import JUMP_HOLD, WIN_HOLD
from .shell.panel import HOLD_BACK

HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    ("seat button", "before a round: join; press again to leave"),
    ("", "in a round: the lit player presses to end their turn"),
    ("SLAP", "played SLAP? press it; others race, the slowest draws"),
    (f"hold it {WIN_HOLD:g} s", "hand empty: round over (finish = places: you are out)"),
    (f"hold it {JUMP_HOLD:g} s", "not your turn: jump in (if Jump-In is on)"),
    (f"held {STUCK_AFTER:g} s", "before a round: reported stuck, not seated"),
    ("Play/Pause", "start, pause, resume; held down, still one press"),
    ("launcher", "a hit; in your turn the timer waits till the cards land"),
    (f"push held {HOLD_BACK:g} s", "in the menu: back; from its top, close it, play on"),
)


def how_to_play(indent: str = "") -> list[str]:
    """The lines with a heading, each narrow enough for a box on an 80-column terminal."""
    width = max(len(what) for what, _ in HOW_TO_PLAY)
    lines = (f"{indent}{what:<{width}}  {meaning}" for what, meaning in HOW_TO_PLAY)
    return ["How to play:", *lines]
