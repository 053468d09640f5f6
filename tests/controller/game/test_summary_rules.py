"""The round's summary screens: what a seat's screens say when a figure has no value; and a
round resumed from its snapshot, which keeps the mode it started in."""

import random

from controller.game import Command, Configure, Phase
from controller.game.codec import decode, encode
from controller.remote.payloads import state_snapshot

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


def test_a_resumed_round_keeps_its_mode_when_another_was_chosen_during_it():
    # Table chosen, a round started; Flash chosen for the next one; then a power cut. The
    # round resumes in Table mode: a resume never mixes two modes in one round.
    game = Game({"turn_timer": "off", "sleep_time": "off"}, has_launcher=True, seed=1)
    game.start(1, 2)
    game.feed(Configure(game.table.settings.replace({"mode": "flash"}), game.now))
    game.table = decode(
        encode(game.table, game.now),
        settings=game.table.settings,
        stations=game.stations,
        has_launcher=True,
        now=game.now,
        rng=random.Random(0),
    )
    assert state_snapshot(game.table)["mode"] == "table"
    game.tap("play_pause")  # resume
    assert game.table.phase is Phase.TURN
    assert game.lines[0].startswith("Table")
