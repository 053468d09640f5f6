"""Playing on for places (finish = places): a 2 s hold takes the next place, the player out is
never picked again and races no more, the last player left takes the last place, and a
player out by mistake is brought back. With finish = first a hold still ends the round."""

import pytest

from controller.errors import UndecodableSnapshot
from controller.game import Command, Configure, Phase
from controller.game.codec import encode
from controller.game.holds import JUMP_HOLD, OUT_HINT, WIN_HOLD
from controller.game.places import ROUND_BANNER, out_now
from controller.game.summary import PAGE_TIME
from controller.game.turns import BANNER_TIME

from .driver import Game

PLACES = {"finish": "places", "turn_timer": "off"}


def out(game: Game, seat: int) -> list:
    """`seat` holds their button long enough to go out; the effects of that."""
    return game.hold(f"seat{seat}", WIN_HOLD + 0.1)


def test_a_two_second_hold_takes_first_place_and_the_round_goes_on():
    game = Game(PLACES, seed=2)
    lit = game.start(1, 2, 3, 4)
    leaving = game.others(lit)[0]
    mark = game.mark()
    game.press(f"seat{leaving}")
    game.wait(WIN_HOLD - 0.01)
    assert game.announced("place_taken", mark) == []
    game.wait(0.01)
    still_in = sorted({1, 2, 3, 4} - {leaving})
    assert game.announced("place_taken", mark) == [
        {"seat": leaving, "place": 1, "still_in": still_in}
    ]
    assert game.sounds(mark) == ["place"]
    assert game.table.phase is Phase.TURN and game.table.places == (leaving,)
    assert game.lines[0] == f"Seat {leaving} 1st place"
    assert game.lines[1].startswith(f"Seat {lit} turn")  # whose turn it is stays in sight
    assert game.light(leaving) == "on"
    game.release(f"seat{leaving}")
    game.wait(2.0)
    assert game.lines[0] == "Table   no timer"  # the place was named for a moment


@pytest.mark.parametrize("picker", ["classic", "fair"])
def test_the_turns_never_reach_a_player_who_is_out(picker):
    game = Game({**PLACES, "picker": picker}, seed=5)
    game.start(1, 2, 3)
    leaving = game.others(game.lit)[0]
    out(game, leaving)
    mark = game.mark()
    for _ in range(200):
        assert game.light(leaving) == "on"
        game.tap(f"seat{game.lit}")
    picked = {started["seat"] for started in game.announced("turn_started", mark)}
    assert picked == {1, 2, 3} - {leaving}


def test_a_player_who_is_out_has_no_turn_no_jump_in_and_no_second_place():
    game = Game({**PLACES, "jump_in": "on"}, seed=3)
    lit = game.start(1, 2, 3)
    leaving = game.others(lit)[0]
    out(game, leaving)
    mark = game.mark()
    game.tap(f"seat{leaving}")
    out(game, leaving)
    assert game.announced("jump_in", mark) == []
    assert game.announced("place_taken", mark) == []
    assert game.table.places == (leaving,) and game.lit == lit


def jumped_in_with_the_last_card() -> tuple[Game, int]:
    """A Jump-In with the last card: the turn has moved to the player who held on (0.6 s),
    whose hold goes on to a place (2 s)."""
    game = Game({**PLACES, "jump_in": "on"}, seed=4)
    lit = game.start(1, 2, 3)
    jumper = game.others(lit)[0]
    game.press(f"seat{jumper}")
    game.wait(JUMP_HOLD + 0.01)
    assert game.lit == jumper
    return game, jumper


def test_a_hold_that_outlasts_its_own_turn_hands_the_turn_on():
    """A Jump-In with the last card: the turn moves to the player at 0.6 s, and at 2 s they
    are out, so it goes on to a player still in."""
    game, jumper = jumped_in_with_the_last_card()
    game.wait(WIN_HOLD - JUMP_HOLD)
    assert game.table.places == (jumper,)
    assert game.table.phase is Phase.TURN and game.lit != jumper
    assert game.lines[0] == f"Seat {jumper} 1st place"


def test_the_last_player_left_takes_the_last_place_and_the_round_is_over():
    game = Game(PLACES, seed=6)
    lit = game.start(1, 2, 3)
    first, second = game.others(lit)
    out(game, first)
    mark = game.mark()
    out(game, second)
    assert game.announced("place_taken", mark) == [
        {"seat": second, "place": 2, "still_in": [lit]},
        {"seat": lit, "place": 3, "still_in": []},
    ]
    assert game.table.phase is Phase.ROUND_OVER
    assert game.sounds(mark) == ["fanfare"]
    [over] = game.announced("round_over", mark)
    assert over["winner"] == first and over["places"] == [first, second, lit]
    assert game.lines == ("Round over!", f"Seat {first} wins!")
    game.wait(PAGE_TIME)
    assert game.lines == (f"1st       Seat {first}", f"2nd       Seat {second}")
    game.wait(PAGE_TIME)
    assert game.lines == (f"3rd       Seat {lit}", "")


def test_each_seats_summary_screens_say_its_place():
    game = Game(PLACES, seed=6)
    lit = game.start(1, 2, 3)
    first, second = game.others(lit)
    out(game, first)
    out(game, second)
    game.tap(f"seat{second}")  # jumps to that seat's screens
    screens = [game.lines]
    for _ in range(2):
        game.wait(PAGE_TIME)
        screens.append(game.lines)
    assert screens[2] == (f"Seat {second} 2nd place", "SLAP           -")
    assert all(len(line) <= 16 for lines in screens for line in lines)


def test_a_slap_race_goes_on_without_the_players_out():
    game = Game({**PLACES, "slap_window": 2}, seed=7)
    lit = game.start(1, 2, 3, 4)
    gone = game.others(lit)[:2]
    for seat in gone:
        out(game, seat)
    slapper = game.lit
    [racer] = game.others(slapper, *gone)
    mark = game.mark()
    game.tap("slap")
    [started] = game.announced("slap_started", mark)
    assert started["racers"] == [racer]
    for seat in gone:
        game.tap(f"seat{seat}")  # no race press: they are out
        assert game.light(seat) == "on"
    assert game.light(racer) == "blink"
    game.tap(f"seat{racer}")
    game.wait(2.0)
    [result] = game.announced("slap_result", mark)
    assert [place["seat"] for place in result["order"]] == [racer]
    assert result["slowest"] == [racer]  # the only racer is the slowest too
    assert game.table.stats[racer].slap.presses == 1


def test_a_player_brought_back_plays_again_and_the_places_after_move_up():
    game = Game(PLACES, seed=8)
    lit = game.start(1, 2, 3, 4)
    first, second = game.others(lit)[:2]
    out(game, first)
    out(game, second)
    mark = game.mark()
    game.feed(Command("bring_back", game.now, first))
    assert game.announced("player_back", mark) == [{"seat": first, "places": [second]}]
    assert game.table.places == (second,)
    assert game.light(first) == "dim"
    assert game.lines[0] == f"Seat {first} is back"
    picked = set()
    for _ in range(100):
        game.tap(f"seat{game.lit}")
        picked.add(game.lit)
    assert first in picked and second not in picked
    out(game, first)
    assert game.table.places == (second, first)  # second is first now


def test_bringing_back_a_player_who_is_not_out_or_between_rounds_changes_nothing():
    game = Game(PLACES, seed=8)
    lit = game.start(1, 2, 3)
    before = game.table
    game.feed(Command("bring_back", game.now, lit))
    assert game.table.places == before.places and game.announced("player_back") == []
    first, second = game.others(lit)
    out(game, first)
    out(game, second)
    game.feed(Command("bring_back", game.now, first))
    assert game.table.phase is Phase.ROUND_OVER and game.announced("player_back") == []


def test_timers_handicaps_and_pauses_go_on_with_fewer_players():
    game = Game(
        {"finish": "places", "turn_timer": "surprise", "handicap_seat3": 4, "sleep_time": "off"},
        seed=9,
    )
    lit = game.start(1, 2, 3)
    leaving = game.others(lit, 3)[0] if lit != 3 else game.others(lit)[0]
    out(game, leaving)
    for _ in range(20):
        turn = game.table.turn
        limit = turn.deadline - turn.started
        assert 3 <= limit - (4 if turn.seat == 3 else 0) <= 8
        game.tap("play_pause")
        assert game.table.phase is Phase.PAUSED and game.light(leaving) == "dim"
        game.wait(30)
        game.tap("play_pause")
        assert game.light(leaving) == "on"
        game.wait(limit + 0.5)  # the time runs out: the penalty screen, then the next turn
        while game.table.phase is not Phase.TURN:
            game.wait(0.5)
    timed_out = {timeout["seat"] for timeout in game.announced("timeout")}
    assert leaving not in timed_out and timed_out


def test_in_extreme_a_player_out_is_dim_and_the_last_one_left_ends_the_round():
    game = Game({"mode": "extreme", "finish": "places"}, has_launcher=True)
    game.seat(1, 2, 3)
    game.tap("play_pause")
    assert game.table.phase is Phase.EXTREME
    out(game, 2)
    assert [game.light(seat) for seat in (1, 2, 3)] == ["on", "dim", "on"]
    out(game, 3)
    assert game.table.phase is Phase.ROUND_OVER and game.table.places == (2, 3, 1)


def test_with_finish_first_a_hold_still_ends_the_round_with_its_winner():
    game = Game({"turn_timer": "off"}, seed=1)
    lit = game.start(1, 2, 3)
    winner = game.others(lit)[0]
    mark = game.mark()
    out(game, winner)
    assert game.table.phase is Phase.ROUND_OVER
    [over] = game.announced("round_over", mark)
    assert (over["winner"], over["places"]) == (winner, [])
    assert game.announced("place_taken", mark) == []
    assert game.lines == ("Round over!", f"Seat {winner} wins!")


def test_a_change_of_finish_during_a_round_waits_for_the_next():
    game = Game({"turn_timer": "off"}, seed=1)
    lit = game.start(1, 2, 3)
    game.feed(Configure(game.table.settings.replace({"finish": "places"}), game.now))
    assert game.lines == ("Finish: places", "from next round")
    out(game, game.others(lit)[0])
    assert game.table.phase is Phase.ROUND_OVER  # this round was for the first out
    game.tap("play_pause")
    lit = game.lit
    out(game, game.others(lit)[0])
    assert game.table.phase is Phase.TURN and len(game.table.places) == 1


def test_a_round_for_places_ended_from_the_menu_is_won_by_the_first_out():
    game = Game(PLACES, seed=2)
    lit = game.start(1, 2, 3, 4)
    first = game.others(lit)[0]
    out(game, first)
    mark = game.mark()
    game.feed(Command("new_round", game.now))
    [over] = game.announced("round_over", mark)
    assert over["winner"] == first and over["places"] == [first]
    assert game.sounds(mark) == ["round_ended"]
    assert game.lines == ("Round ended", f"Seat {first} wins!")


def test_a_place_taken_in_extreme_is_named_with_how_many_are_still_in_for_two_seconds():
    game = Game({"mode": "extreme", "finish": "places"}, has_launcher=True)
    game.seat(1, 2, 3)
    game.tap("play_pause")
    game.press("seat2")
    taken = game.now + WIN_HOLD
    game.run_until(taken)
    assert game.table.places == (2,)
    assert game.lines == ("Seat 2 1st place", "2 still in")
    game.run_until(taken + 1.99)
    assert game.lines == ("Seat 2 1st place", "2 still in")
    game.run_until(taken + 2.0)
    assert game.lines[0] != "Seat 2 1st place"


def test_a_player_brought_back_is_named_for_two_seconds():
    game = Game(PLACES, seed=8)
    lit = game.start(1, 2, 3, 4)
    first = game.others(lit)[0]
    out(game, first)
    back = game.now + 1.0
    game.feed(Command("bring_back", back, first))
    assert game.lines == (f"Seat {first} is back", "in the round")
    game.run_until(back + 1.99)
    assert game.lines == (f"Seat {first} is back", "in the round")
    game.run_until(back + 2.0)
    assert game.lines[0] != f"Seat {first} is back"


def test_between_rounds_no_player_is_out():
    """The menu offers to bring back only a player out of the round in play."""
    game = Game(PLACES, seed=8)
    lit = game.start(1, 2, 3)
    first, second = game.others(lit)
    out(game, first)
    assert out_now(game.table) == (first,)
    out(game, second)
    assert game.table.phase is Phase.ROUND_OVER
    assert out_now(game.table) == ()


def test_a_place_that_hands_the_turn_on_sounds_the_place_alone():
    """One moment, one tune: the player out's hold outlasted their own turn, and the next
    player is lit to the place's tune, not to a turn's as well."""
    game, jumper = jumped_in_with_the_last_card()
    mark = game.mark()
    game.wait(WIN_HOLD - JUMP_HOLD)
    assert game.table.places == (jumper,) and game.lit != jumper
    assert game.sounds(mark) == ["place"]


def test_a_round_for_places_says_so_as_it_starts_and_a_round_for_first_does_not():
    game = Game(PLACES, seed=2)
    lit = game.start(1, 2, 3)
    assert game.lines == (ROUND_BANNER, game.lines[1])
    assert game.lines[1].startswith(f"Seat {lit} turn") and len(ROUND_BANNER) <= 16
    game.wait(BANNER_TIME)
    assert game.lines[0] != ROUND_BANNER
    first = Game({**PLACES, "finish": "first"}, seed=2)
    first.start(1, 2, 3)
    assert first.lines[0] != ROUND_BANNER


def passed_on() -> tuple[Game, int, int]:
    """A game where the lit player's press has just handed the turn to another player, and
    they hold on: the game, the player holding, the player whose turn it is now."""
    for seed in range(20):
        game = Game({"finish": "first", "turn_timer": 6}, seed=seed)
        lit = game.start(1, 2, 3)
        game.press(f"seat{lit}")  # ends the turn, lights the next one, and holds on
        if game.table.turn.seat != lit:
            return game, lit, game.table.turn.seat
    raise AssertionError("every seed picked the same player again")


def test_holding_on_to_go_out_makes_the_next_turn_wait_from_the_hint_and_names_the_player():
    game, holder, nxt = passed_on()
    assert game.light(nxt) == "pulse"
    game.wait(OUT_HINT)
    assert game.lines[0] == f"Seat {holder} going out" and game.light(nxt) == "dim"
    assert game.lines[1].startswith(f"Seat {nxt} wait")
    game.wait(WIN_HOLD - OUT_HINT)
    assert game.table.phase is Phase.ROUND_OVER
    assert game.lines == ("Round over!", f"Seat {holder} wins!")


def test_letting_go_before_the_round_ends_gives_the_next_turn_the_time_it_had():
    game, holder, nxt = passed_on()
    game.wait(1.5)
    game.release(f"seat{holder}")
    assert game.light(nxt) == "pulse" and game.lines[0] != f"Seat {holder} going out"
    left = game.table.turn.deadline - game.now
    assert left == pytest.approx(6.0 - OUT_HINT)  # only the hint's 0.6 s went by
    game.wait(left)
    assert [t["seat"] for t in game.announced("timeout")] == [nxt]


def test_a_snapshot_with_the_turn_of_a_player_who_is_out_is_refused():
    """docs/state.md: a snapshot no game writes is refused whole, not resumed into a round
    that lights a player who has finished."""
    game = Game(PLACES, seed=2)
    lit = game.start(1, 2, 3, 4)
    leaving = game.others(lit)[0]
    out(game, leaving)
    written = encode(game.table, game.now)
    game.resume(written)  # as written, it resumes
    written["turn"]["seat"] = leaving
    with pytest.raises(UndecodableSnapshot, match=f"a turn of seat {leaving}, out with a place"):
        game.resume(written)
