"""What can be asked of a running table by anything but its pins: the menu, MQTT, a signal.

Each request is a small immutable value, checked when it is made. `Daemon.submit` takes one
from any thread or task and answers with a future; the menu, which runs on the daemon's own
loop, hands its requests to `Daemon.handle`. Both end in the same code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .errors import SettingError
from .game.events import Command, ExactDraw, HandPoints, SeatName
from .game.rounds import INTENTS
from .game.score import MAX_POINTS
from .game.seat_names import checked
from .settings import BURST_CARDS, MAX_SEATS, parsed

# Intents, each checked against the table in the step that carries it out, so that one
# already so does nothing (a resume of a running table) and two at once never undo each
# other: start a round, pause the turn, resume it, and the next round now (a round still
# going ends first; a remote's New round, with nobody at the table to press Start). Then
# the menu's new round (a round going ends, with its summary; after one, the next starts),
# back to seating, "someone is at the table" (wakes it; the sleep timer starts over), a
# player out with a place brought back into the round (with its seat), and the evening's
# standings started over.
GAME_COMMANDS = (*INTENTS, "new_round", "seating", "wake", "bring_back", "reset_standings")
# The exact counts the menu's quick dispense offers. A remote (MQTT, the web page) deals any
# count up to the largest burst a hit can bring.
QUICK_DISPENSE = (1, 2, 4, 6)
MAX_DEAL = max(BURST_CARDS)


@dataclass(frozen=True)
class ChangeSettings:
    """Set the settings named, and only those: each value is checked when the request is
    made (SettingError), and merged with the table's settings when it is carried out, in
    one step; the future's result is the table's new `Settings`, or SettingError when the
    change meets settings it cannot go with (a bound past the other)."""

    changes: Mapping[str, object]

    def __post_init__(self) -> None:
        if not self.changes:
            raise SettingError("nothing to set")
        # A copy nobody else holds: the caller's dict may change after it is handed over.
        object.__setattr__(self, "changes", MappingProxyType(parsed(self.changes)))


@dataclass(frozen=True)
class ResetSettings:
    """Back to the config's settings (the menu's Reset settings)."""


@dataclass(frozen=True)
class RereadSettings:
    """Read the settings file again (SIGHUP)."""


@dataclass(frozen=True)
class GameCommand:
    name: str
    seat: int | None = None  # "bring_back" only: the seat brought back

    def __post_init__(self) -> None:
        if self.name not in GAME_COMMANDS:
            raise ValueError(f"no game command {self.name!r}; one of {', '.join(GAME_COMMANDS)}")
        if (self.name == "bring_back") != (self.seat is not None):
            raise ValueError("a seat goes with bring_back, and with no other command")
        if self.seat is not None:
            _seat(self.seat)

    def event(self, now: float) -> Command:
        """What this request is to the game."""
        return Command(self.name, now, self.seat)


def _seat(seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= MAX_SEATS:
        raise ValueError(f"seat must be 1 to {MAX_SEATS}, not {seat!r}")


@dataclass(frozen=True)
class NameSeat:
    """Call `seat`'s player `name` ("" clears it): checked, trimmed and composed when made
    (game/seat_names.py); ValueError says what is wrong with it."""

    seat: int
    name: str

    def __post_init__(self) -> None:
        _seat(self.seat)
        object.__setattr__(self, "name", checked(self.name))

    def event(self, now: float) -> SeatName:
        return SeatName(self.seat, self.name, now)


@dataclass(frozen=True)
class EnterPoints:
    """The card points left in `seat`'s hand when the round being scored was won
    (game/score.py); whether the table takes them now is its step's to say."""

    seat: int
    points: int

    def __post_init__(self) -> None:
        _seat(self.seat)
        points = self.points
        if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= MAX_POINTS:
            raise ValueError(f"points must be a whole number 0 to {MAX_POINTS}, not {points!r}")

    def event(self, now: float) -> HandPoints:
        return HandPoints(self.seat, self.points, now)


@dataclass(frozen=True)
class DealCards:
    """Deal an exact count from the launcher: "quick" from the menu or MQTT, "test" for the
    hardware test."""

    cards: int
    reason: str = "quick"

    def __post_init__(self) -> None:
        if isinstance(self.cards, bool) or not isinstance(self.cards, int):
            raise ValueError(f"cards must be a whole number, not {self.cards!r}")
        if not 1 <= self.cards <= MAX_DEAL:
            raise ValueError(f"cards must be 1 to {MAX_DEAL}, not {self.cards}")

    def event(self, now: float, *, by_hand: bool = False) -> ExactDraw:
        """What this request is to the game; `by_hand`: asked at the table's own menu."""
        return ExactDraw(self.cards, self.reason, now, by_hand)


@dataclass(frozen=True)
class ShowLinkStatus:
    """The MQTT link's state, for the Info screen: "connected", "connecting", ..."""

    status: str


Request = (
    ChangeSettings
    | ResetSettings
    | RereadSettings
    | GameCommand
    | NameSeat
    | EnterPoints
    | DealCards
    | ShowLinkStatus
)
