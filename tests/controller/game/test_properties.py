"""Properties over random games: the engine never raises, one seat is lit whenever a turn runs,
penalties go to seated players only, every screen fits the LCD, and every log replays."""

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from controller.game import (
    Announce,
    Configure,
    Phase,
    Press,
    Release,
    Sound,
    Stuck,
    Tick,
    new_table,
    next_wakeup,
    render,
    replay,
    step,
)
from controller.game.events import CardOut, ExactDraw, LauncherStopped
from controller.settings import Settings
from controller.tunes import TUNES

STATIONS = 5
INPUTS = [f"seat{n}" for n in range(1, STATIONS + 1)] + [
    "slap",
    "slap",
    "launcher",
    "play_pause",
    "encoder.push",
]
PATTERNS = {"off", "on", "dim", "pulse", "blink", "blink_fast", "flash"}
LIT = {"pulse", "blink_fast"}
TURN_LIT = LIT | {"blink"}  # in a turn, a seat picked again blinks for a moment

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
)
games = st.tuples(
    game_settings,
    st.lists(st.sampled_from(range(1, STATIONS + 1)), min_size=1, max_size=5, unique=True),
    st.lists(action, min_size=5, max_size=80),
    st.integers(0, 2**32 - 1),
    st.booleans(),
    st.booleans(),
)


def check(table, effects, now):
    view = render(table)
    assert len(view.lights) == table.stations and set(view.lights) <= PATTERNS
    assert all(len(line) <= 16 for line in view.lines)
    lit = [n for n, p in enumerate(view.lights, start=1) if p in LIT]
    if table.phase is Phase.TURN:
        lit = [n for n, p in enumerate(view.lights, start=1) if p in TURN_LIT]
        assert lit == [table.turn.seat] and table.turn.seat in table.seated
    elif table.phase is not Phase.EXTREME:  # no turns there: lights quicken with the chime
        assert lit == []
    assert all(delivery.cards > 0 for delivery in table.launcher.queue)
    assert table.has_launcher or not table.launcher.queue
    for effect in effects:
        if isinstance(effect, Announce) and effect.type == "penalty":
            assert effect.data["seat"] in table.seated and effect.data["cards"] > 0
        if isinstance(effect, Announce) and effect.type == "dispense":
            assert effect.data["seat"] is None or effect.data["seat"] in table.seated
        if isinstance(effect, Sound):
            assert effect.name in TUNES
    wakeup = next_wakeup(table)
    assert wakeup is None or wakeup > now


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_every_rule_and_replay_exactly(game):
    raw_settings, seats, actions, seed, ticking, has_launcher = game
    start = Settings(raw_settings)
    table = new_table(start, STATIONS, has_launcher=has_launcher)
    rng = random.Random(seed)
    log, all_effects = [], []
    now = 1000.0

    def feed(event, at):
        nonlocal table, now
        now = max(now, at)
        log.append((now, event))
        table, effects = step(table, event, now, rng)
        all_effects.extend(effects)
        check(table, effects, now)

    def until(when):
        # The daemon's wakeups; without them the engine must catch up by itself.
        while ticking and (wakeup := next_wakeup(table)) is not None and wakeup <= when:
            feed(Tick(wakeup), wakeup)

    for seat in seats:
        feed(Press(f"seat{seat}", now + 0.2), now + 0.2)
        feed(Release(f"seat{seat}", now + 0.1), now + 0.1)
    feed(Press("play_pause", now + 0.2), now + 0.2)

    for kind, name, gap, lag in actions:
        edge = now + gap
        if kind == "early":
            edge = now - gap  # an edge from before the last event, handled only now
        else:
            until(edge)
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
        else:
            changed = table.settings.replace({"jump_in": "on", "turn_timer": 3})
            feed(Configure(changed, now), now)

    for kind in sorted({e.type for e in all_effects if isinstance(e, Announce)}):
        event(kind)
    replayed, effects = replay(
        log, new_table(start, STATIONS, has_launcher=has_launcher), random.Random(seed)
    )
    assert replayed == table
    assert effects == all_effects
