"""Every game is its event log: replaying it from the seed gives the same table and effects."""

import random

from controller.game import Configure, Press, new_table, replay

from .driver import Game


def a_whole_game() -> Game:
    game = Game({"turn_timer": "surprise", "jump_in": "on", "picker": "fair"}, seed=99)
    game.start(1, 2, 3)
    for _ in range(5):
        game.tap(f"seat{game.lit}")
    game.wait(9)  # a surprise timeout
    slapper = game.lit
    game.press("slap")
    t = game.now
    a, b = game.others(slapper)
    game.feed(Press(f"seat{b}", t + 0.3004), t + 0.4)
    game.feed(Press(f"seat{a}", t + 0.3), t + 0.4)  # a tie, handled in reverse
    game.wait(8)
    game.hold(f"seat{game.others(game.lit)[0]}", 0.8)  # a Jump-In
    game.feed(Configure(game.settings.replace({"turn_timer": 4}), game.now))
    game.tap("play_pause")
    game.tap("play_pause")
    game.tap(f"seat{game.lit}")
    game.wait(20)
    game.hold("seat2", 2.0)
    game.wait(10)
    return game


def test_replaying_the_log_gives_the_same_state_and_effects():
    game = a_whole_game()
    table, effects = replay(
        game.log, new_table(game.settings, game.stations), random.Random(game.seed)
    )
    assert table == game.table
    assert effects == game.effects
    assert game.announced("round_over")  # the game went everywhere it should


def test_a_different_seed_is_a_different_game():
    game = a_whole_game()
    _, effects = replay(
        game.log, new_table(game.settings, game.stations), random.Random(game.seed + 1)
    )
    assert effects != game.effects


def test_a_settings_change_in_the_log_applies_from_the_next_turn():
    game = Game({"turn_timer": 6})
    game.start(1, 2)
    game.feed(Configure(game.settings.replace({"turn_timer": 9}), game.now))
    turn = game.table.turn
    assert turn.deadline - turn.started == 6
    game.tap(f"seat{game.lit}")
    turn = game.table.turn
    assert turn.deadline - turn.started == 9
