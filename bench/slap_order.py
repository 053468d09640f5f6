"""SLAP ordering: races whose presses come 0.2-50 ms apart, ranked by the rules engine.

Each race has seven racers whose edges come 0.2-50 ms apart (a third of the gaps under
1.5 ms, so near-ties and chains of them are common) and are handled in random order, as
edges crossing from pin threads may be. An ordering error is a pair of presses more than
1 ms apart ranked against their edge order. Baseline in the same run: the same races ranked
by grouping each press with the one before it when within 1 ms (chaining), the rule the
engine no longer uses. Run with two CPU hogs, as on a busy table.
Usage: python bench/slap_order.py [races]
"""

from __future__ import annotations

import random
import sys
import time

from figures import hogs

from controller.game import Press, Tick, new_table, next_wakeup, step
from controller.game.slap import TIE
from controller.game.state import Phase
from controller.settings import Settings

SEATS = 8


def gaps(rng: random.Random, count: int) -> list[float]:
    return [
        rng.uniform(0.0002, 0.0015) if rng.random() < 1 / 3 else rng.uniform(0.0015, 0.05)
        for _ in range(count)
    ]


def errors(order: list[int], edges: dict[int, float]) -> int:
    """Pairs more than TIE apart that `order` ranks against their edges."""
    return sum(
        1 for i, a in enumerate(order) for b in order[i + 1 :] if edges[a] - edges[b] > TIE + 1e-9
    )


def chained(edges: dict[int, float], rng: random.Random) -> list[int]:
    """The baseline: a press joins the tie group of the press just before it."""
    pressed = sorted(edges, key=edges.__getitem__)
    groups: list[list[int]] = []
    for seat in pressed:
        if groups and edges[seat] - edges[groups[-1][-1]] <= TIE + 1e-9:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    for group in groups:
        rng.shuffle(group)
    return [seat for group in groups for seat in group]


def race(rng: random.Random) -> tuple[list[int], dict[int, float]]:
    """One race through the engine: the ranking it announced and the true edges."""
    settings = Settings({"mode": "flash", "turn_timer": "off", "sleep_time": "off"})
    table, now = new_table(settings, SEATS), 1000.0
    for seat in range(1, SEATS + 1):
        table, _ = step(table, Press(f"seat{seat}", now), now, rng)
        now += 0.05
    table, _ = step(table, Press("play_pause", now), now, rng)
    assert table.turn is not None
    slapper, now = table.turn.seat, now + 1.0
    table, _ = step(table, Press("slap", now), now, rng)
    racers = [s for s in range(1, SEATS + 1) if s != slapper]
    rng.shuffle(racers)
    edges, at = {}, now + 0.15
    for seat, gap in zip(racers, gaps(rng, len(racers)), strict=True):
        at += gap
        edges[seat] = at
    handled = now + 0.5
    for seat in rng.sample(racers, len(racers)):
        table, _ = step(table, Press(f"seat{seat}", edges[seat]), handled, rng)
    while table.phase is Phase.SLAP:
        wake = next_wakeup(table)
        assert wake is not None
        table, effects = step(table, Tick(wake), wake, rng)
    [result] = [e.data for e in effects if getattr(e, "type", None) == "slap_result"]
    return [p["seat"] for p in result["order"]], edges


def main() -> None:
    races = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rng = random.Random(1)
    ours = baseline = races_wrong = baseline_wrong = pairs = 0
    with hogs(2):
        start = time.perf_counter()
        for _ in range(races):
            order, edges = race(rng)
            wrong = errors(order, edges)
            ours += wrong
            races_wrong += wrong > 0
            theirs = errors(chained(edges, rng), edges)
            baseline += theirs
            baseline_wrong += theirs > 0
            pairs += len(edges) * (len(edges) - 1) // 2
        seconds = time.perf_counter() - start
    print(f"{races} races, {pairs} pairs, with two CPU hogs ({seconds:.0f} s)")
    print(f"engine: {ours} pairs ranked against their edges, in {races_wrong} races")
    print(f"baseline (chained ties): {baseline} pairs, in {baseline_wrong} races")


if __name__ == "__main__":
    main()
