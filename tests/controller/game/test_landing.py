"""In Table mode the lit player's launcher press holds their timer until the burst has landed
(SPEC §2.4): no player times out while cards fly; then the LCD asks for their button, or,
with hit_ends_turn on, the turn ends as UNO Attack's rule says."""

import pytest

from controller.game import Phase
from controller.game.codec import encode
from controller.game.events import CardOut, LauncherStopped
from controller.game.holds import OUT_HINT
from controller.game.launch import CHIME_TIME, CHIMING

from .driver import Game

FOUR = {"launcher_profile": "custom", "custom_chance": 100, "custom_min": 4, "custom_max": 4}
NEVER = {"launcher_profile": "custom", "custom_chance": 5, "custom_min": 1, "custom_max": 1}


def table_game(**settings) -> Game:
    return Game({"turn_timer": 4, "sleep_time": "off", **settings}, has_launcher=True, seed=3)


def count_out(game: Game, cards: int, gap: float = 0.1) -> None:
    for _ in range(cards):
        game.wait(gap)
        game.feed(CardOut(game.now))


def test_the_timer_waits_while_the_cards_fly_then_asks_for_the_button_and_runs_on():
    game = table_game(**FOUR)
    seat = game.start(1, 2, 3)
    game.wait(1.0)
    game.tap("launcher")
    left = game.table.turn.held_left
    assert left == pytest.approx(2.9)  # 4 s less the 1.1 s played before the press
    assert game.lines[1] == f"Seat {seat} wait   3s"
    game.wait(10.0)  # the chime, then a slow launcher: nobody times out meanwhile
    assert game.announced("timeout") == []
    assert game.lines[1] == f"Seat {seat} wait   3s" and game.light(seat) == "pulse"
    count_out(game, 3)
    assert game.lines[1].startswith(f"Seat {seat} wait")  # one card still on its way
    count_out(game, 1)
    landed = game.now
    assert game.lines[1] == f"Seat {seat} press  3s" and game.light(seat) == "blink"
    game.run_until(landed + left - 0.001)
    assert game.announced("timeout") == []
    game.run_until(landed + left)
    assert [t["seat"] for t in game.announced("timeout")] == [seat]


def test_a_burst_of_nothing_has_landed_when_its_chime_ends():
    game = table_game(**NEVER)
    seat = game.start(1, 2)
    game.tap("launcher")
    assert game.lines[1].startswith(f"Seat {seat} wait")
    game.run_until(game.now - 0.1 + CHIME_TIME)
    assert game.announced("hit")[-1]["cards"] == 0
    assert game.lines[1].startswith(f"Seat {seat} press")


def test_the_players_own_press_ends_the_turn_while_the_cards_fly_and_they_still_arrive():
    game = table_game(**FOUR)
    seat = game.start(1, 2)
    game.tap("launcher")
    game.wait(CHIME_TIME)
    game.tap(f"seat{seat}")
    assert [t["seat"] for t in game.announced("turn_ended")] == [seat]
    nxt = game.lit
    count_out(game, 4)
    assert game.table.stats[seat].launcher_cards == 4
    assert game.lines[1].startswith(f"Seat {nxt} turn")  # the next turn was never held


def test_with_hit_ends_turn_the_turn_ends_once_every_press_in_a_row_has_landed():
    game = table_game(hit_ends_turn="on", **FOUR)
    seat = game.start(1, 2, 3)
    game.tap("launcher")  # "press twice": two hits, quickly
    game.tap("launcher")
    game.wait(CHIME_TIME)
    count_out(game, 4)
    assert game.announced("turn_ended") == []  # the second burst is still on its way
    assert game.lines[1].startswith(f"Seat {seat} wait")
    count_out(game, 4)
    assert [t["seat"] for t in game.announced("turn_ended")] == [seat]
    assert game.table.stats[seat].launcher_cards == 8
    assert game.announced("timeout") == []


def test_a_jam_in_the_burst_keeps_the_time_the_turn_had_until_the_rest_has_landed():
    game = table_game(jam_time=800, **FOUR)
    seat = game.start(1, 2)
    game.wait(1.5)
    game.tap("launcher")
    left = game.table.turn.held_left  # 2.4 s
    game.wait(CHIME_TIME)
    count_out(game, 2)
    game.feed(LauncherStopped("jam", game.now))
    game.wait(20.0)
    game.tap("encoder.push")  # OK
    count_out(game, 2)
    assert game.announced("timeout") == []
    assert game.lines[1] == f"Seat {seat} press  3s"
    game.wait(left - 0.01)
    assert game.announced("timeout") == []
    game.wait(0.02)
    assert [t["seat"] for t in game.announced("timeout")] == [seat]


def test_a_restart_while_the_cards_fly_resumes_the_turn_still_waiting_for_them():
    game = table_game(**FOUR)
    seat = game.start(1, 2)
    game.wait(1.0)
    game.tap("launcher")
    game.wait(CHIME_TIME)
    count_out(game, 1)
    snapshot = encode(game.table, game.now)
    # what it had when the burst began: 4 s less the 1.1 s played before the press
    left = game.table.turn.held_left
    assert snapshot["turn"]["left"] == pytest.approx(left, abs=0.001) == 2.9
    restarted = table_game(**FOUR)
    restarted.now = game.now + 5.0
    restarted.resume(snapshot)
    assert restarted.table.phase is Phase.PAUSED and restarted.table.launcher.owed == 3
    restarted.tap("play_pause")
    restarted.wait(10.0)
    assert restarted.announced("timeout") == []
    assert restarted.lines[1] == f"Seat {seat} wait   3s"
    count_out(restarted, 3)
    landed = restarted.now
    restarted.run_until(landed + 2.9)  # the time left, as the snapshot kept it
    assert [t["seat"] for t in restarted.announced("timeout")] == [seat]


def test_the_first_line_says_the_launcher_is_on_it_while_the_chime_sounds():
    game = table_game(**FOUR)
    game.start(1, 2)
    game.tap("launcher")
    assert game.lines[0] == CHIMING
    game.wait(CHIME_TIME)
    assert game.lines[0] == "Launcher: 4!"


def test_a_press_after_the_burst_landed_waits_again_for_its_own_cards():
    game = table_game(**FOUR)
    seat = game.start(1, 2)
    game.tap("launcher")
    game.wait(CHIME_TIME)
    count_out(game, 4)
    assert game.lines[1].startswith(f"Seat {seat} press")
    game.tap("launcher")
    assert game.lines[1].startswith(f"Seat {seat} wait") and game.light(seat) == "pulse"
    game.wait(CHIME_TIME)
    count_out(game, 3)
    assert game.lines[1].startswith(f"Seat {seat} wait")


def test_a_hit_while_the_last_player_may_be_going_out_waits_for_the_cards_after_they_let_go():
    game = table_game(**FOUR)
    last = game.start(1, 2, 3)
    game.press(f"seat{last}")  # their turn ends; held on, they may be going out
    game.wait(OUT_HINT + 0.1)
    lit = game.table.turn.seat
    assert lit != last and game.light(lit) == "dim"
    game.tap("launcher")
    game.release(f"seat{last}")  # let go before going out: the cards still fly at `lit`
    assert game.lines[0] == CHIMING  # the launcher's banner, not the going-out one, stays
    assert game.table.phase is Phase.TURN and game.table.turn.seat == lit
    left = game.table.turn.held_left
    game.wait(10.0)
    assert game.announced("timeout") == []
    count_out(game, 4)
    assert game.lines[1].startswith(f"Seat {lit} press")
    game.wait(left + 0.01)
    assert [t["seat"] for t in game.announced("timeout")] == [lit]


def test_a_hit_while_a_notice_shows_holds_no_turn():
    game = table_game(**FOUR)
    game.start(1, 2)
    game.wait(4.1)  # the turn times out: its notice shows
    assert game.table.phase is Phase.NOTICE
    game.tap("launcher")
    assert game.announced("hit")
    game.wait(30.0)
    assert game.table.phase is not Phase.NOTICE
    assert game.table.turn is None or game.table.turn.waits_for != "cards"


def test_the_launchers_banner_ends_with_its_chime_though_the_round_was_paused_then():
    game = table_game(**FOUR)
    game.start(1, 2)
    game.tap("launcher")
    game.tap("play_pause")  # paused while the chime sounds
    game.wait(CHIME_TIME + 1.0)
    game.tap("play_pause")
    game.wait(5.0)
    assert game.lines[0] != CHIMING


def test_with_hit_ends_turn_a_burst_of_nothing_ends_the_turn_when_its_chime_ends():
    game = table_game(hit_ends_turn="on", **NEVER)
    seat = game.start(1, 2, 3)
    game.tap("launcher")
    game.wait(CHIME_TIME)
    assert game.announced("hit")[-1]["cards"] == 0
    assert [t["seat"] for t in game.announced("turn_ended")] == [seat]
