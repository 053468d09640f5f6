"""Debounce at the edge of its window: the 15 ms after a change are bounce, and an edge at
exactly 15 ms is the first that is not (hardware/README.md, "Debounce and edge times")."""

from __future__ import annotations

from collections.abc import Callable

from controller.shell.switches import Switches
from hardware.clock import VirtualClock
from hardware.debounce import DEBOUNCE_WINDOW, Change, Debouncer

W = DEBOUNCE_WINDOW


def test_the_window_is_fifteen_milliseconds():
    assert W == 0.015
    assert Debouncer().window == W


def test_an_edge_exactly_one_window_after_a_change_is_a_change():
    debouncer = Debouncer()
    assert debouncer.edge(True, 10.0) == [Change(True, 10.0)]
    assert debouncer.edge(False, 10.0 + W) == [Change(False, 10.0 + W)]
    # ... and it opens a window of its own, from its own edge.
    assert debouncer.quiet_at == 10.0 + W + W
    assert debouncer.edge(True, 10.0 + W + W / 2) == []


def test_an_edge_just_inside_the_window_is_bounce():
    debouncer = Debouncer()
    debouncer.edge(True, 10.0)
    assert debouncer.edge(False, 10.0 + W * 0.999) == []
    assert debouncer.settle() == Change(False, 10.0 + W * 0.999)


def test_a_change_hidden_by_the_window_is_reported_by_an_edge_exactly_at_its_end():
    """A tap shorter than the window, then a press exactly when the window ends: the hidden
    release comes first, at its own time, and the new press lies in the release's window."""
    debouncer = Debouncer()
    debouncer.edge(True, 10.0)
    assert debouncer.edge(False, 10.008) == []
    assert debouncer.edge(True, 10.0 + W) == [Change(False, 10.008)]
    assert debouncer.quiet_at == 10.008 + W
    assert debouncer.settle() == Change(True, 10.0 + W)


def test_the_mirror_of_a_pressed_switch_at_start_follows_the_same_window():
    debouncer = Debouncer(active=True)
    assert debouncer.edge(False, 5.0) == [Change(False, 5.0)]
    assert debouncer.edge(True, 5.0 + W) == [Change(True, 5.0 + W)]


class RecordingClock(VirtualClock):
    """A virtual clock that keeps when each timer was asked for."""

    def __init__(self, start: float) -> None:
        super().__init__(start)
        self.asked: list[float] = []

    def call_at(self, when: float, callback: Callable[[], None]):
        self.asked.append(when)
        return super().call_at(when, callback)


class Idle:
    is_active = False


def switches(grace: float) -> tuple[Switches, RecordingClock, list[tuple[str, float]]]:
    clock = RecordingClock(10.0)
    asked: list[tuple[str, float]] = []
    box = Switches({"seat1": Idle()}, clock, lambda name, w: asked.append((name, w)), grace)
    return box, clock, asked


def test_the_settle_is_asked_for_exactly_when_the_window_ends_plus_the_grace():
    box, clock, asked = switches(grace=0.02)
    assert box.edge("seat1", True, 10.0) == [Change(True, 10.0)]
    assert box.edge("seat1", False, 10.008) == []
    # Each edge asks again; the live request is for the window that the press opened.
    assert clock.asked[-1] == 10.0 + W + 0.02
    assert not clock.run_next(10.0 + W + 0.02 - 1e-6)
    assert clock.run_next(10.0 + W + 0.02)
    assert asked == [("seat1", 10.0 + W)]
    assert box.settled("seat1", 10.0 + W) == [Change(False, 10.008)]


def test_a_settle_without_grace_at_exactly_the_window_reports_the_hidden_change():
    box, clock, asked = switches(grace=0.0)
    box.edge("seat1", True, 10.0)
    box.edge("seat1", False, 10.008)
    assert clock.run_next(10.0 + W)
    [(name, window)] = asked
    assert box.settled(name, window) == [Change(False, 10.008)]


def test_an_edge_exactly_at_the_window_end_counts_through_the_switches():
    box, _, _ = switches(grace=0.02)
    box.edge("seat1", True, 10.0)
    assert box.edge("seat1", False, 10.0 + W) == [Change(False, 10.0 + W)]


def test_a_late_settle_for_an_old_window_never_cuts_short_a_newer_one():
    box, _, _ = switches(grace=0.02)
    box.edge("seat1", True, 10.0)
    box.edge("seat1", False, 10.0 + W)  # a new window, to 10.0 + 2W
    box.edge("seat1", True, 10.0 + W + 0.001)  # bounce inside it, not yet settled
    assert box.settled("seat1", 10.0 + W) == []
    assert box.settled("seat1", 10.0 + W + W) == [Change(True, 10.0 + W + 0.001)]
