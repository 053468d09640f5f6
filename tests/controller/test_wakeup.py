"""The engine's one timer: always exactly one wakeup pending for the time the engine asks,
reached by a short last sleep."""

import pytest

from controller.shell.wakeup import LEAD, Wakeup
from hardware.clock import VirtualClock


def run_all(clock: VirtualClock, until: float = 10_000.0) -> list[float]:
    """Run every timer due by `until`; the moments they ran at."""
    ran = []
    while clock.run_next(until):
        ran.append(clock.now())
    return ran


@pytest.mark.parametrize(
    ("then", "woken"),
    [(2.0, [1.0, 2.0]), (None, [1.0])],
    ids=["the same time: never two timers", "none: the pending timer cancelled"],
)
def test_a_wakeup_handled_late_then_asked_for_again(then, woken):
    clock = VirtualClock(0.0)
    woke: list[float] = []
    wakeup = Wakeup(clock, 0.0, lambda: woke.append(clock.now()))
    wakeup.at(1.0)
    run_all(clock, 1.0)  # it fires; the daemon has not handled it yet...
    wakeup.at(2.0)  # ...when an edge moves the wakeup on
    wakeup.fired()  # now the first wakeup is handled
    wakeup.at(then)  # and the engine still wants 2.0, or no wakeup at all
    run_all(clock)
    assert woke == woken


def test_moving_the_wakeup_cancels_the_old_time():
    clock = VirtualClock(0.0)
    woke: list[float] = []
    wakeup = Wakeup(clock, 0.5, lambda: woke.append(clock.now()))
    wakeup.at(1.0)
    wakeup.at(3.0)
    wakeup.at(None)
    wakeup.at(4.0)
    run_all(clock, 10.0)
    assert woke == [4.5]


@pytest.mark.parametrize("ahead", [0.0005, 2 * LEAD, 0.05, 2.0, 30.0, 3600.0])
def test_the_last_sleep_before_a_wakeup_is_short(ahead):
    clock = VirtualClock(0.0)
    woke: list[float] = []
    wakeup = Wakeup(clock, 0.0, lambda: woke.append(clock.now()))
    wakeup.at(ahead)
    ran = run_all(clock)
    assert woke == [ahead]
    moments = [0.0, *ran]
    assert ran[-1] - moments[-2] <= 2 * LEAD + 1e-9
    # Each earlier timer leaves room for its own sleep to end a thousandth of it late.
    for start, end in zip(moments, ran[:-1], strict=False):
        assert end + (end - start) / 1000 < ahead
    assert len(ran) <= 5  # a handful of wakes, however far off


def test_a_late_lead_timer_still_wakes_once_at_the_moment():
    clock = VirtualClock(0.0)
    woke: list[float] = []
    wakeup = Wakeup(clock, 0.0, lambda: woke.append(clock.now()))
    wakeup.at(2.0)
    due = clock.next_due()
    assert due is not None and due < 2.0 - LEAD
    clock.set(2.5)  # the loop was held up past the moment: the lead timer runs late
    run_all(clock, 2.5)
    assert woke == [2.5]


def test_cancel_stops_a_wakeup_on_its_way():
    clock = VirtualClock(0.0)
    woke: list[float] = []
    wakeup = Wakeup(clock, 0.0, lambda: woke.append(clock.now()))
    wakeup.at(2.0)
    clock.run_next(1.999)  # the lead timer has run; the one for the moment is set
    wakeup.cancel()
    run_all(clock)
    assert woke == []
