"""The table's state: who is seated, what phase the round is in, whose turn, until when.

Every value is immutable: the engine returns a new `Table` for every event. Mappings held in
a `Table` are never changed in place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from ..settings import Settings


class Phase(Enum):
    SEATING = "seating"
    TURN = "turn"
    NOTICE = "notice"
    PAUSED = "paused"


@dataclass(frozen=True)
class Turn:
    seat: int
    started: float
    deadline: float | None  # None: no turn timer
    shown: int | None = None  # whole seconds left as the LCD shows them


@dataclass(frozen=True)
class Notice:
    """A message that holds the table for a moment (a timeout), then play goes on."""

    lines: tuple[str, str]
    until: float
    seat: int | None = None


@dataclass(frozen=True)
class Message:
    """A line pair shown over the seating screen until `until` (e.g. "Need 2+ players")."""

    lines: tuple[str, str]
    until: float


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
    picks: tuple[int, ...] = ()
