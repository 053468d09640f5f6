"""Turn pickers: classic is uniform; fair never picks a seat three times running."""

import random
from collections import Counter

import pytest
from scipy.stats import chisquare

from controller.game.picker import HISTORY, pick, remember

from .driver import Game


@pytest.mark.parametrize("seats", [2, 3, 5, 8])
def test_classic_picker_is_uniform_over_seats(seats):
    rng = random.Random(2026 + seats)
    seated = set(range(1, seats + 1))
    counts = Counter(pick("classic", seated, (), rng) for _ in range(20_000))
    assert set(counts) == seated
    result = chisquare([counts[s] for s in sorted(seated)])
    assert result.pvalue > 0.001


def test_classic_picker_repeats_a_seat_as_often_as_chance_says():
    rng = random.Random(11)
    picks: tuple[int, ...] = ()
    repeats = 0
    for _ in range(30_000):
        seat = pick("classic", {1, 2, 3}, picks, rng)
        repeats += bool(picks) and picks[-1] == seat
        picks = remember(picks, seat)
    # Expected 1/3 of picks repeat the previous seat; 3 sigma is about 0.8 percentage points.
    assert abs(repeats / 30_000 - 1 / 3) < 0.009


@pytest.mark.parametrize("seats", range(2, 9))
def test_fair_picker_never_picks_a_seat_three_times_running(seats):
    rng = random.Random(seats)
    seated = set(range(1, seats + 1))
    picks: tuple[int, ...] = ()
    run, longest, counts = 0, 0, Counter()
    last = None
    for _ in range(100_000):
        seat = pick("fair", seated, picks, rng)
        run = run + 1 if seat == last else 1
        longest = max(longest, run)
        last = seat
        counts[seat] += 1
        picks = remember(picks, seat)
    assert longest == 2
    # Everyone plays about as often as everyone else.
    assert max(counts.values()) / min(counts.values()) < 1.1


def test_fair_picker_prefers_who_waited_longest():
    rng = random.Random(5)
    picks = (1, 2, 3, 1, 2, 1, 2)  # seat 3 has waited four turns, seat 1 one, seat 2 none
    counts = Counter(pick("fair", {1, 2, 3}, picks, rng) for _ in range(16_000))
    # Weights 1 + wait: 5, 2, 1 out of 8.
    assert abs(counts[3] / 16_000 - 5 / 8) < 0.015
    assert abs(counts[1] / 16_000 - 2 / 8) < 0.015
    assert abs(counts[2] / 16_000 - 1 / 8) < 0.015
    assert len(remember(tuple(range(100)), 7)) == HISTORY


@pytest.mark.parametrize("seats", range(2, 9))
def test_fair_picker_never_gives_a_seat_a_third_turn_running_from_a_rounds_start(seats):
    """Whatever the history, two picks of one seat in a row are never followed by a third:
    also when those two are all there is (the first picks of a round)."""
    seated = set(range(1, seats + 1))
    rng = random.Random(seats)
    for seat in seated:
        for before in [(), (seat % seats + 1,), (seat % seats + 1, seat % seats + 1)]:
            picks = (*before, seat, seat)
            picked = {pick("fair", seated, picks, rng) for _ in range(200)}
            assert seat not in picked, picks
            assert picked == seated - {seat}  # every other seat remains possible


def test_fair_picker_may_pick_a_seat_twice_running():
    rng = random.Random(3)
    again = [pick("fair", {1, 2}, (2, 1), rng) for _ in range(2000)].count(1)
    # Weights 1 + wait: seat 1 waited none (1), seat 2 one turn (2).
    assert abs(again / 2000 - 1 / 3) < 0.05


@pytest.mark.parametrize("seats", [2, 3])
def test_a_fair_round_never_lights_a_seat_three_times_running_from_its_first_turn(seats):
    runs = 0
    for seed in range(150):
        game = Game({"picker": "fair"}, stations=seats, seed=seed)
        first = game.start(*range(1, seats + 1))
        lit = [first]
        for _ in range(5):
            game.wait(0.5)
            game.tap(f"seat{game.lit}")
            lit.append(game.lit)
        for n in range(len(lit) - 2):
            assert not lit[n] == lit[n + 1] == lit[n + 2], (seed, lit)
        runs += lit[0] == lit[1]
    assert runs > 0  # a seat does get the first two turns of a round


def test_a_new_fair_round_never_lights_a_seat_three_times_running():
    """The second round of the evening, started from the first one's summary."""
    for seed in range(60):
        game = Game({"picker": "fair"}, stations=2, seed=seed)
        game.start(1, 2)
        game.wait(0.5)
        game.hold(f"seat{game.lit}", 2.0)  # the round is over
        mark = game.mark()
        game.tap("play_pause")  # a new round, the same seats
        lit = [game.lit]
        for _ in range(4):
            game.wait(0.5)
            game.tap(f"seat{game.lit}")
            lit.append(game.lit)
        assert [e["seat"] for e in game.announced("turn_started", mark)] == lit
        for n in range(len(lit) - 2):
            assert not lit[n] == lit[n + 1] == lit[n + 2], (seed, lit)
