"""A change of mode during a round waits for the next round: the LCD, the turns, the
penalties and the launcher agree on the mode the round started in, at every moment, and the
LCD says when the new one begins."""

from controller.game import Command, Configure, Phase
from controller.game.launch import CHIME_TIME

from .driver import Game


def change_mode(game: Game, mode: str, *, from_menu: bool = True) -> None:
    if from_menu:
        game.feed(Command("menu_opened", game.now))
    game.feed(Configure(game.table.settings.replace({"mode": mode}), game.now))
    if from_menu:
        game.feed(Command("menu_closed", game.now))


def test_extreme_chosen_in_a_table_round_waits_for_the_next_round():
    game = Game({"turn_timer": 4, "timeout_penalty": 2}, has_launcher=True, seed=3)
    game.start(1, 2, 3)
    change_mode(game, "extreme")
    assert game.lines == ("Extreme from", "next round")
    game.wait(3.2)  # the message is gone: the round plays on in Table mode
    assert game.lines[0].startswith("Table")
    mark = game.mark()
    game.wait(1.0)  # the turn runs out: Table mode's penalty, from the launcher
    assert sum(d["cards"] for d in game.announced("dispense", mark)) == 2
    while game.table.phase is not Phase.TURN:  # the timeout's notice
        game.wait(0.5)
    game.hold(f"seat{game.lit}", 2.0)  # the round is won
    assert game.table.phase is Phase.ROUND_OVER
    game.tap("play_pause")  # the next round is Extreme's
    assert game.table.phase is Phase.EXTREME
    assert game.lines[0].startswith("Extreme")
    mark = game.mark()
    game.tap("launcher")
    game.wait(CHIME_TIME)
    assert game.announced("hit", mark)


def test_table_chosen_in_an_extreme_round_waits_for_the_next_round():
    game = Game({"mode": "extreme"}, has_launcher=True, seed=3)
    game.seat(1, 2)
    game.tap("play_pause")
    assert game.table.phase is Phase.EXTREME
    change_mode(game, "table", from_menu=False)  # from MQTT: no menu
    assert game.lines == ("Table from", "next round")
    game.wait(3.5)
    assert game.lines[0].startswith("Extreme")
    mark = game.mark()
    game.tap("launcher")  # still Extreme's round: the launcher fires as Extreme's
    game.wait(CHIME_TIME)
    assert game.announced("hit", mark)
    game.feed(Command("new_round", game.now))  # the round ends, with its summary
    assert game.table.phase is Phase.ROUND_OVER
    game.tap("play_pause")
    assert game.table.phase is Phase.TURN  # Table mode: turns
    assert game.lines[0].startswith("Table")


def test_a_change_back_before_the_round_ends_says_nothing():
    game = Game({"turn_timer": 4}, has_launcher=True, seed=3)
    game.start(1, 2)
    change_mode(game, "flash")
    change_mode(game, "table")
    assert game.lines[0].startswith("Table")
    assert not game.table.mode_waits
