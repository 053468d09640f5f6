"""The table's state: who is seated, what phase the round is in, whose turn, until when.

Every value is immutable: the engine returns a new `Table` for every event. Mappings held in
a `Table` are never changed in place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from ..settings import Settings

Lines = tuple[str, str]


class Phase(Enum):
    SEATING = "seating"
    TURN = "turn"
    SLAP = "slap"  # a slap race is running
    NOTICE = "notice"
    PAUSED = "paused"
    ROUND_OVER = "round_over"
    EXTREME = "extreme"  # a round of Extreme: no turns, only the launcher


@dataclass(frozen=True)
class Turn:
    seat: int
    started: float  # moved on by every pause, so that now - started is the time played
    deadline: float | None  # None: no turn timer
    shown: int | None = None  # whole seconds left as the LCD shows them
    hidden: bool = False  # a surprise limit: the countdown shows only in the last seconds
    banner: str | None = None  # replaces the first LCD line until banner_until
    banner_until: float = 0.0
    again: bool = False  # the same seat picked twice running: its light blinks meanwhile


@dataclass(frozen=True)
class Notice:
    """Pages that hold the table for a moment (a timeout, a slap result), then play goes on."""

    pages: tuple[Lines, ...]
    started: float
    page_time: float
    flash: frozenset[int] = frozenset()  # seats whose light flashes meanwhile
    page: int = 0

    @property
    def until(self) -> float:
        return self.started + self.page_time * len(self.pages)

    @property
    def lines(self) -> Lines:
        return self.pages[self.page]


@dataclass(frozen=True)
class Message:
    """A line pair shown over the seating screen until `until` (e.g. "Need 2+ players")."""

    lines: Lines
    until: float


@dataclass(frozen=True)
class Hold:
    """A seat button held down during play: it may become a Jump-In, then a round end."""

    since: float  # the press edge
    may_jump: bool


@dataclass(frozen=True)
class SlapRace:
    slapper: int
    started: float  # the SLAP button's edge
    closes: float
    racers: frozenset[int]
    presses: Mapping[int, float] = field(default_factory=dict)  # racer: first edge


@dataclass(frozen=True)
class SeatStats:
    turns: int = 0
    timeouts: int = 0
    slaps_lost: int = 0
    launcher_cards: int = 0  # cards counted out of the launcher to this seat
    turn_time: float = 0.0  # seconds over all counted turns

    @property
    def average(self) -> float | None:
        return self.turn_time / self.turns if self.turns else None


@dataclass(frozen=True)
class Summary:
    """The round-over screens: which page shows, since when (they advance on their own)."""

    winner: int | None  # None: the round was ended from the menu
    page: int
    since: float


@dataclass(frozen=True)
class Delivery:
    """Cards the launcher still owes, in order: to a seat, or to whoever is at the slot."""

    seat: int | None
    cards: int
    reason: str  # "timeout", "slap", "hit" or "quick"


@dataclass(frozen=True)
class Chime:
    """A launcher hit whose chime is sounding; its cards (maybe none) fly when it ends."""

    until: float
    seat: int | None
    cards: int


# A whole UNO deck: the launcher never owes more at once. The game keeps to it (a delivery that
# would pass it is cut to what fits), so the files, the LCD and MQTT can always carry the count.
MAX_OWED = 108


@dataclass(frozen=True)
class Launcher:
    queue: tuple[Delivery, ...] = ()
    chimes: tuple[Chime, ...] = ()
    fault: str | None = None  # "jam" or "empty" until OK
    fault_at: float = 0.0
    paused_play: bool = False  # the fault paused a running turn; OK resumes it
    misses: int = 0  # hits since the last one that fired (the ascending profile)
    recent: tuple[tuple[float, int | None, int], ...] = ()  # (edge, player, cards) for the cap
    result: str = ""  # what the last hit did, for the LCD
    cards_out: int = 0  # counted by the beam since power-on
    jams: int = 0

    @property
    def owed(self) -> int:
        return sum(delivery.cards for delivery in self.queue)


@dataclass(frozen=True)
class Table:
    settings: Settings
    stations: int
    phase: Phase = Phase.SEATING
    seated: frozenset[int] = frozenset()
    stuck: frozenset[str] = frozenset()
    held: Mapping[str, float] = field(default_factory=dict)
    turn: Turn | None = None
    notice: Notice | None = None
    message: Message | None = None
    paused_left: float | None = None
    paused_at: float | None = None
    picks: tuple[int, ...] = ()
    holds: Mapping[int, Hold] = field(default_factory=dict)
    race: SlapRace | None = None
    stats: Mapping[int, SeatStats] = field(default_factory=dict)
    summary: Summary | None = None
    last_input: float | None = None  # edge of the latest press or release: sleep counts from it
    asleep: bool = False
    menu_open: bool = False  # the operator is in the LCD menu: no turn runs meanwhile
    menu_paused: bool = False  # the pause is the menu's: closing the menu resumes
    has_launcher: bool = False
    launcher: Launcher = field(default_factory=Launcher)
    round_mode: str | None = None  # the mode the round in play started in; None between rounds

    @property
    def mode(self) -> str:
        """The mode the table plays now: the round's while one is in play (a change of mode
        waits for the next round, so the LCD, the turns, the penalties and the launcher
        never mix two), else the settings'."""
        return self.round_mode or str(self.settings.mode)

    @property
    def mode_waits(self) -> bool:
        """A change of mode made during the round, for the next one."""
        return self.round_mode is not None and self.round_mode != self.settings.mode
