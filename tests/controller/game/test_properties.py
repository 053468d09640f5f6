"""Properties over random games: the engine never raises, one seat is lit whenever a turn runs,
penalties go to seated players only, every screen fits the LCD, and every log replays."""

import random

from hypothesis import HealthCheck, event, given, settings

from controller.game import Announce, Phase, Sound, next_wakeup, render, replay
from controller.game.lcd_charset import can_show
from controller.game.state import ROUND_PHASES
from controller.shell.tunes import TUNES
from hardware.patterns import Pattern

from .strategies import RandomGame, games

# The game names light patterns as plain strings; the lights carry out hardware's Pattern.
PATTERNS = {pattern.value for pattern in Pattern}
LIT = {"pulse", "blink_fast"}
TURN_LIT = LIT | {"blink"}  # in a turn, a seat picked again blinks for a moment


def check(table, effects, now):
    view = render(table)
    assert len(view.lights) == table.stations and set(view.lights) <= PATTERNS
    assert all(len(line) <= 16 and can_show(line) for line in view.lines), view.lines
    lit = [n for n, p in enumerate(view.lights, start=1) if p in LIT]
    if table.phase is Phase.TURN:
        lit = [n for n, p in enumerate(view.lights, start=1) if p in TURN_LIT]
        # the lit seat alone, or none while the turn waits for a player going out
        waits = table.turn.waits_for == "out"
        assert lit == ([] if waits else [table.turn.seat]) and table.turn.seat in table.in_play
    elif table.phase is not Phase.EXTREME:  # no turns there: lights quicken with the chime
        assert lit == []
    # Places: distinct seated players; a round in play keeps two players in at least.
    assert len(set(table.places)) == len(table.places) and set(table.places) <= table.seated
    if table.phase in ROUND_PHASES and table.places:
        assert table.finish == "places" and len(table.in_play) >= 2
    if table.race is not None:
        assert not table.race.racers & set(table.places)
    assert sum(s.wins for s in table.standings.seats.values()) == table.standings.rounds
    assert all(delivery.cards > 0 for delivery in table.launcher.queue)
    assert table.has_launcher or not table.launcher.queue
    for effect in effects:
        if isinstance(effect, Announce) and effect.type == "penalty":
            assert effect.data["seat"] in table.seated and effect.data["cards"] > 0
            assert effect.data["seat"] not in table.places or table.phase is Phase.ROUND_OVER
        if isinstance(effect, Announce) and effect.type == "dispense":
            assert effect.data["seat"] is None or effect.data["seat"] in table.seated
        if isinstance(effect, Sound):
            assert effect.name in TUNES
    wakeup = next_wakeup(table)
    assert wakeup is None or wakeup > now


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_every_rule_and_replay_exactly(game):
    played = RandomGame(game)
    seen = 0

    def stepped(before, event):
        nonlocal seen
        check(played.table, played.effects[seen:], played.now)
        seen = len(played.effects)

    played.play(stepped)
    for kind in sorted({e.type for e in played.effects if isinstance(e, Announce)}):
        event(kind)
    replayed, effects = replay(played.log, played.new_table(), random.Random(played.seed))
    assert replayed == played.table
    assert effects == played.effects
