"""The score to target_score: after a round is won the points left in the other hands are
entered, once per seat and correctable until the next round starts; the winner's total
grows by their sum; a total at the target wins the game, and the next round starts anew."""

import pytest

from controller.errors import UndecodableSnapshot
from controller.game import Command, Phase
from controller.game.codec import encode
from controller.game.events import HandPoints, SeatName
from controller.game.holds import WIN_HOLD
from controller.game.score import MAX_POINTS, WON_SHOWN, hands, pages, totals, why_not

from .driver import Game

NO_TIMER = {"turn_timer": "off", "sleep_time": "off"}


def go_out(game: Game) -> int:
    """The lit player holds their button until they are out (the round won, or a place
    taken); their seat."""
    seat = game.lit
    game.hold(f"seat{seat}", WIN_HOLD + 0.1)
    return seat


def win(game: Game) -> int:
    """The lit player goes out and wins the round; their seat."""
    winner = go_out(game)
    assert game.table.phase is Phase.ROUND_OVER
    return winner


def points(game: Game, seat: int, entered: int) -> None:
    game.feed(HandPoints(seat, entered, game.now))


def test_the_winners_total_grows_by_the_points_left_in_the_other_hands():
    game = Game(NO_TIMER, seed=1)
    game.start(1, 2, 3)
    winner = win(game)
    a, b = game.others(winner)
    points(game, a, 40)
    points(game, b, 25)
    points(game, a, 35)  # corrected: the hand held 35
    assert totals(game.table) == {winner: 60, a: 0, b: 0}
    [*_, last] = game.announced("points_entered")
    assert last == {
        "seat": a,
        "points": 35,
        "winner": winner,
        "round_points": 60,
        "total": 60,
        "game_won": None,
    }
    game.tap("play_pause")  # the next round: the points are in for good
    assert game.table.score.totals == {winner: 60, a: 0, b: 0}
    assert game.table.score.open is None
    assert why_not(game.table, a) == "no round is waiting for its points"


def test_points_are_refused_for_the_winner_and_for_a_seat_that_did_not_play():
    game = Game(NO_TIMER, seed=1)
    game.start(1, 2)
    winner = win(game)
    points(game, winner, 10)
    points(game, 4, 10)
    assert game.announced("points_entered") == []
    assert why_not(game.table, winner).endswith("won the round: enter the others' points")
    assert why_not(game.table, 4) == "seat 4 did not play the round"


def test_a_total_at_the_target_wins_the_game_and_the_next_round_starts_a_new_one():
    game = Game({**NO_TIMER, "target_score": 100}, seed=1)
    game.seat(1, 2)
    game.feed(SeatName(1, "Anna", game.now))
    game.feed(SeatName(2, "Ben", game.now))
    game.tap("play_pause")
    winner = win(game)
    [loser] = game.others(winner)
    points(game, loser, 60)
    assert game.announced("game_won") == []
    game.tap("play_pause")
    while game.lit != winner:  # the same player wins again: the round is theirs
        game.tap(f"seat{game.lit}")
    win(game)
    mark = game.mark()
    points(game, loser, 45)
    name = game.table.names[winner]
    assert game.announced("game_won", mark) == [
        {
            "seat": winner,
            "name": name,
            "total": 105,
            "target": 100,
            "totals": [
                {"seat": 1, "name": "Anna", "total": 105 if winner == 1 else 0},
                {"seat": 2, "name": "Ben", "total": 105 if winner == 2 else 0},
            ],
        }
    ]
    assert "game_won" in game.sounds(mark)
    assert game.lines == (f"{name} wins", "the game!    105")
    game.tap("play_pause")
    assert game.announced("new_game") == [{"target": 100}]
    assert game.table.score.totals == {}


def test_a_correction_below_the_target_takes_the_win_back():
    game = Game({**NO_TIMER, "target_score": 100}, seed=1)
    game.start(1, 2)
    winner = win(game)
    [loser] = game.others(winner)
    points(game, loser, 120)
    assert game.table.score.won == winner
    points(game, loser, 20)  # a slip of the finger
    assert game.table.score.won is None
    game.tap("play_pause")
    assert game.table.score.totals[winner] == 20


def test_with_the_score_off_no_round_waits_for_points():
    game = Game({**NO_TIMER, "target_score": 0}, seed=1)
    game.start(1, 2)
    winner = win(game)
    [loser] = game.others(winner)
    points(game, loser, 30)
    assert game.table.score.open is None
    assert why_not(game.table, loser) == "the score is off (target_score 0)"
    shown = []
    for _ in range(20):  # every summary page, round again: none asks for points
        game.wait(3.0)
        shown.append(game.lines[0])
    assert "Round over!" in shown
    assert not [line for line in shown if line.startswith("Card points")]


def test_in_a_round_for_places_the_first_place_scores_while_the_others_play_on():
    game = Game({**NO_TIMER, "finish": "places"}, seed=1)
    game.start(1, 2, 3)
    first = go_out(game)
    assert game.table.phase is not Phase.ROUND_OVER  # the round goes on
    other = game.others(first)[0]
    points(game, other, 12)
    assert totals(game.table)[first] == 12


def test_reset_standings_clears_the_score_and_sleep_keeps_it():
    game = Game({"turn_timer": "off", "sleep_time": 1}, seed=1)
    game.start(1, 2)
    winner = win(game)
    [loser] = game.others(winner)
    points(game, loser, 30)
    game.tap("play_pause")
    game.feed(Command("seating", game.now))
    game.wait(61)
    assert game.table.asleep
    assert game.table.score.totals[winner] == 30
    game.tap("seat1")  # wakes it
    game.feed(Command("reset_standings", game.now))
    assert game.table.score.totals == {}


def test_the_score_is_kept_across_a_restart_with_the_points_still_open():
    game = Game({**NO_TIMER, "target_score": 100}, seed=1)
    game.start(1, 2, 3)
    winner = win(game)
    a, b = game.others(winner)
    points(game, a, 70)
    game.resume(encode(game.table, game.now))
    points(game, b, 30)  # still open: the last hand's points after the restart
    assert game.announced("game_won")[0]["total"] == 100
    assert game.table.score.won == winner


def test_every_score_screen_fits_the_lcd():
    game = Game({**NO_TIMER, "target_score": 1000}, stations=8, seed=1)
    game.seat(*range(1, 9))
    for seat in range(1, 9):
        game.feed(SeatName(seat, "Maximilianus", game.now))
    game.tap("play_pause")
    winner = win(game)
    for seat in game.others(winner):
        points(game, seat, 999)
    for _ in range(40):
        game.wait(3.0)
        assert all(len(line) <= 16 for line in game.lines), game.lines


def test_a_first_place_brought_back_scores_nothing_and_the_next_first_place_scores():
    game = Game({**NO_TIMER, "finish": "places"}, seed=1)
    game.start(1, 2, 3)
    first = go_out(game)
    other = game.others(first)[0]
    points(game, other, 12)
    game.feed(Command("bring_back", game.now, first))  # out by mistake
    assert game.table.score.open is None
    assert totals(game.table) == {}
    game.wait(3.0)
    second = go_out(game)
    assert game.table.score.open.winner == second
    points(game, first, 30)
    assert totals(game.table)[second] == 30


def test_each_entry_sounds_and_the_winner_and_the_hands_left_are_named():
    game = Game(NO_TIMER, seed=1)
    game.seat(1, 2, 3)
    game.feed(SeatName(1, "Anna", game.now))
    game.tap("play_pause")
    winner = win(game)
    a, b = game.others(winner)
    assert hands(game.table) == ((a, None), (b, None))
    mark = game.mark()
    points(game, a, 40)
    assert game.sounds(mark) == ["points"]
    assert hands(game.table) == ((a, 40), (b, None))
    name = "Anna" if winner == 1 else f"Seat {winner}"
    assert why_not(game.table, winner) == f"{name} won the round: enter the others' points"


def test_with_the_score_off_no_hand_waits_for_its_points():
    game = Game({**NO_TIMER, "target_score": 0}, seed=1)
    game.start(1, 2)
    win(game)
    assert hands(game.table) == ()


def test_entering_points_is_someone_at_the_table_for_the_sleep_timer():
    game = Game({"turn_timer": "off", "sleep_time": 1}, seed=1)
    game.start(1, 2)
    winner = win(game)
    [loser] = game.others(winner)
    game.wait(50.0)
    points(game, loser, 30)
    game.wait(59.9)  # 109.9 s after the last press, a minute after the entry all but a moment
    assert not game.table.asleep
    game.wait(0.2)
    assert game.table.asleep


def test_a_correction_of_a_game_won_that_stays_won_is_not_won_again():
    game = Game({**NO_TIMER, "target_score": 100}, seed=1)
    game.start(1, 2)
    winner = win(game)
    [loser] = game.others(winner)
    points(game, loser, 120)
    mark = game.mark()
    points(game, loser, 130)
    assert game.announced("game_won", mark) == []
    assert game.sounds(mark) == ["points"]
    assert game.table.score.won == winner


def test_a_game_won_by_a_player_with_no_name_announces_an_empty_name():
    game = Game({**NO_TIMER, "target_score": 100}, seed=1)
    game.start(1, 2)
    winner = win(game)
    [loser] = game.others(winner)
    points(game, loser, 100)
    [won] = game.announced("game_won")
    assert won["name"] == ""
    assert {entry["name"] for entry in won["totals"]} == {""}


def test_the_lcd_says_who_won_the_game_for_its_time_then_goes_back():
    game = Game({**NO_TIMER, "target_score": 100}, seed=1)
    game.start(1, 2)
    winner = win(game)
    [loser] = game.others(winner)
    points(game, loser, 100)
    said = (f"Seat {winner} wins", "the game!    100")
    assert game.lines == said
    game.wait(WON_SHOWN - 0.1)
    assert game.lines == said
    game.wait(0.2)
    assert game.lines != said


def test_in_a_round_for_places_the_points_entered_stay_as_the_others_finish():
    game = Game({**NO_TIMER, "finish": "places"}, seed=1)
    game.start(1, 2, 3)
    first = go_out(game)
    points(game, game.others(first)[0], 12)
    game.wait(3.0)
    while game.table.phase is not Phase.ROUND_OVER:  # the others go out in turn
        go_out(game)
        game.wait(3.0)
    assert game.table.score.open.winner == first
    assert totals(game.table)[first] == 12


def test_a_place_brought_back_behind_the_first_leaves_the_first_scoring():
    game = Game({**NO_TIMER, "finish": "places"}, seed=1)
    game.start(1, 2, 3, 4)
    first = go_out(game)
    game.wait(3.0)
    second = go_out(game)
    points(game, second, 12)
    game.feed(Command("bring_back", game.now, second))
    assert game.table.score.open.winner == first
    assert totals(game.table)[first] == 12


def test_a_first_place_brought_back_hands_the_round_to_the_second_and_its_game_won_back():
    game = Game({**NO_TIMER, "finish": "places", "target_score": 100}, seed=1)
    game.start(1, 2, 3, 4)
    first = go_out(game)
    game.wait(3.0)
    second = go_out(game)
    points(game, second, 120)
    assert game.table.score.won == first
    game.feed(Command("bring_back", game.now, first))  # out by mistake
    assert game.table.score.won is None
    assert game.table.score.open.winner == second
    assert hands(game.table) == tuple((s, None) for s in sorted({1, 2, 3, 4} - {second}))


@pytest.mark.parametrize(("entered", "read"), [(MAX_POINTS, True), (MAX_POINTS + 1, False)])
def test_a_snapshot_keeps_a_hands_points_up_to_the_most_one_may_hold(entered, read):
    game = Game(NO_TIMER, seed=1)
    game.start(1, 2, 3)
    winner = win(game)
    a, _ = game.others(winner)
    points(game, a, 10)
    snapshot = encode(game.table, game.now)
    snapshot["score"]["open"]["points"][str(a)] = entered
    if read:
        game.resume(snapshot)
        assert game.table.score.open.points[a] == MAX_POINTS
    else:
        with pytest.raises(UndecodableSnapshot):
            game.resume(snapshot)


def test_the_score_screens_tell_the_points_to_enter_the_totals_and_the_game_won():
    game = Game({**NO_TIMER, "target_score": 100}, seed=1)
    game.seat(1, 2, 3)
    game.feed(SeatName(1, "Maximilianus", game.now))
    game.tap("play_pause")
    assert win(game) == 1

    def totals_at(first: int) -> tuple[tuple[str, str], ...]:
        """The totals, two to a screen, the leader first: the name cut to 11 columns."""
        return ((f"Maximilianu{first:>5}", "Seat 2         0"), ("Seat 3         0", ""))

    assert pages(game.table) == (("Card points    0", "2 to enter"), *totals_at(0))
    points(game, 2, 40)
    assert pages(game.table) == (("Card points   40", "1 to enter"), *totals_at(40))
    points(game, 3, 20)
    assert pages(game.table) == (("Card points   60", "all entered"), *totals_at(60))
    game.tap("play_pause")
    assert pages(game.table) == (("Game to 100", "totals:"), *totals_at(60))
    while game.lit != 1:
        game.tap(f"seat{game.lit}")
    win(game)
    points(game, 2, 60)
    assert pages(game.table) == (("Maximilianu wins", "the game!    120"), *totals_at(120))


def test_the_totals_add_up_round_after_round_and_show_the_leader_first():
    game = Game({**NO_TIMER, "target_score": 500}, seed=1)
    game.start(1, 2, 3)
    for entered in (30, 20):
        while game.lit != 3:
            game.tap(f"seat{game.lit}")
        win(game)
        points(game, 1, entered)
        points(game, 2, 0)
        game.tap("play_pause")  # the next round: the last one's points are in for good
    assert game.table.score.totals == {1: 0, 2: 0, 3: 50}
    assert pages(game.table)[1:] == (
        ("Seat 3        50", "Seat 1         0"),
        ("Seat 2         0", ""),
    )


def test_a_game_won_with_every_hand_entered_resumes_won():
    game = Game({**NO_TIMER, "target_score": 100}, seed=1)
    game.start(1, 2)
    winner = win(game)
    [loser] = game.others(winner)
    points(game, loser, 120)
    game.resume(encode(game.table, game.now))
    assert game.table.score.won == winner
    assert game.table.score.open.points == {loser: 120}


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("points for the winner", "card points {opened!r} no round leaves"),
        ("won with no round open", "a game won by seat {won}, not the round's winner"),
        ("won by another", "a game won by seat {won}, not the round's winner"),
    ],
)
def test_a_snapshot_whose_score_no_game_leaves_is_refused_saying_why(damage, said):
    game = Game({**NO_TIMER, "target_score": 100}, seed=1)
    game.start(1, 2, 3)
    winner = win(game)
    a, _ = game.others(winner)
    points(game, a, 120)
    snapshot = encode(game.table, game.now)
    kept = snapshot["score"]
    if damage == "points for the winner":
        kept["open"]["points"][str(winner)] = 5
    elif damage == "won with no round open":
        kept["open"] = None
    else:
        kept["won"] = a
    with pytest.raises(UndecodableSnapshot) as refused:
        game.resume(snapshot)
    assert str(refused.value) == said.format(opened=kept["open"], won=kept["won"])
