"""What happens to the table: debounced presses and releases at their edge times, and ticks.

Inputs are named as the players know them: "seat1".."seat8", "slap", "launcher",
"play_pause", "encoder.push".
"""

from __future__ import annotations

from dataclasses import dataclass

from ..settings import Settings


@dataclass(frozen=True)
class Press:
    input: str
    time: float


@dataclass(frozen=True)
class Release:
    input: str
    time: float


@dataclass(frozen=True)
class Stuck:
    """An input found held down at power-on."""

    input: str
    time: float


@dataclass(frozen=True)
class Tick:
    """Time has reached a moment the engine asked to be woken at (see `next_wakeup`)."""

    time: float


@dataclass(frozen=True)
class Configure:
    """The operator changed the settings; in the log so that a replay changes them too.
    `by_hand`: at the table's own menu, so someone is there (the sleep timer starts over)."""

    settings: Settings
    time: float
    by_hand: bool = False


@dataclass(frozen=True)
class CardOut:
    """The launcher's beam counted one more card out of the slot."""

    time: float


@dataclass(frozen=True)
class LauncherStopped:
    """The launcher's motor stopped: "done", "jam" or "empty"."""

    reason: str
    time: float


@dataclass(frozen=True)
class ExactDraw:
    """Exact cards for whoever is at the slot: "quick" from the menu, or "restart" for the
    cards still owed when the daemon stopped."""

    cards: int
    reason: str
    time: float
    by_hand: bool = False  # from the table's own menu, as for Configure


@dataclass(frozen=True)
class Command:
    """From the menu and the remotes: the intents "start", "pause", "resume" and
    "next_round" (game/rounds.py), "new_round" (a round still going ends with its summary;
    after one, the next starts with the same seats),
    "seating" (back to claiming seats), "wake" (someone is at the menu: wake, or keep
    awake), "menu_opened" and "menu_closed" (no turn runs while the menu is open),
    "bring_back" (`seat`, out with a place by mistake, is in the round again) and
    "reset_standings" (the evening's standings start over)."""

    name: str
    time: float
    seat: int | None = None


@dataclass(frozen=True)
class SeatName:
    """A player's name for `seat`, checked (game/seat_names.py); "" clears it."""

    seat: int
    name: str
    time: float


@dataclass(frozen=True)
class HandPoints:
    """The card points left in `seat`'s hand when the round being scored was won
    (game/score.py)."""

    seat: int
    points: int
    time: float


Event = (
    Command
    | Press
    | Release
    | Stuck
    | Tick
    | Configure
    | CardOut
    | LauncherStopped
    | ExactDraw
    | SeatName
    | HandPoints
)
