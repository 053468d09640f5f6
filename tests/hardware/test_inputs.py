"""Our debounce: one press per bounce burst, edge times kept, short taps not lost; and the
input that hands each edge over, in the order the edges came."""

import random

from hypothesis import given
from hypothesis import strategies as st

from hardware.debounce import DEBOUNCE_WINDOW, Change, Debouncer


def test_first_edge_counts_at_once_with_its_own_time():
    debouncer = Debouncer()
    assert debouncer.edge(True, 10.0) == [Change(True, 10.0)]


def test_bounce_within_the_window_is_ignored():
    debouncer = Debouncer()
    debouncer.edge(True, 10.0)
    assert debouncer.edge(False, 10.001) == []
    assert debouncer.edge(True, 10.002) == []
    assert debouncer.settle() is None


def test_a_tap_shorter_than_the_window_is_a_press_and_a_release():
    debouncer = Debouncer()
    debouncer.edge(True, 10.0)
    assert debouncer.edge(False, 10.008) == []
    assert debouncer.settle() == Change(False, 10.008)


def test_a_hidden_change_not_yet_settled_comes_before_the_next_edge():
    debouncer = Debouncer()
    debouncer.edge(True, 10.0)
    debouncer.edge(False, 10.008)
    # The next press is handled before the settle of the first window.
    assert debouncer.edge(True, 10.2) == [Change(False, 10.008), Change(True, 10.2)]
    assert debouncer.settle() is None


def test_an_edge_inside_the_window_a_hidden_change_opens_is_bounce():
    debouncer = Debouncer()
    debouncer.edge(True, 10.0)
    debouncer.edge(False, 10.008)
    assert debouncer.edge(True, 10.02) == [Change(False, 10.008)]  # 10.02 < 10.008 + window
    assert debouncer.settle() == Change(True, 10.02)


@given(
    seed=st.integers(0, 2**32 - 1),
    edges=st.integers(1, 15).map(lambda n: 2 * n + 1),
    duration=st.floats(0.0005, DEBOUNCE_WINDOW * 0.9),
)
def test_any_burst_shorter_than_the_window_is_one_press(seed, edges, duration):
    rng = random.Random(seed)
    times = sorted(10.0 + rng.uniform(0, duration) for _ in range(edges))
    debouncer = Debouncer()
    changes = [c for n, t in enumerate(times) for c in debouncer.edge(n % 2 == 0, t)]
    assert changes == [Change(True, times[0])]
    assert debouncer.settle() is None


def test_an_edge_input_reports_each_change_once_and_keeps_gpiozeros_own_events():
    from hardware.clock import VirtualClock
    from hardware.inputs import EdgeInput
    from hardware.sim.pins import SimFactory

    clock = VirtualClock(5.0)
    factory = SimFactory(clock)
    edges: list[tuple[str, bool, float]] = []
    button = EdgeInput(
        17, role="seat1", on_edge=lambda *edge: edges.append(edge), pin_factory=factory
    )
    pressed: list[bool] = []
    button.when_activated = lambda: pressed.append(True)
    pin = factory.pin(17)
    pin.drive_low()
    # A backend may report the same level again (a bounce too short to read): no new edge.
    pin._call_when_changed(5.0, False)
    clock.set(5.5)
    pin.drive_high()
    assert edges == [("seat1", True, 5.0), ("seat1", False, 5.5)]
    assert pressed == [True]  # gpiozero's own handler still runs
    assert button.is_active is False
    button.close()


def test_an_edge_the_pin_thread_handler_makes_at_once_is_handed_over_after_its_cause(factory):
    # The launcher's gate stops the motor from the beam's edge on the pin thread; a simulated
    # launcher's model may answer with the next beam edge inside that very call.
    from hardware.inputs import EdgeInput

    edges: list[tuple[str, bool, float]] = []
    beam = EdgeInput(
        22, role="launcher.beam", on_edge=lambda *edge: edges.append(edge), pin_factory=factory
    )
    pin = factory.pin(22)

    def gate(active: bool, time: float) -> None:
        if active:  # the card's front: its tail clears the beam at once
            factory.clock.set(time + 0.01)
            pin.drive_high()

    beam.on_pin_thread = gate
    front = factory.clock.now()
    pin.drive_low()
    assert edges == [("launcher.beam", True, front), ("launcher.beam", False, front + 0.01)]
    beam.close()
