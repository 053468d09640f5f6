"""The round ends on a 2 s hold: "Round over", a fanfare, and a summary per seat."""

import pytest

from controller.game import Phase
from controller.game.holds import WIN_HOLD
from controller.game.summary import PAGE_TIME

from .driver import Game


def played_round() -> tuple[Game, dict[int, list[float]]]:
    """Seats 1 and 3 take turns of known length, one times out, one slaps. (game, turn times)"""
    game = Game({"turn_timer": 6, "picker": "fair"}, seed=3)
    game.start(1, 3)
    times: dict[int, list[float]] = {1: [], 3: []}
    for seconds in (1.0, 2.0, 3.0, 1.5):
        seat = game.lit
        game.press(f"seat{seat}", game.table.turn.started + seconds)
        game.release(f"seat{seat}", game.now + 0.1)
        times[seat].append(seconds)
    timed_out = game.lit
    game.wait(6.0 + 2.5)  # the timeout and its notice
    times[timed_out].append(6.0)
    slapper = game.lit
    game.press("slap", game.table.turn.started + 2.0)
    times[slapper].append(2.0)
    game.wait(3.0 + 2 * 2.0)  # nobody races: the other seat is slowest
    return game, times


def test_a_two_second_hold_ends_the_round_with_a_fanfare():
    game, _ = played_round()
    winner = game.lit
    pressed = game.now + 0.5
    game.press(f"seat{winner}", pressed)
    game.run_until(pressed + WIN_HOLD - 0.001)
    assert game.table.phase is Phase.TURN
    mark = game.mark()
    game.run_until(pressed + WIN_HOLD)
    assert game.table.phase is Phase.ROUND_OVER
    assert game.sounds(mark) == ["fanfare"]
    assert game.lines == ("Round over!", f"Seat {winner} wins!")
    assert game.light(winner) == "blink"
    [over] = game.announced("round_over", mark)
    assert over["winner"] == winner
    assert [s["seat"] for s in over["seats"]] == [1, 3]


def test_the_summary_shows_each_seats_statistics_one_screen_at_a_time():
    game, times = played_round()
    winner = game.lit
    # The winner's press ends their last turn, then the hold ends the round.
    times[winner].append(game.now - game.table.turn.started)
    game.hold(f"seat{winner}", 2.5)
    over = game.announced("round_over")[0]
    stats = {s["seat"]: s for s in over["seats"]}
    for seat in (1, 3):
        assert stats[seat]["turns"] == len(times[seat])
        assert stats[seat]["average_turn"] == pytest.approx(
            sum(times[seat]) / len(times[seat]), abs=0.002
        )
        assert stats[seat]["launcher_cards"] == 0
    assert sum(s["timeouts"] for s in stats.values()) == 1
    assert sum(s["slaps_lost"] for s in stats.values()) == 1

    screens = [game.lines]
    for _ in range(15):
        game.wait(PAGE_TIME)
        screens.append(game.lines)
    s1, s3 = stats[1], stats[3]
    loser = 4 - winner
    # Nobody raced the one slap: no reaction time, and no places with finish = first.
    assert screens == [
        ("Round over!", f"Seat {winner} wins!"),
        (f"Seat 1 {s1['turns']:>3} turns", f"avg turn {s1['average_turn']:>6.1f}s"),
        ("Seat 1    late " + str(s1["timeouts"]), f"slaps {s1['slaps_lost']}  cards 0"),
        ("Seat 1" + ("winner" if winner == 1 else "").rjust(10), "SLAP           -"),
        (f"Seat 3 {s3['turns']:>3} turns", f"avg turn {s3['average_turn']:>6.1f}s"),
        ("Seat 3    late " + str(s3["timeouts"]), f"slaps {s3['slaps_lost']}  cards 0"),
        ("Seat 3" + ("winner" if winner == 3 else "").rjust(10), "SLAP           -"),
        # The score to 500: the loser's card points wait, the totals the leader first.
        ("Card points    0", "1 to enter"),
        (f"Seat {min(winner, loser)}         0", f"Seat {max(winner, loser)}         0"),
        ("Standings after", "1 round"),
        ("Seat 1   1 round", f"wins {int(winner == 1)}   place -"),
        ("Seat 1    late " + str(s1["timeouts"]), "SLAP           -"),
        ("Seat 3   1 round", f"wins {int(winner == 3)}   place -"),
        ("Seat 3    late " + str(s3["timeouts"]), "SLAP           -"),
        ("Play/Pause:", "new round"),
        ("Round over!", f"Seat {winner} wins!"),  # and round again
    ]


def test_the_shown_seat_is_lit_and_a_seat_press_jumps_to_its_screens():
    game = Game(seed=1)
    game.start(1, 2, 3)
    game.hold("seat2", 2.0)
    assert game.table.phase is Phase.ROUND_OVER
    game.tap("seat3")
    assert game.lines[0].startswith("Seat 3")
    assert game.light(3) == "on"
    game.wait(PAGE_TIME)
    assert game.lines[0] == "Seat 3    late 0"
    assert game.light(3) == "on"
    game.tap("seat4")  # not seated: nothing
    assert game.lines[0] == "Seat 3    late 0"


def test_a_shorter_hold_does_not_end_the_round():
    game = Game()
    lit = game.start(1, 2)
    game.hold(f"seat{game.others(lit)[0]}", 1.99)
    game.wait(5)
    assert game.table.phase is not Phase.ROUND_OVER


def test_any_seated_player_may_end_the_round_but_nobody_else():
    game = Game({"turn_timer": "off"})
    lit = game.start(1, 2, 3)
    game.hold("seat4", 3.0)
    assert game.table.phase is Phase.TURN
    other = game.others(lit)[0]
    game.hold(f"seat{other}", 2.0)
    assert game.table.phase is Phase.ROUND_OVER
    assert game.table.summary.winner == other


def test_the_round_can_end_during_a_timeout_notice():
    game = Game({"turn_timer": 2})
    lit = game.start(1, 2)
    game.wait(2.0)
    assert game.table.phase is Phase.NOTICE
    game.hold(f"seat{lit}", 2.0)
    assert game.table.phase is Phase.ROUND_OVER


def test_a_hold_that_spans_a_pause_does_not_count():
    game = Game({"turn_timer": "off"})
    game.start(1, 2)
    game.press("seat1")
    game.tap("play_pause")
    game.tap("play_pause")
    game.wait(3.0)
    assert game.table.phase is Phase.TURN


def test_a_new_round_keeps_the_seats_and_starts_fresh():
    game = Game({"turn_timer": 4})
    game.start(1, 2, 4)
    game.wait(10)
    game.hold("seat4", 2.0)
    mark = game.mark()
    game.tap("play_pause")
    assert game.table.phase is Phase.TURN
    assert game.table.seated == {1, 2, 4}
    assert game.announced("round_started", mark) == [
        {"seats": [1, 2, 4], "mode": "table", "finish": "first"}
    ]
    assert all(stats.turns == 0 for stats in game.table.stats.values())
    assert game.sounds(mark) == ["start"]


def test_the_summary_stops_turning_pages_in_sleep_and_resumes_on_waking():
    game = Game()
    game.start(1, 2)
    game.hold("seat1", 2.0)
    game.wait(11 * 60)
    assert game.table.asleep
    game.tap("seat2")
    assert game.table.phase is Phase.ROUND_OVER
    page = game.table.summary.page
    game.wait(PAGE_TIME - 0.2)
    assert game.table.summary.page == page
