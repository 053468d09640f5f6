"""The launcher's rules: hits, the burst cap, exact penalties, the cards owed, jams and OK."""

from collections import Counter
from dataclasses import replace

import pytest

from controller.game.effects import Dispense, ResumeLauncher
from controller.game.events import CardOut, Command, Configure, ExactDraw, LauncherStopped
from controller.game.launch import CAP_WINDOW, CHIME_TIME, CHIMING, NO_CARDS
from controller.game.state import MAX_OWED, Delivery, Launcher, Phase
from controller.shell.tunes import TUNES

from .driver import Game


def dispensed(game: Game, since: int = 0) -> list[int]:
    return [e.cards for e in game.effects[since:] if isinstance(e, Dispense)]


def count_out(game: Game, cards: int) -> None:
    for _ in range(cards):
        game.feed(CardOut(game.now))


# Every press fires four cards.
FOUR_EVERY_PRESS = {
    "launcher_profile": "custom",
    "custom_chance": 100,
    "custom_min": 4,
    "custom_max": 4,
}
# Every press fires six cards, and a player gets six at most within the cap's window.
SIX_EVERY_PRESS_CAPPED_AT_SIX = {
    "turn_timer": "off",
    "launcher_profile": "custom",
    "custom_chance": 100,
    "custom_min": 6,
    "custom_max": 6,
    "burst_cap": 6,
}


def table_game(**settings) -> Game:
    return Game({"turn_timer": 4, **settings}, has_launcher=True, seed=3)


def test_a_timeout_in_table_mode_dispenses_exactly_the_penalty():
    game = table_game(timeout_penalty=3)
    seat = game.start(1, 2, 3)
    mark = game.mark()
    game.wait(4.0)
    assert dispensed(game, mark) == [3]
    assert game.announced("dispense", mark) == [{"seat": seat, "cards": 3, "reason": "timeout"}]
    assert game.table.launcher.owed == 3
    count_out(game, 3)
    assert game.table.launcher.owed == 0
    assert game.table.stats[seat].launcher_cards == 3
    assert [e["owed"] for e in game.announced("card_out", mark)] == [2, 1, 0]


def test_flash_mode_shows_penalties_but_never_fires():
    game = Game({"turn_timer": 4, "mode": "flash"}, has_launcher=True)
    game.start(1, 2)
    game.wait(4.0)
    assert game.lines[1] == "Draw 2 cards"
    game.wait(3.0)
    game.press("launcher")
    game.wait(1.0)
    assert dispensed(game) == []
    assert game.announced("hit") == []


def test_without_a_launcher_nothing_is_owed():
    game = Game({"turn_timer": 4})
    game.start(1, 2)
    game.wait(4.0)
    assert game.announced("penalty") and dispensed(game) == []
    assert game.table.launcher.owed == 0


def test_a_hit_chimes_then_fires_what_the_profile_drew():
    game = table_game(**FOUR_EVERY_PRESS)
    seat = game.start(1, 2)
    mark = game.mark()
    game.tap("launcher")
    assert "chime0" in game.sounds(mark)
    assert dispensed(game, mark) == []
    game.wait(CHIME_TIME)
    assert dispensed(game, mark) == [4]
    assert game.announced("hit", mark) == [{"seat": seat, "cards": 4, "drawn": 4}]
    assert game.lines[0] == "Launcher: 4!"
    game.wait(2.5)
    assert game.lines[0].startswith("Table")


def test_a_miss_says_so():
    game = table_game(launcher_profile="custom", custom_chance=5, custom_min=1, custom_max=1)
    game.start(1, 2)
    misses = 0
    for _ in range(5):
        game.tap("launcher")
        game.wait(CHIME_TIME)
        misses += game.lines[0] == NO_CARDS
    assert misses >= 4


def test_the_burst_cap_holds_for_a_player_pressing_10_times_in_5_seconds():
    game = table_game(turn_timer="off", launcher_profile="wild", burst_cap=12)
    seat = game.start(1, 2)
    mark = game.mark()
    for _ in range(10):
        game.tap("launcher", hold=0.1)
        game.wait(0.4)
    game.wait(CHIME_TIME)
    hits = game.announced("hit", mark)
    assert len(hits) == 10
    assert sum(h["drawn"] for h in hits) > 12  # the wild profile would have given more
    assert sum(dispensed(game, mark)) == sum(h["cards"] for h in hits) == 12
    assert all(h["seat"] == seat for h in hits)
    # Once the window has passed, the same player can be hit again.
    game.wait(CAP_WINDOW)
    game.tap("launcher")
    game.wait(CHIME_TIME)
    assert game.announced("hit")[-1]["cards"] == game.announced("hit")[-1]["drawn"]


def test_the_cap_counts_per_player_in_table_mode():
    game = table_game(**SIX_EVERY_PRESS_CAPPED_AT_SIX)
    first = game.start(1, 2)
    game.tap("launcher")
    game.tap("launcher")
    game.wait(CHIME_TIME)
    assert [h["cards"] for h in game.announced("hit")] == [6, 0]
    game.tap(f"seat{first}")  # the turn moves on to the next pick
    while game.lit == first:
        game.tap(f"seat{first}")
    game.tap("launcher")
    game.wait(CHIME_TIME)
    assert game.announced("hit")[-1]["cards"] == 6


@pytest.mark.parametrize("misses_before_fire", [0, 1, 2, 3])
def test_ascending_chimes_quicker_with_every_miss(misses_before_fire):
    game = table_game(turn_timer="off", launcher_profile="ascending")
    game.start(1, 2)
    game.table = replace(game.table, launcher=Launcher(misses=misses_before_fire))
    mark = game.mark()
    game.tap("launcher")
    assert f"chime{misses_before_fire}" in game.sounds(mark)


def test_a_jam_shows_what_is_owed_pauses_the_turn_and_ok_finishes_the_rest():
    game = table_game(timeout_penalty=4)
    game.start(1, 2, 3)
    game.wait(4.0)
    count_out(game, 1)
    game.wait(3.0)  # the next turn is running
    assert game.table.phase is Phase.TURN
    left = game.table.turn.deadline - game.now
    mark = game.mark()
    game.feed(LauncherStopped("jam", game.now))
    assert game.lines == ("JAM: clear slot", "press OK  3 owed")
    assert "alarm" in game.sounds(mark)
    assert game.table.phase is Phase.PAUSED
    assert game.announced("launcher_fault", mark) == [{"fault": "jam", "owed": 3}]
    # Nothing but OK counts meanwhile.
    game.tap("play_pause")
    game.tap("launcher")
    assert game.table.launcher.fault == "jam"
    game.wait(60)
    mark = game.mark()
    game.tap("encoder.push")
    assert [e for e in game.effects[mark:] if isinstance(e, ResumeLauncher)]
    assert dispensed(game, mark) == []  # only the rest: the ejector still has it
    assert game.table.phase is Phase.TURN
    assert game.table.turn.deadline - game.now == pytest.approx(left - 0.1)
    count_out(game, 3)
    assert game.table.launcher.owed == 0
    assert game.table.launcher.jams == 1


def test_an_empty_hopper_asks_for_a_refill():
    game = table_game(turn_timer="off")
    game.start(1, 2)
    game.feed(ExactDraw(6, "quick", game.now))
    count_out(game, 2)
    game.feed(LauncherStopped("empty", game.now))
    assert game.lines == ("Refill cards", "press OK  4 owed")


def test_a_finished_dispense_is_not_a_fault():
    game = table_game(turn_timer="off")
    game.start(1, 2)
    game.feed(ExactDraw(2, "quick", game.now))
    count_out(game, 2)
    game.feed(LauncherStopped("done", game.now))
    assert game.table.launcher.fault is None


def test_extreme_mode_has_no_turns_only_the_launcher():
    game = Game(
        {
            "mode": "extreme",
            "launcher_profile": "custom",
            "custom_chance": 100,
            "custom_min": 2,
            "custom_max": 2,
        },
        has_launcher=True,
    )
    game.seat(1, 2, 3)
    game.tap("play_pause")
    assert game.table.phase is Phase.EXTREME
    assert game.lines == ("Extreme   custom", "Press launcher")
    assert set(game.view.lights[:3]) == {"on"}
    game.press("launcher")
    assert set(game.view.lights[:3]) == {"blink"}
    game.wait(CHIME_TIME)
    assert game.lines[1] == "Launcher: 2!"
    assert game.announced("hit")[-1]["seat"] is None
    game.hold("seat2", 2.0)
    assert game.table.phase is Phase.ROUND_OVER


def test_extreme_never_shows_the_last_hits_result_while_the_next_hit_chimes():
    game = Game(
        {"mode": "extreme", "launcher_profile": "custom", "custom_chance": 50},
        has_launcher=True,
        seed=2,
    )
    results = set()
    for _ in range(12):
        game.press("launcher")
        assert game.lines[1] == CHIMING
        game.release("launcher")
        game.wait(CHIME_TIME / 2)
        assert game.lines[1] == CHIMING
        game.wait(CHIME_TIME / 2)
        results.add(game.lines[1])
    assert NO_CARDS in results and len(results) > 1  # misses and bursts among them


def test_a_backlog_of_penalties_stays_within_a_deck_and_every_card_owed_reaches_its_seat():
    # The launcher never counts a card while a thousand turns time out, to random seats: the
    # deliveries stay few, and past a whole deck owed a penalty deals no more.
    game = table_game(turn_timer=2, timeout_penalty=1, sleep_time="off")
    game.start(1, 2, 3, 4)
    longest, penalties, owed_to = 0, 0, Counter()
    while penalties < 1000:
        mark = game.mark()
        game.wait(1.0)
        penalties += len(game.announced("penalty", mark))
        owed_to.update(
            p["seat"] for p in game.announced("dispense", mark) for _ in range(p["cards"])
        )
        longest = max(longest, len(game.table.launcher.queue))
    assert len(set(owed_to)) == 4
    assert longest <= 36  # 32 deliveries, then at most one more per seat
    assert game.table.launcher.owed == sum(owed_to.values()) == MAX_OWED
    count_out(game, game.table.launcher.owed)
    assert {seat: game.table.stats[seat].launcher_cards for seat in owed_to} == owed_to


def test_a_hit_never_promises_a_card_past_a_whole_deck_owed():
    # Extreme, wild, no burst cap: a launcher that counts nothing while hits keep coming.
    game = Game(
        {"mode": "extreme", "launcher_profile": "wild", "burst_cap": "off"},
        has_launcher=True,
        seed=4,
    )
    for _ in range(400):
        game.tap("launcher")
        game.wait(CHIME_TIME)
    assert game.table.launcher.owed == MAX_OWED
    assert sum(hit["cards"] for hit in game.announced("hit")) == MAX_OWED
    assert sum(d["cards"] for d in game.announced("dispense")) == MAX_OWED


def test_the_launcher_button_in_flash_mode_says_the_players_draw_from_the_pile():
    game = Game({"mode": "flash", "turn_timer": 6}, has_launcher=True, seed=3)
    mark = game.mark()
    game.tap("launcher")
    assert game.lines == ("Launcher off", "Flash: draw pile")
    assert game.sounds(mark) == ["refuse"]
    game.wait(2.0)
    assert game.lines == ("Flash   timer 6s", "Press to join")
    # In play only the first line says it: the seat and its seconds stay in sight.
    seat = game.start(1, 2)
    game.wait(1.0)
    mark = game.mark()
    game.tap("launcher")
    assert game.lines == ("Flash: draw pile", f"Seat {seat} turn   5s")
    assert game.sounds(mark) == ["refuse"]
    assert game.announced("hit", mark) == [] and dispensed(game, mark) == []
    game.wait(2.0)
    assert game.lines[0] == "Flash   timer 6s" and game.lit == seat


def test_the_launcher_button_in_table_mode_before_a_round_says_to_start_one():
    game = table_game()
    game.seat(1, 2)
    mark = game.mark()
    game.tap("launcher")
    assert game.lines == ("Start a round", "to use launcher")
    assert game.sounds(mark) == ["refuse"] and game.announced("hit", mark) == []
    game.wait(2.0)
    assert game.lines == ("Table   timer 4s", "Seats 1 2")
    # Between rounds, over the summary, the same.
    game.tap("play_pause")
    game.feed(Command("new_round", game.now))
    assert game.table.phase is Phase.ROUND_OVER
    summary = game.lines
    game.tap("launcher")
    assert game.lines == ("Start a round", "to use launcher")
    game.wait(2.0)
    assert game.lines == summary
    # In a round it is a hit again.
    game.tap("play_pause")
    mark = game.mark()
    game.tap("launcher")
    assert len(game.announced("hit", mark)) == 1 and "refuse" not in game.sounds(mark)


def test_the_launcher_button_of_a_table_without_a_launcher_says_so():
    game = Game({"mode": "table", "turn_timer": 4}, has_launcher=False)
    game.tap("launcher")
    assert game.lines == ("No launcher", "Draw from pile")
    seat = game.start(1, 2)
    game.tap("launcher")
    assert game.lines == ("No launcher", f"Seat {seat} turn   4s")


def test_a_hit_that_fires_sounds_the_fire_tune_as_its_chime_ends_and_a_miss_does_not():
    game = table_game(turn_timer="off", launcher_profile="custom", custom_chance=50)
    game.start(1, 2)
    for _ in range(8):
        game.tap("launcher")
        mark = game.mark()
        game.wait(CHIME_TIME)
        fired = game.announced("hit")[-1]["cards"] > 0
        assert game.sounds(mark) == (["fire"] if fired else [])
    assert {"chime0", "fire"} <= set(game.sounds()) <= set(TUNES)


def test_the_cards_a_hit_fires_are_dealt_to_the_lit_player_and_counted_as_theirs():
    game = table_game(turn_timer="off", **FOUR_EVERY_PRESS)
    seat = game.start(1, 2)
    mark = game.mark()
    game.tap("launcher")
    game.wait(CHIME_TIME)
    assert game.announced("dispense", mark) == [{"seat": seat, "cards": 4, "reason": "hit"}]
    count_out(game, 4)
    assert [e["seat"] for e in game.announced("card_out", mark)] == [seat] * 4
    assert game.table.stats[seat].launcher_cards == 4


def test_no_hit_promises_a_card_past_a_whole_deck_while_earlier_chimes_still_sound():
    # Nearly a deck owed after a restart; two quick hits, both chiming at once, with the cap
    # on: the first gets what fits, the second nothing, and each says what it really gives.
    game = table_game(turn_timer="off", **FOUR_EVERY_PRESS)
    game.start(1, 2)
    game.feed(ExactDraw(MAX_OWED - 3, "restart", game.now))
    mark = game.mark()
    game.press("launcher")
    game.release("launcher", game.now + 0.1)
    game.press("launcher", game.now + 0.1)
    assert len(game.table.launcher.chimes) == 2
    game.wait(CHIME_TIME)
    assert [h["cards"] for h in game.announced("hit", mark)] == [3, 0]
    assert dispensed(game, mark) == [3]
    assert game.table.launcher.owed == MAX_OWED


def test_a_hit_a_whole_cap_window_after_another_no_longer_counts_against_the_cap():
    game = table_game(**SIX_EVERY_PRESS_CAPPED_AT_SIX)
    game.start(1, 2)
    first = game.now
    game.press("launcher", first)
    game.press("launcher", first + CAP_WINDOW - 0.001)
    game.press("launcher", first + CAP_WINDOW)
    game.wait(CHIME_TIME)
    assert [h["cards"] for h in game.announced("hit")] == [6, 0, 6]


def ascending_chimes(game: Game, presses: int) -> list[tuple[str, bool]]:
    """Press the launcher `presses` times: each press's chime, and whether it fired."""
    heard = []
    for _ in range(presses):
        mark = game.mark()
        game.tap("launcher")
        [chime] = [s for s in game.sounds(mark) if s.startswith("chime")]
        game.wait(CHIME_TIME)
        heard.append((chime, game.announced("hit")[-1]["drawn"] > 0))
    return heard


@pytest.mark.parametrize("seed", range(4))
def test_the_ascending_chime_quickens_with_every_miss_and_starts_over_after_it_fires(seed):
    game = Game({"mode": "extreme", "launcher_profile": "ascending"}, has_launcher=True, seed=seed)
    misses, longest = 0, 0
    for chime, fired in ascending_chimes(game, 16):
        assert chime == f"chime{min(misses, 3)}"
        misses = 0 if fired else misses + 1
        longest = max(longest, misses)
    assert 1 <= longest <= 3  # it always fires by the fourth press


def test_after_many_misses_on_another_profile_the_ascending_chime_is_its_quickest():
    game = Game(
        {"mode": "extreme", "launcher_profile": "custom", "custom_chance": 5},
        has_launcher=True,
        seed=1,
    )
    misses = 0
    while misses < 5:
        [(_, fired)] = ascending_chimes(game, 1)
        misses = 0 if fired else misses + 1
    game.feed(Configure(game.table.settings.replace({"launcher_profile": "ascending"}), game.now))
    assert ascending_chimes(game, 1) == [("chime3", True)]
    assert set(game.sounds()) <= set(TUNES)


@pytest.mark.parametrize("fault", ["jam", "empty"])
def test_a_jam_or_an_empty_hopper_with_nothing_owed_waits_for_nothing(fault):
    # The hopper runs empty with the last card owed, or a jam is reported as it came out.
    game = table_game(turn_timer="off")
    seat = game.start(1, 2)
    game.feed(ExactDraw(2, "quick", game.now))
    count_out(game, 2)
    mark = game.mark()
    game.feed(LauncherStopped(fault, game.now))
    assert game.table.launcher.fault is None
    assert game.sounds(mark) == [] and game.announced("launcher_fault", mark) == []
    assert game.lines[1].rstrip() == f"Seat {seat} turn"
    assert game.table.launcher.jams == 0


def test_a_jam_in_a_turn_sounds_its_alarm_uncut_by_a_pause_tune():
    # The buzzer cuts off a tune for the next: the jam's alarm must be the last one asked.
    game = table_game(timeout_penalty=4)
    game.start(1, 2, 3)
    game.wait(4.0)
    game.wait(3.0)
    assert game.table.phase is Phase.TURN
    mark = game.mark()
    game.feed(LauncherStopped("jam", game.now))
    assert game.table.phase is Phase.PAUSED
    assert game.sounds(mark) == ["alarm"]


def test_ok_after_a_fault_announces_the_launcher_resumed_with_the_cards_still_owed():
    game = table_game(turn_timer="off")
    game.start(1, 2)
    game.feed(ExactDraw(6, "quick", game.now))
    count_out(game, 2)
    game.feed(LauncherStopped("empty", game.now))
    mark = game.mark()
    game.tap("encoder.push")
    assert game.announced("launcher_resumed", mark) == [{"owed": 4}]


def test_ok_after_a_fault_in_the_players_own_pause_leaves_the_game_paused():
    # A fault in a running turn pauses it and OK resumes it; a pause the players asked for
    # stays until Play/Pause, also after a fault and OK in it (and after an earlier one).
    game = table_game(turn_timer=6, timeout_penalty=4)
    game.start(1, 2, 3)
    game.wait(6.0)
    game.wait(3.0)  # the next turn runs, 4 cards owed
    game.feed(LauncherStopped("jam", game.now))
    assert game.table.phase is Phase.PAUSED
    game.tap("encoder.push")
    assert game.table.phase is Phase.TURN
    game.tap("play_pause")
    assert game.table.phase is Phase.PAUSED
    game.feed(LauncherStopped("jam", game.now))
    assert game.table.launcher.fault == "jam"
    game.tap("encoder.push")
    assert game.table.launcher.fault is None
    assert game.table.phase is Phase.PAUSED
    assert game.lines[0] == "Paused"


def test_a_hits_result_ends_with_a_pause_and_stays_off_the_resumed_turn():
    # A pause ends the moment of whatever replaced the first line, also a result that came
    # in while paused: the resumed turn shows the mode and timer.
    game = table_game(turn_timer="off", **FOUR_EVERY_PRESS)
    seat = game.start(1, 2)
    mark = game.mark()
    game.tap("launcher")
    game.tap("play_pause")
    game.wait(CHIME_TIME)
    assert dispensed(game, mark) == [4]  # the cards fly all the same
    assert game.lines[0] == "Paused"
    game.tap("play_pause")
    assert game.table.phase is Phase.TURN
    assert game.lines[0] == "Table   no timer" and game.lit == seat


def time_out(game: Game, seat: int) -> None:
    """Hand the turn on until `seat` is lit, then let its time run out (one card owed)."""
    while game.lit != seat:
        game.tap(f"seat{game.lit}")
    game.wait(game.table.turn.deadline - game.now)
    assert game.announced("penalty")[-1]["seat"] == seat
    game.wait(game.table.notice.until - game.now)


def card_seats(game: Game, since: int) -> list[int | None]:
    """Count out every card owed: the seat each one was for, in the order they came."""
    count_out(game, game.table.launcher.owed)
    return [card["seat"] for card in game.announced("card_out", since)]


def test_penalties_owed_come_out_card_by_card_in_the_order_they_were_owed():
    game = table_game(turn_timer=2, timeout_penalty=1)
    game.start(1, 2, 3)
    mark = game.mark()
    order = [1, 2, 1, 3, 3, 2, 1]
    for seat in order:
        time_out(game, seat)
    assert card_seats(game, mark) == order


def test_past_the_queue_limit_a_delivery_joins_the_last_one_owed_to_its_seat():
    # Deliveries never counted: seat 3 first, then 31 alternating between 1 and 2, the last
    # to 1. Past that, each penalty joins the last delivery owed to its seat (seat 4, owed
    # nothing yet, queues at the end): every card still reaches its seat.
    game = table_game(turn_timer=2, timeout_penalty=1)
    game.start(1, 2, 3, 4)
    backlog = [3] + [1 + i % 2 for i in range(31)]
    queue = tuple(Delivery(seat, 1, "timeout") for seat in backlog)
    game.table = replace(game.table, launcher=replace(game.table.launcher, queue=queue))
    mark = game.mark()
    for seat in (1, 3, 4):
        time_out(game, seat)
    assert card_seats(game, mark) == [3, 3, *backlog[1:], 1, 4]


def test_a_card_counted_with_nothing_owed_is_counted_for_nobody():
    # The beam counts whatever leaves the slot, also a card nobody asked for.
    game = table_game(turn_timer="off")
    game.start(1, 2)
    before = game.table.launcher.cards_out
    game.feed(CardOut(game.now))
    assert game.table.launcher.cards_out == before + 1
    assert game.announced("card_out") == [{"seat": None, "owed": 0}]


def test_with_a_whole_deck_owed_a_further_penalty_asks_nothing_of_the_launcher():
    game = table_game(turn_timer=2, timeout_penalty=2)
    game.start(1, 2)
    game.feed(ExactDraw(MAX_OWED, "restart", game.now))
    mark = game.mark()
    game.wait(2.0)
    assert game.announced("penalty", mark)  # the table still decides it, and says so
    assert dispensed(game, mark) == [] and game.announced("dispense", mark) == []
    count_out(game, MAX_OWED)
    assert game.table.launcher.owed == 0 and game.table.launcher.queue == ()
