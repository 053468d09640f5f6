"""The round's summary screens: what a seat's screens say when a figure has no value."""

from controller.game import Command, Phase

from .driver import Game


def test_a_seat_that_ended_no_turn_shows_a_dash_for_its_average_turn():
    # The round is ended from the menu before the first player pressed: no seat ended a turn,
    # so no seat has an average turn time to show.
    game = Game({"turn_timer": "off", "sleep_time": "off"}, seed=1)
    game.start(1, 2)
    game.wait(5.0)
    game.feed(Command("new_round", game.now))
    assert game.table.phase is Phase.ROUND_OVER
    [over] = game.announced("round_over")
    assert [(s["seat"], s["turns"], s["average_turn"]) for s in over["seats"]] == [
        (1, 0, None),
        (2, 0, None),
    ]
    for seat in (1, 2):
        game.tap(f"seat{seat}", hold=0.05)  # a seated press brings up that seat's screens
        assert game.lines == (f"Seat {seat}" + " " * 3 + "0 turns", "avg turn" + " " * 7 + "-")
