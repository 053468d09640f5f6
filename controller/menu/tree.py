"""What the menu holds (SPEC §3), in menu order, and what choosing an entry asks for.

Some entries depend on the table: the first one starts, pauses or resumes play; the seat
handicaps follow the seats fitted; the launcher's entries appear only where a launcher is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..game.text import ordinal
from ..requests import (
    QUICK_DISPENSE,
    ChangeSettings,
    DealCards,
    EnterPoints,
    GameCommand,
    ResetSettings,
)
from ..settings import Settings


@dataclass(frozen=True)
class Hand:
    """A hand of the round being scored: its seat, the name the LCD shows for it, and the
    card points entered for it so far (None: none yet)."""

    seat: int
    name: str
    points: int | None


@dataclass(frozen=True)
class Context:
    """What the menu needs to know of the table to draw itself."""

    settings: Settings
    phase: str  # "seating", "play", "busy" (a race, a penalty), "paused", "over", "extreme"
    stations: int
    has_launcher: bool
    seated: int  # players seated: a round needs two
    out: tuple[int, ...] = ()  # seats out of the round in play with a place, first place first
    standings: tuple[tuple[str, str], ...] = ()  # the evening's standings, screen by screen
    hands: tuple[Hand, ...] = ()  # the round waiting for its card points: the others' hands
    # (label, value) for the Info screens; asked only when they show (it reads the network)
    info: Callable[[], tuple[tuple[str, str], ...]] = field(default=lambda: (), compare=False)
    last_button: str | None = None  # for the button test
    beam_clear: bool | None = None  # for the beam test


@dataclass(frozen=True)
class HardwareTest:
    """A hardware test for the panel: "lights", "buttons" or "beam" started (True) or stopped
    (False), the lights test's seat to light (a number), "buzzer" or "eject" (True)."""

    name: str
    value: bool | int


@dataclass(frozen=True)
class Close:
    """The menu closes."""


# What the menu asks of the panel: a request for the table, as MQTT would send it, or the
# panel's own hardware test, or that the menu close.
Action = (
    ChangeSettings | ResetSettings | GameCommand | DealCards | EnterPoints | HardwareTest | Close
)


@dataclass(frozen=True)
class Entry:
    label: str
    kind: str  # "setting", "action", "submenu", "info", "test", "confirm", "points"
    key: str = ""  # the setting, the test, the value an Info line shows, or a hand's seat
    action: Action | None = None
    children: Callable[[Context], tuple[Entry, ...]] | None = field(default=None, compare=False)
    question: str = ""  # what a "confirm" entry asks before it acts (default: its label)
    hint: str = ""  # the second line under an action, a confirm or a test: what a push does


def _setting(key: str) -> Entry:
    from ..settings import BY_KEY

    return Entry(BY_KEY[key].label, "setting", key)


PLAY_LABELS = {"seating": "Start", "play": "Pause", "paused": "Resume", "over": "Start"}
NEW_ROUND_HINT = "same seats"  # SPEC §2.5: a new round keeps the seats
CHANGE_SEATS_HINT = "players rejoin"


def _handicaps(context: Context) -> tuple[Entry, ...]:
    return tuple(_setting(f"handicap_seat{n}") for n in range(1, context.stations + 1))


def _custom_launcher(context: Context) -> tuple[Entry, ...]:
    return tuple(_setting(k) for k in ("custom_chance", "custom_min", "custom_max"))


def _quick_dispense(context: Context) -> tuple[Entry, ...]:
    return tuple(
        Entry(
            f"{n} card" + ("s" if n > 1 else ""),
            "action",
            action=DealCards(n),
            hint="push to deal",
        )
        for n in QUICK_DISPENSE
    )


def _hardware_test(context: Context) -> tuple[Entry, ...]:
    tests = [
        Entry("Lights", "test", "lights", hint="push to start"),
        Entry("Buttons", "test", "buttons", hint="push to start"),
        Entry("Buzzer", "action", action=HardwareTest("buzzer", True), hint="push to beep"),
    ]
    if context.has_launcher:
        tests += [
            Entry(
                "Eject 1 card",
                "action",
                action=HardwareTest("eject", True),
                hint="push to eject",
            ),
            Entry("Beam sensor", "test", "beam", hint="push to start"),
        ]
    return tuple(tests)


def _info(context: Context) -> tuple[Entry, ...]:
    return tuple(Entry(label, "info", value) for label, value in context.info())


def _bring_back(context: Context) -> tuple[Entry, ...]:
    # Asked first: a push by mistake would undo a place that was meant.
    return tuple(
        Entry(
            f"Seat {seat} ({ordinal(place)})",
            "confirm",
            action=GameCommand("bring_back", seat),
            question=f"Seat {seat} back in?",
            hint="out by mistake?",
        )
        for place, seat in enumerate(context.out, start=1)
    )


def _card_points(context: Context) -> tuple[Entry, ...]:
    # One hand at a time; an entry again corrects it, until the next round starts.
    return tuple(
        Entry(
            hand.name,
            "points",
            str(hand.seat),
            hint="push to enter" if hand.points is None else f"{hand.points} points",
        )
        for hand in context.hands
    )


def _standings(context: Context) -> tuple[Entry, ...]:
    pages = context.standings or (("Standings: none", "play a round"),)
    return (
        *(Entry(first, "info", second) for first, second in pages),
        Entry(
            "Reset standings", "confirm", action=GameCommand("reset_standings"), hint="start over"
        ),
    )


def top(context: Context) -> tuple[Entry, ...]:
    """The top level of the menu."""
    entries = []
    if context.hands:  # what a round just won waits for comes first
        entries.append(Entry("Card points", "submenu", children=_card_points))
    if context.phase in PLAY_LABELS:  # an Extreme round has nothing to pause
        label = PLAY_LABELS[context.phase]
        hint = f"push to {label.lower()}"
        if label == "Start" and context.seated < 2:
            hint = "need 2+ players"  # a push is refused: say why before it
        # What the label says, not a toggle: a push never undoes what a remote just did.
        action = GameCommand(label.lower())
        entries.append(Entry(label, "action", action=action, hint=hint))
    if context.phase == "over":
        entries += [
            Entry("New round", "action", action=GameCommand("new_round"), hint=NEW_ROUND_HINT),
            Entry("Change seats", "action", action=GameCommand("seating"), hint=CHANGE_SEATS_HINT),
        ]
    elif context.phase in ("play", "busy", "paused", "extreme"):
        # Either ends the round going on: one push by mistake must not lose its statistics.
        ask = "End the round?"
        entries += [
            Entry(
                "New round",
                "confirm",
                action=GameCommand("new_round"),
                question=ask,
                hint=NEW_ROUND_HINT,
            ),
            Entry(
                "Change seats",
                "confirm",
                action=GameCommand("seating"),
                question=ask,
                hint=CHANGE_SEATS_HINT,
            ),
        ]
        if context.out:
            entries.append(Entry("Bring back", "submenu", children=_bring_back))
    entries += [
        _setting("mode"),
        _setting("turn_timer"),
        _setting("surprise_min"),
        _setting("surprise_max"),
        Entry("Handicaps", "submenu", children=_handicaps),
        _setting("timeout_penalty"),
        _setting("slap_window"),
        _setting("slap_penalty"),
        _setting("picker"),
        _setting("jump_in"),
        _setting("finish"),
        _setting("target_score"),
        Entry("Standings", "submenu", children=_standings),
    ]
    if context.has_launcher:
        entries += [
            _setting("launcher_profile"),
            Entry("Custom launcher", "submenu", children=_custom_launcher),
            _setting("hit_ends_turn"),
            _setting("burst_cap"),
            _setting("jam_time"),
            Entry("Quick dispense", "submenu", children=_quick_dispense),
        ]
    entries += [
        _setting("volume"),
        _setting("brightness"),
        _setting("sleep_time"),
        Entry("Hardware test", "submenu", children=_hardware_test),
        Entry("Info", "submenu", children=_info),
        Entry("Reset settings", "confirm", action=ResetSettings(), hint="to the defaults"),
    ]
    return tuple(entries)
