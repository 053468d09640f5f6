"""The key map: which key does what on the simulated table, and its help text.

Terminals report key presses but never releases, so a long press is asked for with a
modifier: Shift with a seat's digit, an upper-case letter, or `h` before any key.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.catalogs import N_, Words

from .faults import FULL_DECK
from .fingers import BACK_HOLD, LONG_PRESS

# Shift with 1-8 on a US keyboard; `h` then the digit works on any layout.
SHIFTED_DIGITS = "!@#$%^&*"

BUTTON_KEYS = {"space": "slap", "l": "launcher", "p": "play_pause", "enter": "encoder.push"}
HELD_LETTERS = {"L": "launcher", "P": "play_pause"}
TURN_KEYS = {"left": -1, "[": -1, "up": -1, "right": 1, "]": 1, "down": 1}
FAULT_KEYS = {"j": "jam", "c": "clear", "e": "empty", "r": "refill"}


@dataclass(frozen=True)
class Move:
    """What a key asks for: `kind` is tap, hold, turn, fault, help, options, standings,
    arm_hold or quit, or missing for the key of a seat this table does not have."""

    kind: str
    name: str = ""
    seconds: float = 0.0
    steps: int = 0


def seat_key(key: str) -> int | None:
    """The seat a digit key (or its shifted character) stands for."""
    if key in "12345678" and len(key) == 1:
        seat = int(key)
    elif key.startswith("shift+") and key[6:] in "12345678" and len(key) == 7:
        seat = int(key[6:])
    elif len(key) == 1 and key in SHIFTED_DIGITS:
        seat = SHIFTED_DIGITS.index(key) + 1
    else:
        return None
    return seat


def move_for(key: str, character: str | None, *, seats: int, armed: bool) -> Move | None:
    """The move for a key (`armed`: `h` was pressed just before, so hold this one)."""
    typed = character if character and character.isprintable() and key != "space" else key
    seat = seat_key(typed)
    if seat is not None and seat > seats:
        return Move("missing", f"seat{seat}")
    if seat is not None:
        shifted = typed not in "12345678"
        return _press(f"seat{seat}", hold=armed or shifted)
    if typed in BUTTON_KEYS:
        return _press(BUTTON_KEYS[typed], hold=armed)
    if typed in HELD_LETTERS:
        return _press(HELD_LETTERS[typed], hold=True)
    if typed == "backspace":
        return Move("hold", "encoder.push", seconds=BACK_HOLD)
    if typed in TURN_KEYS:
        return Move("turn", steps=TURN_KEYS[typed])
    if typed in FAULT_KEYS:
        return Move("fault", FAULT_KEYS[typed])
    if typed == "?":
        return Move("help")
    if typed == "s":
        return Move("standings")
    if typed == "o":
        return Move("options")
    if typed == "h":
        return Move("arm_hold")
    if typed == "q":
        return Move("quit")
    return None


def _press(name: str, *, hold: bool) -> Move:
    return Move("hold", name, seconds=LONG_PRESS) if hold else Move("tap", name)


# The keys and what they do, marked for the catalogs (the figures filled in by key_help).
KEY_HELP = (
    ("1-8", N_("seat buttons")),
    (N_("⇧1-8, h+key"), N_("long press ({long} s)")),
    (N_("space"), "SLAP"),
    ("l L  p P", N_("launcher, play/pause; long")),
    ("←→ [ ] ↑↓", N_("turn the encoder (menu)")),
    (N_("enter"), N_("push the encoder (OK)")),
    (N_("backspace"), N_("hold it {back} s (back)")),
    ("j c  e r", N_("jam, clear; empty, fill ({cards})")),
    (N_("mouse"), N_("click; keep down to hold")),
    ("?  o", N_("help; what the options do")),
    ("s  q", N_("standings, quit")),
)


def key_help(t: Words) -> list[tuple[str, str]]:
    """KEY_HELP in the language of `t`, its figures filled in."""
    figures = {"long": f"{LONG_PRESS:g}", "back": f"{BACK_HOLD:g}", "cards": FULL_DECK}
    return [(t.gettext(keys), t.gettext(meaning).format(**figures)) for keys, meaning in KEY_HELP]
