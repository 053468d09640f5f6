"""Random games for the engine's properties: settings, seats and actions, and one way to play
them as the daemon does (ticked at every wakeup, or left for the engine to catch up)."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import strategies as st

from controller.game import (
    Command,
    Configure,
    Press,
    Release,
    Stuck,
    Table,
    Tick,
    new_table,
    next_wakeup,
    step,
)
from controller.game.events import (
    CardOut,
    Event,
    ExactDraw,
    HandPoints,
    LauncherStopped,
    SeatName,
)
from controller.settings import Settings

STATIONS = 5
INPUTS = [f"seat{n}" for n in range(1, STATIONS + 1)] + [
    "slap",
    "slap",
    "launcher",
    "play_pause",
    "encoder.push",
]

game_settings = st.fixed_dictionaries(
    {
        "mode": st.sampled_from(["table", "table", "flash", "extreme"]),
        "launcher_profile": st.sampled_from(["classic", "ascending", "custom"]),
        "burst_cap": st.sampled_from([3, "off"]),
        "turn_timer": st.sampled_from(["off", 2, 4, 10, 30, "surprise"]),
        "surprise_min": st.sampled_from([2, 3]),
        "surprise_max": st.sampled_from([3, 5]),
        "jump_in": st.sampled_from(["off", "on"]),
        "sleep_time": st.sampled_from([1, "off"]),
        "slap_window": st.sampled_from([1, 3]),
        "slap_penalty": st.sampled_from([0, 2]),
        "timeout_penalty": st.sampled_from([0, 2]),
        "picker": st.sampled_from(["classic", "fair"]),
        "handicap_seat2": st.sampled_from([0, 3]),
        "finish": st.sampled_from(["first", "places", "places"]),
        "target_score": st.sampled_from([0, 100, 500]),
        # Every text the LCD shows, in each language it shows (Chinese shows English there).
        "language": st.sampled_from(["en", "de"]),
    }
)
gaps = st.sampled_from([0.0, 0.0005, 0.01, 0.1, 0.3, 0.6, 1.0, 2.0, 2.5, 5.0, 30.0, 90.0])
lags = st.sampled_from([0.0, 0.0, 0.005, 0.3])
presses = st.tuples(st.sampled_from(["press", "release"]), st.sampled_from(INPUTS), gaps, lags)
action = st.one_of(
    presses,
    presses,
    presses,
    presses,
    st.tuples(st.just("early"), st.sampled_from(INPUTS), st.sampled_from([0.001, 0.2]), lags),
    st.tuples(st.just("tick"), st.just(""), gaps, st.just(0.0)),
    st.tuples(st.just("stuck"), st.sampled_from(INPUTS), st.just(0.0), st.just(0.0)),
    st.tuples(st.just("configure"), st.just(""), st.just(0.0), st.just(0.0)),
    # What the launcher reports back: a card through the beam, a jam, an empty hopper.
    st.tuples(st.just("card"), st.just(""), gaps, st.just(0.0)),
    st.tuples(st.sampled_from(["jam", "empty", "done"]), st.just(""), gaps, st.just(0.0)),
    st.tuples(st.just("exact"), st.just(""), st.just(0.0), st.just(0.0)),
    # From the menu: a player out with a place brought back; the standings started over.
    st.tuples(st.just("back"), st.sampled_from(INPUTS[:STATIONS]), st.just(0.0), st.just(0.0)),
    st.tuples(st.just("reset"), st.just(""), st.just(0.0), st.just(0.0)),
    # From a remote: a name (the longest, one the LCD cannot show, none), a hand's points.
    st.tuples(
        st.just("name"),
        st.sampled_from(INPUTS[:STATIONS]),
        st.sampled_from(["Maximilianus", "李小龙", "", "Bö"]),
        st.just(0.0),
    ),
    st.tuples(
        st.just("points"),
        st.sampled_from(INPUTS[:STATIONS]),
        st.sampled_from([0, 60, 999]),
        st.just(0.0),
    ),
)
games = st.tuples(
    game_settings,
    st.lists(st.sampled_from(range(1, STATIONS + 1)), min_size=1, max_size=5, unique=True),
    st.lists(action, min_size=5, max_size=80),
    st.integers(0, 2**32 - 1),
    st.booleans(),
    st.booleans(),
)


class RandomGame:
    """One generated game (from `games`), to `play`."""

    def __init__(self, game: tuple) -> None:
        raw_settings, self.seats, self.actions, self.seed, self.ticking, self.has_launcher = game
        self.start = Settings(raw_settings)
        self.table = self.new_table()
        self.rng = random.Random(self.seed)
        self.now = 1000.0
        self.log: list[tuple[float, Event]] = []
        self.effects: list = []
        self._stepped: Callable[[Table, Event], None] = lambda before, event: None

    def new_table(self) -> Table:
        return new_table(self.start, STATIONS, has_launcher=self.has_launcher)

    def feed(self, event: Event, at: float) -> None:
        self.now = max(self.now, at)
        self.log.append((self.now, event))
        before = self.table
        self.table, effects = step(before, event, self.now, self.rng)
        self.effects.extend(effects)
        self._stepped(before, event)

    def until(self, when: float) -> None:
        # The daemon's wakeups; without them the engine must catch up by itself.
        while self.ticking and (wakeup := next_wakeup(self.table)) is not None and wakeup <= when:
            self.feed(Tick(wakeup), wakeup)

    def play(self, stepped: Callable[[Table, Event], None]) -> None:
        """Play it all: `stepped(before, event)` after every step, with the game's table,
        generator, effects and time as the step left them."""
        self._stepped = stepped
        feed = self.feed
        for seat in self.seats:
            feed(Press(f"seat{seat}", self.now + 0.2), self.now + 0.2)
            feed(Release(f"seat{seat}", self.now + 0.1), self.now + 0.1)
        feed(Press("play_pause", self.now + 0.2), self.now + 0.2)
        for kind, name, gap, lag in self.actions:
            if kind in ("name", "points"):  # `gap` holds the name or the points
                seat = int(name.removeprefix("seat"))
                made = (
                    SeatName(seat, gap, self.now)
                    if kind == "name"
                    else HandPoints(seat, gap, self.now)
                )
                feed(made, self.now)
                continue
            edge = self.now + gap
            if kind == "early":
                edge = self.now - gap  # an edge from before the last event, handled only now
            else:
                self.until(edge)
            now = self.now
            if kind in ("press", "early"):
                feed(Press(name, edge), edge + lag)
            elif kind == "release":
                feed(Release(name, edge), edge + lag)
            elif kind == "tick":
                feed(Tick(edge), edge)
            elif kind == "stuck":
                feed(Stuck(name, now), now)
            elif kind == "card":
                feed(CardOut(edge), edge)
            elif kind in ("jam", "empty", "done"):
                feed(LauncherStopped(kind, edge), edge)
            elif kind == "exact":
                feed(ExactDraw(3, "quick", now), now)
            elif kind == "back":
                feed(Command("bring_back", now, int(name.removeprefix("seat"))), now)
            elif kind == "reset":
                feed(Command("reset_standings", now), now)

            else:
                changed = self.table.settings.replace({"jump_in": "on", "turn_timer": 3})
                feed(Configure(changed, now), now)
