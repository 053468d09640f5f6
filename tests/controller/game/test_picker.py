"""Turn pickers: classic is uniform; fair never picks a seat three times running."""

import random
from collections import Counter

import pytest
from scipy.stats import chisquare

from controller.game.picker import HISTORY, pick, remember


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
