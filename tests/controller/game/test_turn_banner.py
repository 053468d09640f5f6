"""A seat picked again is named, and blinks, for the banner's time only; then it pulses like
any lit seat (SPEC 2.2: the lit player's button pulses)."""

from controller.game.turns import BANNER_TIME

from .driver import Game


def repeat_pick() -> Game:
    """A game whose last turn went to the seat that had just played."""
    for seed in range(100):
        game = Game({"picker": "classic"}, seed=seed, stations=2)
        game.start(1, 2)
        for _ in range(6):
            before = game.lit
            game.wait(0.5)
            game.tap(f"seat{before}")
            if game.lit == before:
                return game
    raise AssertionError("no repeat pick in 100 games")


def test_a_repeat_pick_blinks_and_is_named_then_pulses():
    game = repeat_pick()
    seat, started = game.lit, game.table.turn.started
    assert game.light(seat) == "blink"
    assert game.lines[0] == f"Seat {seat} again!"
    game.run_until(started + BANNER_TIME - 0.001)
    assert game.light(seat) == "blink"
    game.run_until(started + BANNER_TIME)
    assert game.light(seat) == "pulse"
    assert "again" not in game.lines[0]


def test_a_turns_time_is_kept_to_the_millisecond():
    game = Game(seed=0)
    seat = game.start(1, 2)
    started = game.table.turn.started
    game.press(f"seat{seat}", started + 1.23456)
    [ended] = game.announced("turn_ended")
    assert ended == {"seat": seat, "seconds": 1.235}
