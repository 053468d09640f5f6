"""The rules engine: a pure function of (state, event, now) with the random generator passed in.

It imports neither asyncio nor hardware nor time, so every rule is testable in microseconds
and every game can be replayed from its event log.
"""

from .effects import Announce, Effect, Sound
from .engine import new_table, next_wakeup, step
from .events import Command, Configure, Event, Press, Release, Stuck, Tick
from .replay import replay
from .state import Phase, Table
from .view import View, lights, render

__all__ = [
    "Announce",
    "Command",
    "Configure",
    "Effect",
    "Event",
    "Phase",
    "Press",
    "Release",
    "Sound",
    "Stuck",
    "Table",
    "Tick",
    "View",
    "lights",
    "new_table",
    "next_wakeup",
    "render",
    "replay",
    "step",
]
