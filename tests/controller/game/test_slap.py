"""The SLAP race: ranked by pin-edge time when the window closes, ties drawn at random."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.game import Phase, Press
from controller.game.holds import WIN_HOLD
from controller.game.slap import PAGE_TIME
from controller.game.view import SLAP_LINES

from .driver import Game


def slap_game(seed=0, stations=4, **settings) -> tuple[Game, int, float]:
    """All seats taken, a turn running; the lit player has slapped. (game, slapper, slap edge)"""
    game = Game(settings, seed=seed, stations=stations)
    slapper = game.start(*range(1, stations + 1))
    game.wait(1.0)
    game.press("slap")
    return game, slapper, game.now


def test_the_lit_players_slap_starts_a_race_for_everyone_else():
    game, slapper, _ = slap_game()
    racers = game.others(slapper)
    assert game.table.phase is Phase.SLAP
    assert game.lines == SLAP_LINES
    assert game.light(slapper) == "dim"
    assert all(game.light(s) == "blink" for s in racers)
    assert game.sounds()[-1] == "slap"
    [started] = game.announced("slap_started")
    assert started == {"seat": slapper, "seconds": 1.1, "racers": racers}  # from the press edge
    # A racer who has pressed shows it at once.
    game.press(f"seat{racers[0]}")
    assert game.light(racers[0]) == "on"


def test_the_race_ranks_by_edge_time_even_when_presses_are_handled_in_reverse():
    game, _, t = slap_game()
    a, b, c = game.others(game.table.race.slapper)
    # Edges: b first (300 ms), then c (380 ms), then a (450 ms); handled a, c, b at 500 ms.
    for seat, edge in [(a, 0.45), (c, 0.38), (b, 0.30)]:
        game.feed(Press(f"seat{seat}", t + edge), t + 0.5)
    assert game.announced("slap_result") == []  # nothing is ranked while the window is open
    game.run_until(t + 3.0)
    [result] = game.announced("slap_result")
    assert [(p["seat"], p["ms"]) for p in result["order"]] == [(b, 300), (c, 380), (a, 450)]
    assert result["slowest"] == [a]
    assert result["tie"] is False
    assert game.announced("penalty") == [{"seat": a, "cards": 2, "reason": "slap"}]
    assert game.light(a) == "flash"
    assert game.lines == (f"Slowest: Seat {a}", "Draw 2 cards")
    game.run_until(t + 3.0 + PAGE_TIME)
    assert game.lines == (f"1. Seat {b}  300ms", f"2. Seat {c}  380ms")
    game.run_until(t + 3.0 + 2 * PAGE_TIME)
    assert game.lines == (f"3. Seat {a}  450ms", "")


def test_the_next_player_is_picked_when_the_results_have_been_shown():
    game, _, t = slap_game()
    for seat in game.others(game.table.race.slapper):
        game.press(f"seat{seat}", game.now + 0.2)
    mark = game.mark()
    shown_until = t + 3.0 + 3 * PAGE_TIME  # the verdict and two pages of places
    game.run_until(shown_until - 0.001)
    assert game.table.phase is Phase.NOTICE
    game.run_until(shown_until)
    assert game.table.phase is Phase.TURN
    assert game.table.turn.started == shown_until
    assert game.announced("turn_started", mark)[0]["seat"] == game.lit


def test_a_tie_within_a_millisecond_is_drawn_at_random_and_the_lcd_says_tie():
    losers = set()
    for seed in range(30):
        game, slapper, t = slap_game(seed=seed)
        a, b, c = game.others(slapper)
        game.press(f"seat{a}", t + 0.2)
        game.press(f"seat{b}", t + 0.3)
        game.press(f"seat{c}", t + 0.3005)
        game.run_until(t + 3.0)
        [result] = game.announced("slap_result")
        assert result["tie"] is True
        assert {p["seat"] for p in result["order"] if p["tie"]} == {b, c}
        [loser] = result["slowest"]
        assert loser in (b, c)
        losers.add(loser == c)
        assert game.lines == (f"Tie! Seat {loser} lost", "Draw 2 cards")
        game.run_until(t + 3.0 + 2 * PAGE_TIME)
        assert game.lines[0][:2] == "3="
    assert losers == {True, False}  # either of the two can lose the draw


def test_exactly_one_millisecond_apart_is_still_a_tie_but_two_is_not():
    for gap, tie in [(0.001, True), (0.002, False)]:
        game, slapper, t = slap_game()
        a, b, c = game.others(slapper)
        game.press(f"seat{a}", t + 0.2)
        game.press(f"seat{b}", t + 0.3)
        game.press(f"seat{c}", t + 0.3 + gap)
        game.run_until(t + 3.0)
        [result] = game.announced("slap_result")
        assert result["tie"] is tie
        if not tie:
            assert result["slowest"] == [c]


def test_a_tie_among_the_fastest_is_marked_but_the_slowest_is_certain():
    game, slapper, t = slap_game(seed=4)
    a, b, c = game.others(slapper)
    game.press(f"seat{a}", t + 0.2)
    game.press(f"seat{b}", t + 0.2002)
    game.press(f"seat{c}", t + 0.9)
    game.run_until(t + 3.0)
    [result] = game.announced("slap_result")
    assert result["slowest"] == [c] and result["tie"] is False
    assert game.lines == (f"Slowest: Seat {c}", "Draw 2 cards")
    game.run_until(t + 3.0 + PAGE_TIME)
    assert [line[:2] for line in game.lines] == ["1=", "2="]


def test_a_racer_who_never_presses_is_slowest():
    game, slapper, t = slap_game()
    a, b, c = game.others(slapper)
    game.press(f"seat{a}", t + 2.9)
    game.press(f"seat{c}", t + 0.25)
    game.run_until(t + 3.0)
    [result] = game.announced("slap_result")
    assert result["order"][-1] == {"seat": b, "ms": None, "tie": False}
    assert result["slowest"] == [b]
    assert game.announced("penalty") == [{"seat": b, "cards": 2, "reason": "slap"}]
    game.run_until(t + 3.0 + 2 * PAGE_TIME)
    assert game.lines == (f"3. Seat {b} missed", "")


def test_everyone_who_never_pressed_is_slowest_and_each_draws():
    game, slapper, t = slap_game()
    a, b, c = game.others(slapper)
    game.press(f"seat{b}", t + 0.4)
    game.run_until(t + 3.0)
    assert game.announced("slap_result")[0]["slowest"] == [a, c]
    assert game.announced("penalty") == [
        {"seat": a, "cards": 2, "reason": "slap"},
        {"seat": c, "cards": 2, "reason": "slap"},
    ]
    assert game.lines == (f"Slowest: {a} {c}", "Each draws 2")
    assert [game.light(s) for s in (a, b, c)] == ["flash", "dim", "flash"]


def test_a_press_before_the_slap_is_not_a_race_press():
    game, slapper, t = slap_game()
    a, b, c = game.others(slapper)
    # Seat a's edge came 5 ms before the SLAP edge but was handled after it.
    game.feed(Press(f"seat{a}", t - 0.005), t + 0.01)
    game.press(f"seat{b}", t + 0.3)
    game.press(f"seat{c}", t + 0.4)
    game.run_until(t + 3.0)
    assert game.announced("slap_result")[0]["slowest"] == [a]


def test_a_second_press_by_a_racer_keeps_the_first():
    game, slapper, t = slap_game()
    a, b, c = game.others(slapper)
    game.press(f"seat{a}", t + 0.5)
    game.release(f"seat{a}", t + 0.6)
    game.press(f"seat{b}", t + 0.7)
    game.press(f"seat{c}", t + 0.8)
    game.press(f"seat{a}", t + 0.9)
    game.run_until(t + 3.0)
    [result] = game.announced("slap_result")
    assert [(p["seat"], p["ms"]) for p in result["order"]] == [(a, 500), (b, 700), (c, 800)]


def test_the_slapper_does_not_race_and_a_press_after_the_window_is_too_late():
    game, slapper, t = slap_game()
    a, b, c = game.others(slapper)
    game.press(f"seat{slapper}", t + 0.1)
    game.press(f"seat{a}", t + 0.2)
    game.press(f"seat{b}", t + 0.3)
    game.press(f"seat{c}", t + 3.0)  # the window is [0, 3 s)
    [result] = game.announced("slap_result")
    assert [p["seat"] for p in result["order"]] == [a, b, c]
    assert result["slowest"] == [c]


def test_the_window_setting_sets_how_long_the_race_runs():
    game, slapper, t = slap_game(slap_window=5)
    a, b, c = game.others(slapper)
    for seat in (a, b):
        game.press(f"seat{seat}", t + 1)
    game.press(f"seat{c}", t + 4.5)
    game.run_until(t + 4.999)
    assert game.table.phase is Phase.SLAP
    game.run_until(t + 5)
    [result] = game.announced("slap_result")
    assert result["slowest"] == [c]
    assert result["order"][-1]["ms"] == 4500


def test_the_slap_penalty_setting():
    for cards, text in [(0, "No penalty"), (1, "Draw 1 card"), (4, "Draw 4 cards")]:
        game, slapper, t = slap_game(slap_penalty=cards)
        game.run_until(t + 3.0)
        assert game.announced("slap_result")[0]["penalty"] == cards
        assert game.lines[1] == ("No penalty" if cards == 0 else f"Each draws {cards}")
        assert len(game.announced("penalty")) == (3 if cards else 0)
        game, slapper, t = slap_game(slap_penalty=cards)
        for seat in game.others(slapper):
            game.press(f"seat{seat}", t + seat / 10)
        game.run_until(t + 3.0)
        assert game.lines[1] == text


def test_slap_outside_a_running_turn_does_nothing():
    game = Game()
    game.seat(1, 2)
    game.tap("slap")
    assert game.table.phase is Phase.SEATING
    game.tap("play_pause")
    game.tap("play_pause")
    assert game.table.phase is Phase.PAUSED
    game.tap("slap")
    assert game.table.phase is Phase.PAUSED
    assert game.announced("slap_started") == []


def test_lost_races_count_in_the_statistics():
    game, slapper, t = slap_game()
    a, *_ = game.others(slapper)
    game.run_until(t + 3.0)
    assert game.table.stats[a].slaps_lost == 1
    assert game.table.stats[slapper].slaps_lost == 0
    assert game.table.stats[slapper].turns == 1


# Gaps between consecutive presses in microseconds, dense around 1 ms so that chains of
# near-ties (0.8 ms + 0.8 ms) and exact 1 ms gaps come up often.
press_gaps = st.lists(
    st.one_of(st.integers(0, 2100), st.sampled_from([500, 800, 999, 1000, 1001, 50_000])),
    min_size=7,
    max_size=7,
)


@settings(max_examples=300, deadline=None)
@given(gaps=press_gaps, order=st.permutations(range(7)), seed=st.integers(0, 2**32 - 1))
def test_presses_more_than_a_millisecond_apart_keep_their_order_and_tie_shows_only_for_ties(
    gaps, order, seed
):
    game, slapper, t = slap_game(seed=seed, stations=8)
    racers = game.others(slapper)
    micros, at = {}, 200_000
    for n, gap in zip(order, gaps, strict=True):
        at += gap
        micros[racers[n]] = at
    # Handled all at once, in seat order, after the last edge: only edge times may count.
    for seat in racers:
        game.feed(Press(f"seat{seat}", t + micros[seat] / 1e6), t + 1.0)
    game.run_until(t + 3.0)
    [result] = game.announced("slap_result")
    verdict = game.lines
    pages = []
    for page in range(1, 5):
        game.run_until(t + 3.0 + page * PAGE_TIME)
        pages += game.lines

    def tied(seat):  # another press within 1 ms of this one
        return any(abs(micros[seat] - micros[o]) <= 1000 for o in racers if o != seat)

    ranked = [p["seat"] for p in result["order"]]
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 :]:
            assert micros[a] - micros[b] <= 1000, "a press more than 1 ms later ranked ahead"
    [loser] = result["slowest"]
    assert loser == ranked[-1]
    assert result["tie"] is tied(loser)
    assert verdict[0] == (f"Tie! Seat {loser} lost" if tied(loser) else f"Slowest: Seat {loser}")
    for n, seat in enumerate(ranked, start=1):
        mark = "=" if tied(seat) else "."
        assert pages[n - 1].startswith(f"{n}{mark} Seat {seat} ")
        assert result["order"][n - 1]["tie"] is tied(seat)


@pytest.mark.parametrize(
    ("settings", "before", "lines"),
    [
        ({}, lambda game: None, ("SLAP: in a round", "on a SLAP card")),
        (
            {"mode": "extreme"},
            lambda game: game.tap("play_pause"),
            ("No SLAP race in", "Extreme mode"),
        ),
        (
            {},
            lambda game: (game.tap("play_pause"), game.tap("play_pause")),
            ("SLAP: paused,", "press Play"),
        ),
        (
            {"turn_timer": 2},
            lambda game: (game.tap("play_pause"), game.wait(2.0)),
            ("SLAP: wait for", "the next turn"),
        ),
    ],
    ids=["before a round", "extreme", "paused", "a notice"],
)
def test_a_slap_that_starts_no_race_says_why(settings, before, lines):
    game = Game(settings, seed=2, has_launcher=True)
    game.seat(1, 2)
    before(game)
    phase, mark = game.table.phase, game.mark()
    game.tap("slap")
    assert game.lines == lines
    assert game.sounds(mark) == ["refuse"]
    assert game.table.phase is phase and not game.announced("slap_started", mark)
    game.wait(2.0)
    assert game.lines != lines


def test_a_slap_in_the_race_itself_says_nothing_more():
    game = Game(seed=2)
    game.start(1, 2, 3)
    game.tap("slap")
    mark = game.mark()
    game.tap("slap")
    assert game.lines == SLAP_LINES and game.sounds(mark) == []


@pytest.mark.parametrize("reverse", [False, True], ids=["in edge order", "handled in reverse"])
def test_a_pair_exactly_one_millisecond_apart_is_drawn_at_random(reverse):
    """Ties within 1 ms are decided at random: at exactly 1 ms either press may be ranked
    last and take the penalty, and the LCD says "tie"."""
    lost = set()
    for seed in range(40):
        game, slapper, t = slap_game(seed=seed)
        a, b, c = game.others(slapper)
        edges = [(a, t + 0.2), (b, t + 0.3), (c, t + 0.3 + 0.001)]
        for seat, edge in reversed(edges) if reverse else edges:
            game.feed(Press(f"seat{seat}", edge), t + 0.5)
        game.run_until(t + 3.0)
        [result] = game.announced("slap_result")
        [loser] = result["slowest"]
        assert loser in (b, c)
        assert [p["seat"] for p in result["order"]] == [a, c if loser == b else b, loser]
        assert result["tie"] is True
        assert game.announced("penalty") == [{"seat": loser, "cards": 2, "reason": "slap"}]
        assert game.lines == (f"Tie! Seat {loser} lost", "Draw 2 cards")
        lost.add("later" if loser == c else "earlier")
    assert lost == {"earlier", "later"}  # each of the two lost the draw for some seeds


def test_a_pair_just_over_one_millisecond_apart_keeps_its_order():
    for seed in range(20):
        game, slapper, t = slap_game(seed=seed)
        a, b, c = game.others(slapper)
        game.press(f"seat{a}", t + 0.2)
        game.press(f"seat{b}", t + 0.3)
        game.press(f"seat{c}", t + 0.3 + 0.0011)
        game.run_until(t + 3.0)
        [result] = game.announced("slap_result")
        assert [p["seat"] for p in result["order"]] == [a, b, c]
        assert result["slowest"] == [c] and result["tie"] is False


def test_in_table_mode_the_launcher_dispenses_the_slap_penalty_to_the_slowest():
    game = Game(seed=1, stations=4, has_launcher=True)
    slapper = game.start(1, 2, 3, 4)
    game.wait(1.0)
    game.press("slap")
    t = game.now
    a, b, c = game.others(slapper)
    game.press(f"seat{a}", t + 0.2)
    game.press(f"seat{b}", t + 0.3)
    game.run_until(t + 3.0)
    [result] = game.announced("slap_result")
    assert result["slapper"] == slapper and result["slowest"] == [c]
    owed = [(d.seat, d.cards, d.reason) for d in game.table.launcher.queue]
    assert owed == [(c, 2, "slap")]


def test_the_race_is_heard_each_press_and_its_close():
    game, slapper, t = slap_game()
    a, _, _ = game.others(slapper)
    mark = game.mark()
    game.press(f"seat{a}", t + 0.2)
    assert game.sounds(mark) == ["slap_in"]
    game.run_until(t + 3.0)
    assert game.sounds(mark)[:2] == ["slap_in", "slap_over"]


def test_the_slappers_turn_time_is_kept_to_the_millisecond():
    game = Game(seed=0)
    slapper = game.start(1, 2, 3)
    started = game.table.turn.started
    game.press("slap", started + 1.23456)
    [event] = game.announced("slap_started")
    assert event["seat"] == slapper and event["seconds"] == 1.235


def test_seven_slowest_seats_fit_the_lcd():
    """Eight seats, nobody races: the verdict names all seven on a 16-column line."""
    game, slapper, t = slap_game(stations=8)
    game.run_until(t + 3.0)
    first, second = game.lines
    assert len(first) <= 16 and first.startswith("Slowest: ")
    assert second == "Each draws 2"
    assert game.announced("slap_result")[0]["slowest"] == game.others(slapper)


def test_a_hold_begun_before_the_slap_is_neither_a_race_press_nor_a_round_end():
    """A racer who was already holding their button when SLAP was pressed has not pressed in
    the race, and their hold, cut by the race, does not end the round."""
    game = Game({"turn_timer": "off", "slap_window": 3}, seed=2)
    slapper = game.start(1, 2, 3)
    holder, other = game.others(slapper)
    held = game.now + 1.0
    game.press(f"seat{holder}", held)
    game.press("slap", held + 0.5)
    game.press(f"seat{other}", held + 0.7)
    game.release(f"seat{other}", held + 0.8)
    game.run_until(held + WIN_HOLD + 0.5)
    assert game.table.phase is Phase.SLAP
    game.release(f"seat{holder}", held + 3.4)
    game.wait(10.0)
    assert game.announced("round_over") == []
    [result] = game.announced("slap_result")
    assert result["slowest"] == [holder]
