"""The table's state: who is seated, what phase the round is in, whose turn, until when.

Every value is immutable: the engine returns a new `Table` for every event. Mappings held in
a `Table` are never changed in place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from ..settings import Settings
from .frozen import replace

Lines = tuple[str, str]


class Phase(Enum):
    SEATING = "seating"
    TURN = "turn"
    SLAP = "slap"  # a slap race is running
    NOTICE = "notice"
    PAUSED = "paused"
    ROUND_OVER = "round_over"
    EXTREME = "extreme"  # a round of Extreme: no turns, only the launcher


# A round is in play in these: it has seats, and may have places taken.
ROUND_PHASES = frozenset({Phase.TURN, Phase.SLAP, Phase.NOTICE, Phase.PAUSED, Phase.EXTREME})


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
    # What the timer waits for, if anything: "cards" (the lit player's launcher burst on its
    # way, landing.py), "out" (the player whose press ended the last turn holding on to go
    # out, holds.py). Meanwhile deadline is None and held_left what it had (turns.wait).
    waits_for: str = ""
    held_left: float | None = None
    landed: bool = False  # their burst has landed: the LCD asks for the player's button
    going_out_banner: bool = False  # the banner says a player is going out (holds.py)

    def with_banner(self, text: str, until: float) -> Turn:
        """This turn with `text` over the LCD's first line until `until`: any banner but the
        one of a player going out (holds.py), which a hold let go takes down."""
        return replace(self, banner=text, banner_until=until, going_out_banner=False)

    def time_left(self, at: float) -> float | None:
        """The time the timer has left at `at`: None without a timer; while it waits, what
        it had when it began to wait."""
        if self.waits_for:
            return self.held_left
        return None if self.deadline is None else max(0.0, self.deadline - at)


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
    # What it is about, for a rule that asks (never its words, which are in a language):
    # "waits", a mode or a finish chosen for the next round.
    kind: str = ""


@dataclass(frozen=True)
class Hold:
    """A seat button held down during play: it may become a Jump-In, then a round end."""

    since: float  # the press edge
    may_jump: bool
    # The press ended the holder's own turn: holding on may mean going out, and past
    # OUT_HINT (`going_out`) the turn it passed on waits (holds.py).
    was_lit: bool = False
    going_out: bool = False


@dataclass(frozen=True)
class SlapRace:
    slapper: int
    started: float  # the SLAP button's edge
    closes: float
    racers: frozenset[int]
    presses: Mapping[int, float] = field(default_factory=dict)  # racer: first edge


# The largest count the table keeps (a snapshot holds no larger: game/codec.py reads none):
# every count stops there, so a game the table saved is always one it can resume.
MAX_COUNT = 10**9 - 1


def up(count: int, by: int = 1) -> int:
    """`count` grown by `by`, no further than MAX_COUNT."""
    return min(count + by, MAX_COUNT)


@dataclass(frozen=True)
class SlapTimes:
    """A seat's reaction times in slap races it pressed in (a miss has no time)."""

    presses: int = 0
    total_ms: int = 0
    best_ms: int | None = None  # None until the first press

    @property
    def average_ms(self) -> int | None:
        return round(self.total_ms / self.presses) if self.presses else None

    def add(self, other: SlapTimes) -> SlapTimes:
        bests = [ms for ms in (self.best_ms, other.best_ms) if ms is not None]
        return SlapTimes(
            self.presses + other.presses, self.total_ms + other.total_ms, min(bests, default=None)
        )

    @property
    def kept(self) -> bool:
        """Whether a table keeps these: no count past MAX_COUNT."""
        return max(self.presses, self.total_ms) <= MAX_COUNT


@dataclass(frozen=True)
class SeatStats:
    turns: int = 0
    timeouts: int = 0
    slaps_lost: int = 0
    launcher_cards: int = 0  # cards counted out of the launcher to this seat
    turn_time: float = 0.0  # seconds over all counted turns
    slap: SlapTimes = SlapTimes()

    @property
    def average(self) -> float | None:
        return self.turn_time / self.turns if self.turns else None


@dataclass(frozen=True)
class SeatStanding:
    """One seat's evening: rounds it sat in that had a winner, and what it did in them."""

    rounds: int = 0
    wins: int = 0
    placed: int = 0  # rounds for places in which it took a place
    place_total: int = 0  # the sum of those places (1 for first)
    timeouts: int = 0
    slap: SlapTimes = SlapTimes()

    @property
    def average_place(self) -> float | None:
        return self.place_total / self.placed if self.placed else None


@dataclass(frozen=True)
class Standings:
    """The evening's standings: since the table last woke from sleep, or since a reset."""

    rounds: int = 0
    seats: Mapping[int, SeatStanding] = field(default_factory=dict)


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
    misses: int = 0  # the misses before it, which set the pace of its chime and lights


@dataclass(frozen=True)
class RoundPoints:
    """The card points of the round last won, while they may be entered (until the next
    round starts): its winner, the seats that played it, and the points entered so far for
    the others' hands, each seat's once (an entry again corrects it)."""

    winner: int
    seats: frozenset[int]
    points: Mapping[int, int] = field(default_factory=dict)

    @property
    def sum(self) -> int:
        return sum(self.points.values())


@dataclass(frozen=True)
class Score:
    """The game to `target_score`: each seat's total before the round still being scored,
    that round, and the seat whose total reached the target (the next round starts a new
    game). Kept across sleep and restarts; cleared by a new game or Reset standings."""

    totals: Mapping[int, int] = field(default_factory=dict)
    open: RoundPoints | None = None
    won: int | None = None


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
    round_finish: str | None = None  # its finish, "first" or "places"; None between rounds
    places: tuple[int, ...] = ()  # seats out of the round, first place first (finish = places)
    standings: Standings = field(default_factory=Standings)
    names: Mapping[int, str] = field(default_factory=dict)  # players' names, by seat
    score: Score = field(default_factory=Score)
    idle_page: int = 0  # seating with standings: 0 the seating screen, then standings pages
    idle_since: float = 0.0  # when that page came up

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

    @property
    def finish(self) -> str:
        """How the round in play ends, as it started ("first" or "places"); between rounds,
        the settings'. A change made during a round waits for the next, as a mode does."""
        return self.round_finish or str(self.settings.finish)

    @property
    def finish_waits(self) -> bool:
        return self.round_finish is not None and self.round_finish != self.settings.finish

    @property
    def in_play(self) -> frozenset[int]:
        """The seated players still in the round: not yet out with a place."""
        return self.seated - frozenset(self.places) if self.places else self.seated
