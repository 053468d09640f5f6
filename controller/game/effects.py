"""What the engine asks the daemon to do besides showing its `View`: sounds and game events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Sound:
    """Play the named tune (see controller.shell.tunes)."""

    name: str


@dataclass(frozen=True)
class Announce:
    """A game event, for the log and for MQTT: `type` and its data."""

    type: str
    data: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Dispense:
    """Send exactly `cards` more cards out of the launcher."""

    cards: int


@dataclass(frozen=True)
class ResumeLauncher:
    """Go on with the cards still owed, after a jam was cleared or the hopper refilled."""


Effect = Sound | Announce | Dispense | ResumeLauncher
