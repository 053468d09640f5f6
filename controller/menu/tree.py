"""What the menu holds (SPEC §3), in menu order, and what choosing an entry asks for.

Some entries depend on the table: the first one starts, pauses or resumes play; the seat
handicaps follow the seats fitted; the launcher's entries appear only where a launcher is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..catalogs import N_, Words
from ..game.text import lcd_words, ordinal
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
    label: str  # in the table's language
    kind: str  # "setting", "action", "submenu", "info", "test", "confirm", "points"
    key: str = ""  # the setting, the test, the value an Info line shows, or a hand's seat
    action: Action | None = None
    children: Callable[[Context], tuple[Entry, ...]] | None = field(default=None, compare=False)
    question: str = ""  # what a "confirm" entry asks before it acts (default: its label)
    hint: str = ""  # the second line under an action, a confirm or a test: what a push does
    # What the entry is, in any language: the menu keeps its place by it (navigator.ident),
    # so that a change of language keeps the cursor where it is. "": the label says it.
    name: str = ""


def _setting(context: Context, key: str) -> Entry:
    from ..settings import BY_KEY

    return Entry(BY_KEY[key].label_in(lcd_words(context.settings)), "setting", key, name=key)


def _handicaps(context: Context) -> tuple[Entry, ...]:
    return tuple(_setting(context, f"handicap_seat{n}") for n in range(1, context.stations + 1))


def _custom_launcher(context: Context) -> tuple[Entry, ...]:
    return tuple(_setting(context, k) for k in ("custom_chance", "custom_min", "custom_max"))


def _quick_dispense(context: Context) -> tuple[Entry, ...]:
    t = lcd_words(context.settings)
    return tuple(
        Entry(
            t.ngettext("{n} card", "{n} cards", n).format(n=n),
            "action",
            action=DealCards(n),
            hint=t.gettext("push to deal"),
            name=f"deal {n}",
        )
        for n in QUICK_DISPENSE
    )


def _one_shot(label: str, test: str, hint: str) -> Entry:
    """A hardware test that is one push: a beep, a card ejected."""
    return Entry(label, "action", action=HardwareTest(test, True), hint=hint, name=test)


def _hardware_test(context: Context) -> tuple[Entry, ...]:
    t = lcd_words(context.settings)
    start = t.gettext("push to start")
    tests = [
        Entry(t.gettext("Lights"), "test", "lights", hint=start, name="lights"),
        Entry(t.gettext("Buttons"), "test", "buttons", hint=start, name="buttons"),
        _one_shot(t.gettext("Buzzer"), "buzzer", t.gettext("push to beep")),
    ]
    if context.has_launcher:
        tests += [
            _one_shot(t.gettext("Eject 1 card"), "eject", t.gettext("push to eject")),
            Entry(t.gettext("Beam sensor"), "test", "beam", hint=start, name="beam"),
        ]
    return tuple(tests)


def _info(context: Context) -> tuple[Entry, ...]:
    return tuple(Entry(label, "info", value) for label, value in context.info())


def _bring_back(context: Context) -> tuple[Entry, ...]:
    # Asked first: a push by mistake would undo a place that was meant.
    t = lcd_words(context.settings)
    return tuple(
        Entry(
            t.gettext("Seat {n} ({ordinal})").format(n=seat, ordinal=ordinal(t, place)),
            "confirm",
            action=GameCommand("bring_back", seat),
            question=t.gettext("Seat {n} back in?").format(n=seat),
            hint=t.gettext("out by mistake?"),
            name=f"bring back {seat}",
        )
        for place, seat in enumerate(context.out, start=1)
    )


def _card_points(context: Context) -> tuple[Entry, ...]:
    # One hand at a time; an entry again corrects it, until the next round starts.
    t = lcd_words(context.settings)
    return tuple(
        Entry(
            hand.name,
            "points",
            str(hand.seat),
            hint=t.gettext("push to enter")
            if hand.points is None
            else t.ngettext("{n} point", "{n} points", hand.points).format(n=hand.points),
            name=f"points {hand.seat}",
        )
        for hand in context.hands
    )


def _standings(context: Context) -> tuple[Entry, ...]:
    t = lcd_words(context.settings)
    pages = context.standings or ((t.gettext("Standings: none"), t.gettext("play a round")),)
    return (
        *(Entry(first, "info", second) for first, second in pages),
        Entry(
            t.gettext("Reset standings"),
            "confirm",
            action=GameCommand("reset_standings"),
            hint=t.gettext("start over"),
            name="reset standings",
        ),
    )


def _submenu(t: Words, label: str, children: Callable[[Context], tuple[Entry, ...]]) -> Entry:
    return Entry(t.gettext(label), "submenu", children=children, name=label)


def _play(t: Words, context: Context) -> Entry:
    """Start, Pause or Resume: what the label says, not a toggle (a push never undoes what a
    remote just did)."""
    command = {"seating": "start", "play": "pause", "paused": "resume", "over": "start"}[
        context.phase
    ]
    labels = {"start": t.gettext("Start"), "pause": t.gettext("Pause")}
    hints = {"start": t.gettext("push to start"), "pause": t.gettext("push to pause")}
    label = labels.get(command) or t.gettext("Resume")
    hint = hints.get(command) or t.gettext("push to resume")
    if command == "start" and context.seated < 2:
        hint = t.gettext("need 2+ players")  # a push is refused: say why before it
    return Entry(label, "action", action=GameCommand(command), hint=hint, name=command)


def top(context: Context) -> tuple[Entry, ...]:
    """The top level of the menu, in the table's language."""
    t = lcd_words(context.settings)
    entries = []
    if context.hands:  # what a round just won waits for comes first
        entries.append(_submenu(t, N_("Card points"), _card_points))
    if context.phase in ("seating", "play", "paused", "over"):  # Extreme has nothing to pause
        entries.append(_play(t, context))
    new_round, change_seats = t.gettext("New round"), t.gettext("Change seats")
    same_seats = t.gettext("same seats")  # SPEC §2.5: a new round keeps the seats
    rejoin = t.gettext("players rejoin")
    if context.phase == "over":
        entries += [
            Entry(
                new_round,
                "action",
                action=GameCommand("new_round"),
                hint=same_seats,
                name="new round",
            ),
            Entry(
                change_seats,
                "action",
                action=GameCommand("seating"),
                hint=rejoin,
                name="change seats",
            ),
        ]
    elif context.phase in ("play", "busy", "paused", "extreme"):
        # Either ends the round going on: one push by mistake must not lose its statistics.
        ask = t.gettext("End the round?")
        entries += [
            Entry(
                new_round,
                "confirm",
                action=GameCommand("new_round"),
                question=ask,
                hint=same_seats,
                name="new round",
            ),
            Entry(
                change_seats,
                "confirm",
                action=GameCommand("seating"),
                question=ask,
                hint=rejoin,
                name="change seats",
            ),
        ]
        if context.out:
            entries.append(_submenu(t, N_("Bring back"), _bring_back))

    def setting(key: str) -> Entry:
        return _setting(context, key)

    entries += [
        setting("mode"),
        setting("turn_timer"),
        setting("surprise_min"),
        setting("surprise_max"),
        _submenu(t, N_("Handicaps"), _handicaps),
        setting("timeout_penalty"),
        setting("slap_window"),
        setting("slap_penalty"),
        setting("picker"),
        setting("jump_in"),
        setting("finish"),
        setting("target_score"),
        _submenu(t, N_("Standings"), _standings),
    ]
    if context.has_launcher:
        entries += [
            setting("launcher_profile"),
            _submenu(t, N_("Custom launcher"), _custom_launcher),
            setting("hit_ends_turn"),
            setting("burst_cap"),
            setting("jam_time"),
            _submenu(t, N_("Quick dispense"), _quick_dispense),
        ]
    entries += [
        setting("volume"),
        setting("brightness"),
        setting("language"),
        setting("sleep_time"),
        _submenu(t, N_("Hardware test"), _hardware_test),
        _submenu(t, N_("Info"), _info),
        Entry(
            t.gettext("Reset settings"),
            "confirm",
            action=ResetSettings(),
            hint=t.gettext("to the defaults"),
            name="reset settings",
        ),
    ]
    return tuple(entries)
