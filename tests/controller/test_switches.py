"""The buttons after debounce, on a loop that handles edges and settles late and in any order
that asyncio allows: presses and releases are decided by the edges' own times."""

from __future__ import annotations

import heapq
import itertools
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.shell.switches import Switches
from hardware.debounce import DEBOUNCE_WINDOW, Change

GRACE = 0.02  # what the daemon gives an edge to cross from its pin thread


class LateTimer:
    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when, self.callback, self.cancelled = when, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class BusyLoop:
    """A model of the daemon's asyncio loop under load. Each iteration first queues the edges
    their pin thread has posted by then (in order), then the settles whose timers are due;
    the daemon then handles the whole queue, each item taking its own while."""

    def __init__(self, costs: list[float]) -> None:
        self.time = 0.0
        self._costs = itertools.cycle(costs)
        self._timers: list[tuple[float, int, LateTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.time

    def call_at(self, when: float, callback: Callable[[], None]) -> LateTimer:
        timer = LateTimer(when, callback)
        heapq.heappush(self._timers, (when, next(self._order), timer))
        return timer

    def _next_due(self) -> float | None:
        while self._timers and self._timers[0][2].cancelled:
            heapq.heappop(self._timers)
        return self._timers[0][0] if self._timers else None

    def run(self, posts: list[tuple[float, bool, float]]) -> list[Change]:
        """Play edges (posted at, active, edge time) through `Switches`; the changes out."""
        changes: list[Change] = []
        queue: deque[tuple[bool | None, float]] = deque()  # an edge, or a settle and its window
        switches = Switches({"seat1": Idle()}, self, lambda _, w: queue.append((None, w)), GRACE)
        waiting = deque(posts)
        while True:
            while waiting and waiting[0][0] <= self.time:
                _, active, when = waiting.popleft()
                queue.append((active, when))
            while (due := self._next_due()) is not None and due <= self.time:
                heapq.heappop(self._timers)[2].callback()
            while queue:
                active, when = queue.popleft()
                if active is None:
                    changes += switches.settled("seat1", when)
                else:
                    changes += switches.edge("seat1", active, when)
                self.time += next(self._costs)
            moments = [waiting[0][0]] if waiting else []
            if (due := self._next_due()) is not None:
                moments.append(due)
            if not moments:
                return changes
            self.time = max(self.time, min(moments))


@dataclass(frozen=True)
class Idle:
    is_active: bool = False


@dataclass(frozen=True)
class Push:
    """One physical press of the button: down at `down` for `length` seconds."""

    down: float
    length: float
    bounce_down: float  # how long the contacts chatter at each end
    bounce_up: float

    @property
    def up(self) -> float:
        return self.down + self.length


def chatter(rng: random.Random, at: float, level: bool, bounce: float) -> list[tuple[bool, float]]:
    """The edges of one transition towards `level`: an odd number, all within `bounce`."""
    extra = rng.randrange(0, 6) if bounce > 0 else 0
    middle = sorted(at + rng.uniform(0, bounce) for _ in range(2 * extra))
    return [(level if n % 2 == 0 else not level, t) for n, t in enumerate([at, *middle])]


W = DEBOUNCE_WINDOW
glances = st.floats(0.002, W * 0.9)  # shorter than the window: still a press and a release
taps = st.floats(W, 0.5)  # a tap: held at least the window, never to the Jump-In mark
holds = st.floats(0.7, 3.0)  # a hold: past the Jump-In mark
bounces = st.one_of(st.just(0.0), st.floats(0.0, W * 0.9))


@st.composite
def pushes(draw: st.DrawFn) -> list[Push]:
    result, at = [], 10.0
    for _ in range(draw(st.integers(1, 8))):
        at += draw(st.floats(2 * W, 0.4))  # let go a while before the next press
        length = draw(st.one_of(glances, taps, holds))
        # The contacts settle before they part again.
        push = Push(at, length, min(draw(bounces), length * 0.9), draw(bounces))
        result.append(push)
        at = push.up
    return result


@settings(max_examples=300, deadline=None)
@given(
    presses=pushes(),
    costs=st.lists(st.one_of(st.just(0.0), st.floats(0.0, 0.3)), min_size=1, max_size=12),
    crossing=st.lists(st.floats(0.0, GRACE * 0.9), min_size=1, max_size=12),
    seed=st.integers(0, 2**32 - 1),
)
def test_each_push_is_one_press_and_one_release_at_its_own_times(presses, costs, crossing, seed):
    rng = random.Random(seed)
    edges = []
    for push in presses:
        edges += chatter(rng, push.down, True, push.bounce_down)
        edges += chatter(rng, push.up, False, push.bounce_up)
    # The pin thread posts each edge a little after it happened, in order.
    posts, posted = [], 0.0
    for (active, when), delay in zip(edges, itertools.cycle(crossing), strict=False):
        posted = max(posted, when + delay)
        posts.append((posted, active, when))

    changes = BusyLoop(costs).run(posts)

    assert [c.active for c in changes] == [True, False] * len(presses)  # no press from bounce
    for push, down, up in zip(presses, changes[::2], changes[1::2], strict=True):
        assert push.down <= down.time <= push.down + push.bounce_down
        assert push.up <= up.time <= push.up + push.bounce_up
        held = up.time - down.time  # what the engine measures taps and holds by
        assert abs(held - push.length) <= W
        assert (held < 0.6) == (push.length < 0.6)  # a tap never reads as a hold, nor back


def test_a_release_settled_after_the_next_press_is_handled_still_comes_first():
    # A tap shorter than the window: its release is hidden until the window has passed. The
    # loop is busy past the next press, so that press is queued before the settle.
    loop = BusyLoop([0.5, 0.0])
    changes = loop.run([(10.0, True, 10.0), (10.008, False, 10.008), (10.2, True, 10.2)])
    assert changes == [Change(True, 10.0), Change(False, 10.008), Change(True, 10.2)]
