"""What the engine asks the daemon to do besides showing its `View`: sounds and game events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Sound:
    """Play the named tune (see controller.tunes)."""

    name: str


@dataclass(frozen=True)
class Announce:
    """A game event, for the log and for MQTT: `type` and its data."""

    type: str
    data: Mapping[str, object] = field(default_factory=dict)


Effect = Sound | Announce
