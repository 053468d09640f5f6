"""The headless player's script language: its commands, and the checks a script passes
before it plays (docs/sim-script.md)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from controller.game.score import MAX_POINTS
from controller.game.seat_names import checked
from controller.settings import key_values, parsed

from ..errors import ScriptError, SettingError

PATTERNS = ("off", "on", "dim", "pulse", "blink", "blink_fast", "flash")
FAULTS = ("jam", "clear", "empty", "refill")
COUNTS = ("cards_out", "cards_left")
ALIASES = ("lit", "others")
EXPECTED = "lcd, light, lit, event, place, standings, total, cards_out or cards_left"
# What `expect standings` may check: the table's count, and each seat's figures (docs/mqtt.md).
STANDINGS_KEYS = ("rounds",)
SEAT_STANDINGS_KEYS = (
    "rounds",
    "wins",
    "average_place",
    "timeouts",
    "slap_best_ms",
    "slap_average_ms",
)


@dataclass(frozen=True)
class Step:
    line: int
    command: str
    args: tuple[str, ...]


def seconds(text: str) -> float:
    try:
        value = float(text.removesuffix("s"))
    except ValueError:
        raise ScriptError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < 1e6:
        raise ScriptError(f"{text!r} seconds is out of range")
    return value


def whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ScriptError(f"{what} must be a whole number, not {text!r}") from None


def settings(args: tuple[str, ...]) -> dict[str, str]:
    """`set`'s KEY=VALUE pairs, checked by the settings model as `flashtable settings set`
    checks them."""
    try:
        changes = key_values(list(args))
        parsed(changes)
    except SettingError as err:
        raise ScriptError(str(err)) from None
    return changes


def seat_number(text: str) -> int:
    """A seat as `expect` names it: 3, or seat3 as its button is named."""
    try:
        return int(text.removeprefix("seat"))
    except ValueError:
        raise ScriptError(f"a seat is a number or seatN, not {text!r}") from None


def _seat(text: str, inputs: frozenset[str]) -> None:
    if f"seat{seat_number(text)}" not in inputs:
        raise ScriptError(f"no seat {text!r} at this table")


def parse(text: str, inputs: frozenset[str]) -> list[Step]:
    """Check every line before anything is played; raises ScriptError("line N: ...")."""
    steps = []
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            words = _words(raw)
            if words:
                step = Step(number, words[0], tuple(words[1:]))
                _check(step, inputs)
                steps.append(step)
        except (ValueError, ScriptError) as err:
            raise ScriptError(f"line {number}: {err}") from None
    return steps


def _words(line: str) -> list[str]:
    try:
        return shlex.split(line, comments=True)
    except ValueError as err:  # shlex says "No closing quotation" or "No escaped character"
        if "quotation" in str(err):
            raise ScriptError("a quote is opened and never closed") from None
        raise ScriptError("a backslash ends the line with nothing to escape") from None


# What each command takes after it, and an example, for the message when it gets otherwise.
FORMS = {
    "hold": ("a button and a number of seconds", "hold seat1 2.5"),
    "turn": ("a number of steps", "turn -2"),
    "wait": ("a number of seconds", "wait 1.5"),
    "refill": ("nothing, or a number of cards", "refill 20"),
    "inputs": ("on or off", "inputs on"),
    "expect lcd": ("the text to find on the LCD", 'expect lcd "Seat 3 turn"'),
    "expect light": ("a seat and a pattern", "expect light 3 pulse"),
    "expect lit": ("a seat, or none", "expect lit 3"),
    "expect event": ("a type, then KEY=VALUE pairs", "expect event timeout seat=3"),
    "expect place": ("a seat and a place, or none", "expect place 3 2"),
    "expect standings": ("a seat (or none), then KEY=VALUE pairs", "expect standings 3 wins=1"),
    "set": ("KEY=VALUE pairs", "set finish=places"),
    "name": ('a seat and a name (quoted, or "" to clear it)', 'name 2 "Anna"'),
    "points": ("a seat and its hand's card points", "points 3 41"),
    "expect total": ("a seat and its total in the game", "expect total 2 312"),
    "expect cards_out": ("a number of cards", "expect cards_out 2"),
    "expect cards_left": ("a number of cards", "expect cards_left 52"),
}


def _names(args: tuple[str, ...], inputs: frozenset[str]) -> None:
    if not args:
        raise ScriptError("name at least one button")
    for name in args:
        if name not in ALIASES and name not in inputs:
            raise ScriptError(f"no button {name!r}; this table has {', '.join(sorted(inputs))}")


def _count(command: str, args: tuple[str, ...], low: int, high: int) -> None:
    if low <= len(args) <= high:
        return
    if command not in FORMS:
        raise ScriptError(f"{command} takes nothing after it, not {' '.join(args)!r}")
    what, example = FORMS[command]
    raise ScriptError(f"{command} takes {what}, as in {example!r}")


def _check(step: Step, inputs: frozenset[str]) -> None:
    command, args = step.command, step.args
    if command in ("tap", "press", "release"):
        _names(args, inputs)
    elif command == "hold":
        _count(command, args, 2, 2)
        _names(args[:1], inputs)
        seconds(args[1])
    elif command == "turn":
        _count(command, args, 1, 1)
        whole(args[0], "steps")
    elif command == "wait":
        _count(command, args, 1, 1)
        seconds(args[0])
    elif command in FAULTS:
        _count(command, args, 0, 1 if command == "refill" else 0)
        if args and whole(args[0], "cards") < 0:
            raise ScriptError(f"refill takes a number of cards to add, not {args[0]}")
    elif command == "name":
        _count(command, args, 2, 2)
        _seat(args[0], inputs)
        try:
            checked(args[1])
        except ValueError as err:
            raise ScriptError(str(err)) from None
    elif command == "points":
        _count(command, args, 2, 2)
        _seat(args[0], inputs)
        if not 0 <= whole(args[1], "points") <= MAX_POINTS:
            raise ScriptError(f"a hand's card points are 0 to {MAX_POINTS}, not {args[1]}")
    elif command in ("show", "ok", "standings", "restart"):
        _count(command, args, 0, 0)
    elif command == "set":
        _count(command, args, 1, 99)
        settings(args)
    elif command == "inputs":
        _count(command, args, 1, 1)
        if args[0] not in ("on", "off"):
            raise ScriptError(f"inputs on or inputs off, not {args[0]!r}")
    elif command == "expect":
        _check_expect(args, inputs)
    else:
        raise ScriptError(f"unknown command {command!r}")


def _check_expect(args: tuple[str, ...], inputs: frozenset[str]) -> None:
    if not args:
        raise ScriptError(f"expect what? {EXPECTED}")
    what, rest = args[0], args[1:]
    if what == "lcd":
        _count("expect lcd", rest, 1, 1)
    elif what == "light":
        _count("expect light", rest, 2, 2)
        _seat(rest[0], inputs)
        if rest[1] not in PATTERNS:
            raise ScriptError(f"no light pattern {rest[1]!r}; patterns: {', '.join(PATTERNS)}")
    elif what == "lit":
        _count("expect lit", rest, 1, 1)
        if rest[0] != "none":
            _seat(rest[0], inputs)
    elif what == "event":
        _count("expect event", rest, 1, 99)
        for pair in rest[1:]:
            if "=" not in pair:
                raise ScriptError(f"event data is KEY=VALUE, not {pair!r}")
    elif what == "total":
        _count("expect total", rest, 2, 2)
        _seat(rest[0], inputs)
        whole(rest[1], "a total")
    elif what in COUNTS:
        _count(f"expect {what}", rest, 1, 1)
        whole(rest[0], "cards")
    elif what == "place":
        _count("expect place", rest, 2, 2)
        _seat(rest[0], inputs)
        if rest[1] != "none" and not 1 <= whole(rest[1], "a place") <= 8:
            raise ScriptError(f"a place is 1 to 8, or none, not {rest[1]!r}")
    elif what == "standings":
        _count("expect standings", rest, 1, 99)
        pairs = rest
        keys: tuple[str, ...] = STANDINGS_KEYS
        if "=" not in rest[0]:
            _seat(rest[0], inputs)
            pairs, keys = rest[1:], SEAT_STANDINGS_KEYS
        _count("expect standings", pairs, 1, 99)
        for pair in pairs:
            key = pair.split("=", 1)[0]
            if "=" not in pair or key not in keys:
                raise ScriptError(f"standings has {', '.join(keys)}, not {pair!r}")
    else:
        raise ScriptError(f"cannot expect {what!r}; expect {EXPECTED}")
