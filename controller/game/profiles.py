"""Launcher profiles: what a press of the launcher button does.

A hit fires with the profile's probability; a burst's size is drawn from its weights. The
ascending profile raises the chance with every miss so that it always fires by the fourth
press, as the newest original units do.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class LauncherProfile:
    name: str
    fire_chances: tuple[float, ...]  # chance to fire after 0, 1, 2, ... misses (last repeats)
    burst_weights: Mapping[int, float]  # cards in a burst -> relative weight

    def fire_chance(self, misses: int) -> float:
        return self.fire_chances[min(misses, len(self.fire_chances) - 1)]


CLASSIC_BURST = {1: 4, 2: 8, 3: 20, 4: 22, 5: 20, 6: 12, 7: 8, 8: 6}

PROFILES: Mapping[str, LauncherProfile] = {
    "classic": LauncherProfile("classic", (1 / 3,), CLASSIC_BURST),
    "mild": LauncherProfile("mild", (1 / 4,), {1: 50, 2: 35, 3: 15}),
    "wild": LauncherProfile(
        "wild",
        (1 / 2,),
        {2: 6, 3: 10, 4: 12, 5: 12, 6: 12, 7: 11, 8: 10, 9: 9, 10: 7, 11: 6, 12: 5},
    ),
    "ascending": LauncherProfile("ascending", (1 / 6, 1 / 3, 2 / 3, 1.0), CLASSIC_BURST),
}


def custom_profile(chance_percent: int, smallest: int, largest: int) -> LauncherProfile:
    """The custom profile: a fixed chance and bursts uniform from `smallest` to `largest`."""
    low, high = sorted((smallest, largest))
    return LauncherProfile(
        "custom", (chance_percent / 100,), {n: 1.0 for n in range(low, high + 1)}
    )


def hit(profile: LauncherProfile, misses: int, rng: random.Random) -> int:
    """Cards this hit fires: 0 for a miss. Draws from `rng` the same way every time."""
    if rng.random() >= profile.fire_chance(misses):
        return 0
    sizes = sorted(profile.burst_weights)
    return rng.choices(sizes, [profile.burst_weights[n] for n in sizes])[0]
