"""Moving through the menu: `step(menu, input, context) -> (menu or None, actions)` and
`render(menu, context) -> the two LCD lines`.

A setting's new value takes effect as the encoder turns (each detent is an action), so the
table always runs on what the LCD shows; push or hold leaves the value as it is. While a value
is chosen, the first line says what it does, a page at a time (`next_page`, every PAGE_TIME),
the setting's label between the rounds of pages.

A hand's card points (0 to 999) are entered a digit at a time, hundreds first: a turn changes
the digit under the cursor, a push moves to the next, and the push on the last enters the
number; a hold leaves it unentered. Digits, not a value turned from 0: 999 is 27 detents
away, not 999, and nothing is entered on the way.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace

from ..catalogs import Words
from ..game.lcd_charset import can_show
from ..game.lcd_glyphs import ARROW_LEFT, ARROW_RIGHT
from ..game.text import COLUMNS, lcd_words, row
from ..requests import ChangeSettings, EnterPoints, GameCommand
from ..settings import BY_KEY, dragged
from .tree import Action, Close, Context, Entry, HardwareTest, top


@dataclass(frozen=True)
class Turn:
    steps: int


@dataclass(frozen=True)
class Push:
    pass


@dataclass(frozen=True)
class Back:
    """The encoder held down for a second."""


Input = Turn | Push | Back


@dataclass(frozen=True)
class Menu:
    # Entries are remembered by what they are, not where: the list changes with the game
    # (a round starting adds "New round"), and the menu must stay on the same entry.
    path: tuple[str, ...] = ()  # the submenus opened
    at: str = ""  # the entry showing; "" or one no longer there: the first
    editing: bool = False
    confirming: bool = False
    test: str | None = None  # a hardware test showing: "lights", "buttons", "beam"
    test_seat: int = 1  # the light the lights test has on
    page: int = 0  # while editing: the page of the first line (0: the label, then what it does)
    draft: int = 0  # while a hand's points are entered: the number so far
    digit: int = 0  # ... and the digit under the cursor: 0 hundreds, 1 tens, 2 units


Result = tuple[Menu | None, list[Action]]
PLAY_GOES_ON = ("start", "pause", "resume", "new_round", "seating")  # the menu closes for them

PAGE_TIME = 1.5  # seconds each page of what a value does shows, while it is chosen
DIGITS = 3  # of a hand's card points (game/score.py: MAX_POINTS 999)
EDITED = ("setting", "points")  # the kinds of entry a push opens to change


def ident(entry: Entry) -> str:
    # An Info line is itself whatever value it shows right now.
    key = "" if entry.kind == "info" else entry.key
    return f"{entry.kind}:{entry.name or entry.label}:{key}"


def entries(menu: Menu, context: Context) -> tuple[Entry, ...] | None:
    """The list showing, or None when an opened submenu is no longer there."""
    level = top(context)
    for opened in menu.path:
        parent = next((e for e in level if ident(e) == opened and e.children), None)
        if parent is None or parent.children is None:
            return None
        level = parent.children(context)
    return level


def _place(menu: Menu, level: tuple[Entry, ...]) -> int:
    return next((n for n, e in enumerate(level) if ident(e) == menu.at), 0)


def current(menu: Menu, context: Context) -> tuple[Menu, Entry]:
    """The menu made to fit the table as it is now, and the entry it shows."""
    level = entries(menu, context)
    if level is None:
        menu, level = Menu(), top(context)
    entry = level[_place(menu, level)]
    if menu.editing and entry.kind not in EDITED:
        menu = replace(menu, editing=False)
    return replace(menu, at=ident(entry)), entry


def step(menu: Menu, event: Input, context: Context) -> Result:
    """The menu after one turn, push or hold; None when it has closed."""
    menu, entry = current(menu, context)
    if menu.test is not None:
        return _in_test(menu, menu.test, event, context)
    if menu.confirming:
        if isinstance(event, Push):
            return _act(replace(menu, confirming=False), entry.action)
        if isinstance(event, Back):
            return replace(menu, confirming=False), []
        return menu, []
    if menu.editing and entry.kind == "points":
        return _points(menu, int(entry.key), event)
    if menu.editing:
        if isinstance(event, Turn):
            # What the new value does, at once.
            return replace(menu, page=1), _change(entry, event.steps, context)
        return replace(menu, editing=False, page=0), []
    if isinstance(event, Turn):
        level = entries(menu, context) or ()
        place = (_place(menu, level) + event.steps) % len(level)
        return replace(menu, at=ident(level[place])), []
    if isinstance(event, Back):
        if not menu.path:
            return None, [Close()]
        return Menu(path=menu.path[:-1], at=menu.path[-1]), []
    return _choose(menu, entry, context)


def _choose(menu: Menu, entry: Entry, context: Context) -> Result:
    if entry.kind == "setting":
        return replace(menu, editing=True, page=1), []
    if entry.kind == "points":  # from what was entered before: a correction starts there
        entered = next(h.points for h in context.hands if str(h.seat) == entry.key)
        return replace(menu, editing=True, draft=entered or 0, digit=0), []
    if entry.kind == "submenu":
        return Menu(path=(*menu.path, ident(entry))), []
    if entry.kind == "confirm":
        return replace(menu, confirming=True), []
    if entry.kind == "test":
        return replace(menu, test=entry.key, test_seat=1), [HardwareTest(entry.key, True)]
    if entry.kind == "action":
        return _act(menu, entry.action)
    return menu, []


def _act(menu: Menu, action: Action | None) -> Result:
    if action is None:
        return menu, []
    if isinstance(action, GameCommand) and action.name in PLAY_GOES_ON:
        # Play goes on: the menu gets out of the way of the game's own screen. Before a
        # start, or its first turn would start paused, held for the menu still open.
        return None, [Close(), action] if action.name == "start" else [action, Close()]
    return menu, [action]


def _points(menu: Menu, seat: int, event: Input) -> Result:
    if isinstance(event, Back):
        return replace(menu, editing=False), []
    if isinstance(event, Push):
        if menu.digit < DIGITS - 1:
            return replace(menu, digit=menu.digit + 1), []
        return replace(menu, editing=False), [EnterPoints(seat, menu.draft)]
    place = 10 ** (DIGITS - 1 - menu.digit)
    now = menu.draft // place % 10
    return replace(menu, draft=menu.draft + ((now + event.steps) % 10 - now) * place), []


def _change(entry: Entry, steps: int, context: Context) -> list[Action]:
    spec = BY_KEY[entry.key]
    now = context.settings[entry.key]
    index = spec.options.index(now) if now in spec.options else 0
    index = min(max(index + steps, 0), len(spec.options) - 1)
    value = spec.options[index]
    # Past the other bound of its pair, that bound moves along: the change names both.
    return [] if value == now else [ChangeSettings(dragged(context.settings, entry.key, value))]


def next_page(menu: Menu) -> Menu:
    """The menu a page on: while a value is chosen, what it does moves on by a page."""
    return replace(menu, page=menu.page + 1) if menu.editing else menu


def editing_pages(label: str, key: str, context: Context) -> tuple[str, ...]:
    """The first line's pages while the setting `key` is chosen: its label, then what its
    value does, in lines of the LCD's width."""
    spec, t = BY_KEY[key], lcd_words(context.settings)
    about = textwrap.wrap(t.gettext(spec.explain(context.settings[key])), COLUMNS)
    return (ARROW_RIGHT + label[: COLUMNS - 1], *about)


def _in_test(menu: Menu, test: str, event: Input, context: Context) -> Result:
    if isinstance(event, Push | Back):
        return replace(menu, test=None), [HardwareTest(test, False)]
    if test == "lights":
        seat = (menu.test_seat - 1 + event.steps) % context.stations + 1
        return replace(menu, test_seat=seat), [HardwareTest("lights", seat)]
    return menu, []


# -- what the LCD shows ------------------------------------------------------------------


def render(menu: Menu, context: Context) -> tuple[str, str]:
    menu, entry = current(menu, context)
    t = lcd_words(context.settings)
    if menu.test is not None:
        return _test_lines(t, menu, context)
    if menu.confirming:
        question = entry.question or t.gettext("{label}?").format(label=entry.label)
        return (question, t.gettext("push=yes hold=no"))
    first = ARROW_RIGHT + entry.label[: COLUMNS - 1]
    if entry.kind == "setting":
        spec, now = BY_KEY[entry.key], context.settings[entry.key]
        value = spec.text(now, t)
        value = value if can_show(value) else str(now)  # "zh": no Chinese in the LCD's ROM
        if menu.editing:
            # A value stops at the ends of its list (the entries wrap, a value does not: 30 s
            # is never one turn from "off"): an arrow shows only where a turn goes on.
            index = spec.options.index(now) if now in spec.options else -1
            left = ARROW_LEFT if index != 0 else " "
            right = ARROW_RIGHT if index != len(spec.options) - 1 else " "
            pages = editing_pages(entry.label, entry.key, context)
            return (pages[menu.page % len(pages)], left + value.center(COLUMNS - 2) + right)
        return (first, value.rjust(COLUMNS))
    if entry.kind == "points" and menu.editing:
        digits = f"{menu.draft:0{DIGITS}d}"
        marked = "".join(f"[{d}]" if n == menu.digit else d for n, d in enumerate(digits))
        last = menu.digit == DIGITS - 1
        return (first, row(marked, t.gettext("push=enter") if last else t.gettext("push=next")))
    if entry.kind == "info":
        return (entry.label, entry.key.rjust(COLUMNS))
    if entry.kind == "submenu":
        return (first, t.gettext("push to open").rjust(COLUMNS))
    return (first, entry.hint.rjust(COLUMNS))


def _test_lines(t: Words, menu: Menu, context: Context) -> tuple[str, str]:
    if menu.test == "lights":
        lit = t.gettext("Seat {n} lit, turn").format(n=menu.test_seat)
        return (t.gettext("Test: lights"), lit)
    if menu.test == "buttons":
        return (t.gettext("Test: buttons"), context.last_button or t.gettext("press any"))
    clear = context.beam_clear
    if clear is None:
        beam = t.gettext("no beam")
    else:
        beam = t.gettext("clear") if clear else t.gettext("BLOCKED")
    return (t.gettext("Test: beam"), beam)
