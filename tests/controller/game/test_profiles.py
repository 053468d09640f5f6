"""Each launcher profile fires as often, and as hard, as its definition says."""

import random
from collections import Counter

import pytest
from scipy.stats import binomtest, chisquare

from controller.game.profiles import PROFILES, custom_profile, hit

PRESSES = 30_000


def presses(profile, seed):
    rng = random.Random(seed)
    return [hit(profile, 0, rng) for _ in range(PRESSES)]


# The bursts each profile is designed to give (docs/config.md), in percent of the bursts:
# stated here on their own, so that a changed table in the code fails this test.
CLASSIC = {1: 4, 2: 8, 3: 20, 4: 22, 5: 20, 6: 12, 7: 8, 8: 6}
MILD = {1: 50, 2: 35, 3: 15}
WILD = {2: 6, 3: 10, 4: 12, 5: 12, 6: 12, 7: 11, 8: 10, 9: 9, 10: 7, 11: 6, 12: 5}
UNIFORM_2_TO_5 = {n: 25 for n in range(2, 6)}


@pytest.mark.parametrize(
    ("profile", "chance", "percent"),
    [
        (PROFILES["classic"], 1 / 3, CLASSIC),
        (PROFILES["mild"], 1 / 4, MILD),
        (PROFILES["wild"], 1 / 2, WILD),
        (custom_profile(40, 2, 5), 0.4, UNIFORM_2_TO_5),
    ],
    ids=["classic", "mild", "wild", "custom"],
)
def test_fire_rate_and_burst_sizes_match_the_profile(profile, chance, percent):
    assert sum(percent.values()) == 100
    results = presses(profile, seed=len(profile.name))
    bursts = [n for n in results if n]
    assert binomtest(len(bursts), PRESSES, chance).pvalue > 0.001
    counts = Counter(bursts)
    assert set(counts) == set(percent)
    sizes = sorted(percent)
    expected = [percent[n] / 100 * len(bursts) for n in sizes]
    assert chisquare([counts[n] for n in sizes], expected).pvalue > 0.001


def test_classic_bursts_are_most_often_3_to_5():
    bursts = [n for n in presses(PROFILES["classic"], seed=1) if n]
    middle = sum(3 <= n <= 5 for n in bursts) / len(bursts)
    assert middle > 0.55
    assert Counter(bursts).most_common(1)[0][0] in (3, 4, 5)


def test_ascending_always_fires_by_the_fourth_press():
    profile = PROFILES["ascending"]
    rng = random.Random(4)
    misses, longest, first_press_fires, first_presses = 0, 0, 0, 0
    for _ in range(100_000):
        cards = hit(profile, misses, rng)
        if misses == 0:
            first_presses += 1
            first_press_fires += cards > 0
        misses = 0 if cards else misses + 1
        longest = max(longest, misses)
    assert longest == 3
    assert binomtest(first_press_fires, first_presses, 1 / 6).pvalue > 0.001


def test_custom_profile_takes_its_bounds_either_way_round():
    assert custom_profile(50, 6, 2) == custom_profile(50, 2, 6)
    assert hit(custom_profile(100, 3, 3), 0, random.Random(0)) == 3
    assert hit(custom_profile(0, 3, 3), 0, random.Random(0)) == 0


def test_a_custom_chance_of_100_percent_fires_on_every_press():
    rng = random.Random(5)
    assert all(hit(custom_profile(100, 1, 12), 0, rng) for _ in range(5_000))
