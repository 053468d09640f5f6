"""A stand-in for the daemon around the engine: it feeds events at their edge times, ticks
at every wakeup the engine asks for, and keeps the log and every effect."""

from __future__ import annotations

import random

from controller.game import (
    Announce,
    Phase,
    Press,
    Release,
    Sound,
    Tick,
    new_table,
    next_wakeup,
    render,
    step,
)
from controller.game.codec import decode
from controller.game.events import Event
from controller.settings import Settings

T0 = 100.0
LIT = ("pulse", "blink", "blink_fast")  # during a turn: its seat (blink: picked again)


class Game:
    def __init__(self, settings=None, *, stations=4, seed=0, start=T0, has_launcher=False) -> None:
        self.settings = Settings(settings or {})
        self.stations = stations
        self.has_launcher = has_launcher
        self.seed = seed
        self.rng = random.Random(seed)
        self.table = new_table(self.settings, stations, has_launcher=has_launcher)
        self.now = start
        self.log: list[tuple[float, Event]] = []
        self.effects: list = []

    # -- driving ---------------------------------------------------------------------------

    def resume(self, snapshot: dict) -> None:
        """Play on from `snapshot` (codec.encode's), decoded as a restarted daemon does."""
        self.table = decode(
            snapshot,
            settings=self.settings,
            stations=self.stations,
            has_launcher=self.has_launcher,
            now=self.now,
            rng=random.Random(0),
        )

    def feed(self, event: Event, now: float | None = None) -> list:
        """Step with `event`, handled at `now` (by default at its own time)."""
        self.now = max(self.now, event.time if now is None else now)
        self.log.append((self.now, event))
        self.table, effects = step(self.table, event, self.now, self.rng)
        self.effects += effects
        return effects

    def run_until(self, when: float) -> None:
        """Let time pass to `when`, ticking at every moment the engine asks for."""
        while (wakeup := next_wakeup(self.table)) is not None and wakeup <= when:
            self.feed(Tick(max(wakeup, self.now)))
        self.now = max(self.now, when)

    def wait(self, seconds: float) -> None:
        self.run_until(self.now + seconds)

    def press(self, name: str, at: float | None = None) -> list:
        at = self.now if at is None else at
        self.run_until(at)
        return self.feed(Press(name, at))

    def release(self, name: str, at: float | None = None) -> list:
        at = self.now if at is None else at
        self.run_until(at)
        return self.feed(Release(name, at))

    def tap(self, name: str, hold: float = 0.1) -> list:
        effects = self.press(name)
        return effects + self.release(name, self.now + hold)

    def hold(self, name: str, seconds: float) -> list:
        start = len(self.effects)
        self.press(name)
        self.release(name, self.now + seconds)
        return self.effects[start:]

    def seat(self, *seats: int) -> None:
        for n in seats:
            self.tap(f"seat{n}")

    def start(self, *seats: int) -> int:
        """Seat these players and press Play/Pause; the first lit seat."""
        self.seat(*seats)
        self.tap("play_pause")
        return self.lit

    # -- reading ---------------------------------------------------------------------------

    @property
    def view(self):
        return render(self.table)

    @property
    def lines(self) -> tuple[str, str]:
        return self.view.lines

    def light(self, seat: int) -> str:
        return self.view.lights[seat - 1]

    @property
    def lit(self) -> int:
        assert self.table.phase is Phase.TURN, self.table.phase
        [seat] = [n for n, p in enumerate(self.view.lights, start=1) if p in LIT]
        return seat

    def others(self, *besides: int) -> list[int]:
        return sorted(self.table.seated - set(besides))

    def announced(self, kind: str, since: int = 0) -> list[dict]:
        return [
            dict(e.data) for e in self.effects[since:] if isinstance(e, Announce) and e.type == kind
        ]

    def sounds(self, since: int = 0) -> list[str]:
        return [e.name for e in self.effects[since:] if isinstance(e, Sound)]

    def mark(self) -> int:
        """An index into the effects, to read only what comes after it."""
        return len(self.effects)
