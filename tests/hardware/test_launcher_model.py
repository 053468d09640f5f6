"""The launcher model: cards leave as the motor drives them, and the beam shows each one."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from gpiozero import DigitalInputDevice, Motor
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.clock import VirtualClock
from hardware.pinmap import DEFAULT_PINS, SIM_HEADER, SIMULATION_EXTRA_PINS, PinMap
from hardware.sim.launcher_model import GroundingPin, LauncherModel
from hardware.sim.pins import SimFactory

FORWARD, BACKWARD, BEAM, EMPTY = 15, 2, 3, 0
DEBOUNCE = 0.003


class Rig:
    """The model with the daemon's view of it: the motor and the beam and switch inputs."""

    def __init__(self, cards: int = 54, seed: int = 0) -> None:
        self.clock = VirtualClock()
        self.factory = SimFactory(self.clock)
        self.model = LauncherModel(
            self.factory,
            self.clock,
            forward_pin=FORWARD,
            backward_pin=BACKWARD,
            beam_pin=BEAM,
            empty_pin=EMPTY,
            cards=cards,
            rng=random.Random(seed),
        )
        self.motor = Motor(FORWARD, BACKWARD, pwm=True, pin_factory=self.factory)
        # As on the board: the line is low (input active) while the beam is clear.
        self.beam = DigitalInputDevice(BEAM, pull_up=True, pin_factory=self.factory)
        self.empty_switch = DigitalInputDevice(EMPTY, pull_up=True, pin_factory=self.factory)
        # (time, beam blocked, net drive, cards out) at every beam edge
        self.edges: list[tuple[float, bool, float, int]] = []
        # What the daemon would do as the beam clears (in the edge callback itself)
        self.on_clear: Callable[[], None] = lambda: None
        self.beam.when_deactivated = lambda: self._edge(True)
        self.beam.when_activated = lambda: self._edge(False)

    def _edge(self, blocked: bool) -> None:
        self.edges.append((self.clock.now(), blocked, self.model.motor_speed, self.model.cards_out))
        if not blocked:
            self.on_clear()

    def run(self, seconds: float) -> None:
        until = self.clock.now() + seconds
        while self.clock.run_next(until):
            pass
        self.clock.set(until)

    def pulses(self) -> list[float]:
        """How long each completed blocking of the beam lasted."""
        out, start = [], None
        for when, blocked, _, _ in self.edges:
            if blocked:
                start = when
            elif start is not None:
                out.append(when - start)
                start = None
        return out

    def close(self) -> None:
        for device in (self.beam, self.empty_switch, self.motor):
            device.close()
        self.model.close()
        self.factory.reset()


@pytest.fixture
def rig():
    rig = Rig()
    yield rig
    rig.close()


def test_full_speed_for_a_second_moves_about_eight_cards_one_pulse_each(rig):
    rig.motor.forward(1.0)
    rig.run(1.0)
    assert 7 <= rig.model.cards_out <= 9
    pulses = rig.pulses()
    assert len(pulses) == rig.model.cards_out
    assert all(0.025 <= p <= 0.040 for p in pulses)
    assert rig.model.cards_out + rig.model.cards_left == 54


def test_the_pin_records_agree_with_the_beam_input(rig):
    pin = rig.factory.pin(BEAM)
    pin.clear_states()
    rig.motor.forward(1.0)
    rig.run(1.0)
    rig.motor.stop()
    highs = [s.timestamp for before, s in itertools.pairwise(pin.states) if before.state]
    assert highs == pytest.approx(rig.pulses())


def test_a_pass_that_comes_late_gives_every_beam_edge_its_own_time():
    """A busy process runs the model's next-edge timer late: the cards are carried through
    every edge they passed meanwhile, and each edge keeps the time the card got there, as the
    kernel's timestamp or the Pico's interrupt would give it."""
    on_time, late = Rig(seed=3), Rig(seed=3)
    try:
        for rig in (on_time, late):
            rig.factory.pin(BEAM).clear_states()
            rig.motor.forward(1.0)
        on_time.run(1.2)
        for _ in range(4):  # the loop is 0.3 s late each time: a few cards pass unseen
            late.clock.set(late.clock.now() + 0.3)
            late.run(0.0)
        assert late.model.cards_out == on_time.model.cards_out >= 8
        edges = [list(rig.factory.pin(BEAM).states) for rig in (on_time, late)]
        assert [s.state for s in edges[1]] == [s.state for s in edges[0]]
        assert [s.timestamp for s in edges[1]] == pytest.approx([s.timestamp for s in edges[0]])
    finally:
        on_time.close()
        late.close()


def test_a_slower_motor_feeds_slower_and_a_stalled_one_not_at_all(rig):
    rig.motor.forward(0.15)
    rig.run(2.0)
    assert rig.model.cards_out == 0
    assert not rig.model.card_in_slot
    rig.motor.forward(0.5)
    rig.run(1.0)
    slow = rig.model.cards_out
    assert 1 <= slow <= 4
    assert all(p > 0.05 for p in rig.pulses())


def test_stopping_the_motor_stops_the_cards_and_is_recorded(rig):
    rig.motor.forward(1.0)
    rig.run(0.5)
    out = rig.model.cards_out
    stopped = rig.clock.now()
    rig.motor.stop()
    rig.run(3.0)
    assert rig.model.cards_out == out
    assert rig.model.motor_speed == 0.0
    assert rig.model.stop_times == [stopped]


def test_a_card_stopped_in_the_beam_stays_there_and_goes_on_when_restarted(rig):
    rig.motor.forward(1.0)
    while not rig.edges:
        rig.run(0.001)
    rig.run(0.010)
    rig.motor.stop()
    rig.run(2.0)
    assert rig.model.card_in_beam and not rig.beam.is_active
    assert rig.model.cards_out == 0
    restarted = rig.clock.now()
    rig.motor.forward(1.0)
    rig.run(0.1)
    assert rig.model.cards_out == 1
    left_at = rig.edges[1][0]
    # 31.25 ms in the beam, 11 ms of them before the stop (the edge is seen to the millisecond)
    assert 0.019 <= left_at - restarted <= 0.0215


def test_a_jam_stops_the_cards_while_the_motor_runs_and_clearing_resumes(rig):
    rig.motor.forward(1.0)
    rig.run(0.4)
    out = rig.model.cards_out
    rig.model.jam()
    rig.run(2.0)
    assert rig.model.cards_out == out and rig.model.jammed
    assert rig.model.motor_speed == 1.0 and not rig.model.stop_times
    rig.model.clear_jam()
    rig.run(1.0)
    assert rig.model.cards_out >= out + 7
    assert len(rig.pulses()) == rig.model.cards_out


def test_running_out_presses_the_switch_and_no_card_passes_until_refilled():
    rig = Rig(cards=3)
    try:
        assert not rig.empty_switch.is_active
        rig.motor.forward(1.0)
        rig.run(2.0)
        assert (rig.model.cards_out, rig.model.cards_left) == (3, 0)
        assert rig.empty_switch.is_active
        edges = len(rig.edges)
        rig.run(2.0)
        assert len(rig.edges) == edges
        rig.model.refill(5)
        assert not rig.empty_switch.is_active
        rig.run(2.0)
        assert rig.model.cards_out == 8 and rig.empty_switch.is_active
        assert len(rig.pulses()) == 8
    finally:
        rig.close()


def test_emptying_on_demand_takes_the_card_in_the_slot_too(rig):
    rig.motor.forward(1.0)
    while not rig.model.card_in_beam:
        rig.run(0.001)
    assert rig.model.empty() == 54
    assert rig.empty_switch.is_active and rig.beam.is_active
    rig.run(2.0)
    assert rig.model.cards_out == 0
    assert len(rig.pulses()) == 1  # the card was pulled out of the beam: not a card out


def test_running_backwards_retracts_the_next_card_and_never_counts_one(rig):
    rig.motor.forward(1.0)
    while not rig.model.card_in_beam:
        rig.run(0.001)
    rig.motor.backward(1.0)
    rig.run(0.3)
    assert rig.model.cards_out == 0
    assert not rig.model.card_in_slot and rig.beam.is_active
    rig.run(2.0)
    assert rig.model.cards_out == 0 and rig.model.cards_left == 54


def test_stopping_on_the_edge_of_the_last_wanted_card_lets_no_other_card_out(rig):
    def on_clear() -> None:
        if rig.model.cards_out == 4:
            rig.motor.stop()

    rig.on_clear = on_clear
    rig.motor.forward(1.0)
    rig.run(5.0)
    assert rig.model.cards_out == 4
    assert not rig.model.card_in_slot
    rig.motor.backward(0.8)
    rig.run(0.2)
    rig.motor.stop()
    assert rig.model.cards_out == 4


def test_glitches_are_short_pulses_and_not_cards(rig):
    for _ in range(5):
        rig.model.glitch()
        rig.run(0.05)
    assert rig.model.cards_out == 0
    pulses = rig.pulses()
    assert len(pulses) == 5
    assert all(p < DEBOUNCE for p in pulses)


def test_the_beam_level_survives_the_daemon_rebuilding_its_input(rig):
    rig.beam.close()
    again = DigitalInputDevice(BEAM, pull_up=True, pin_factory=rig.factory)
    try:
        assert again.is_active  # clear beam: line low in spite of the pull-up
    finally:
        again.close()


def test_the_model_must_claim_its_input_pins_first():
    factory = SimFactory(VirtualClock())
    factory.pin(BEAM)
    with pytest.raises(ValueError, match="before the devices"):
        LauncherModel(
            factory, factory.clock, forward_pin=FORWARD, backward_pin=BACKWARD, beam_pin=BEAM
        )
    factory.reset()


def test_the_model_sits_on_the_launcher_roles_of_the_simulated_pin_map():
    pinmap = PinMap.build(
        4, base={**DEFAULT_PINS, **SIMULATION_EXTRA_PINS}, header=SIM_HEADER, i2c_in_use=False
    )
    factory = SimFactory(VirtualClock())
    model = LauncherModel.for_pinmap(factory, factory.clock, pinmap, cards=10)
    assert isinstance(factory.pin(pinmap["launcher.beam"]), GroundingPin)
    assert isinstance(factory.pin(pinmap["launcher.empty"]), GroundingPin)
    assert model.cards_left == 10
    model.close()
    factory.reset()


# Mostly long enough for cards to move, sometimes (as a boundary) no time at all
delays = st.floats(0.0, 0.4) | st.sampled_from([0.0, 0.02, 0.1, 0.3])
forward_steps = st.lists(
    st.tuples(
        delays,
        st.one_of(
            st.tuples(st.just("speed"), st.floats(0.0, 1.0) | st.just(1.0)),
            st.tuples(st.just("speed"), st.floats(0.3, 1.0)),
            st.tuples(st.just("stop"), st.none()),
            st.tuples(st.just("glitch"), st.floats(0.0005, 0.002)),
            st.tuples(st.just("jam"), st.none()),
            st.tuples(st.just("clear"), st.none()),
            st.tuples(st.just("refill"), st.integers(0, 4)),
        ),
    ),
    min_size=3,
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(
    cards=st.integers(0, 3) | st.integers(4, 12), steps=forward_steps, seed=st.integers(0, 2**16)
)
def test_every_long_pulse_is_a_card_out_and_no_more_leave_than_were_loaded(cards, steps, seed):
    rig = Rig(cards=cards, seed=seed)
    loaded = cards
    try:
        for delay, (action, arg) in steps:
            rig.run(delay)
            if action == "speed":
                rig.motor.forward(arg)
            elif action == "stop":
                rig.motor.stop()
            elif action == "glitch" and rig.beam.is_active:
                rig.model.glitch(arg)
            elif action == "jam":
                rig.model.jam()
            elif action == "clear":
                rig.model.clear_jam()
            elif action == "refill":
                rig.model.refill(arg)
                loaded += arg
            assert rig.model.cards_out + rig.model.cards_left == loaded
        # Whatever state the steps left behind, the launcher then runs freely for a while.
        rig.model.clear_jam()
        rig.motor.forward(1.0)
        rig.run(1.0)
        rig.motor.stop()
        rig.run(0.1)
        long_pulses = [p for p in rig.pulses() if p > DEBOUNCE]
        assert rig.model.cards_out == len(long_pulses) <= loaded
        assert rig.model.cards_out + rig.model.cards_left == loaded
    finally:
        rig.close()


any_direction_steps = st.lists(
    st.tuples(
        delays,
        st.one_of(
            st.tuples(st.just("speed"), st.floats(-1.0, 1.0)),
            st.tuples(st.just("speed"), st.sampled_from([-1.0, 0.0, 1.0])),
            st.tuples(st.just("jam"), st.none()),
            st.tuples(st.just("clear"), st.none()),
            st.tuples(st.just("until_in_beam"), st.none()),
        ),
    ),
    min_size=3,
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(
    cards=st.integers(0, 3) | st.integers(4, 12),
    steps=any_direction_steps,
    seed=st.integers(0, 2**16),
)
def test_a_card_is_counted_out_exactly_when_the_beam_clears_going_forward(cards, steps, seed):
    rig = Rig(cards=cards, seed=seed)
    try:
        for delay, (action, arg) in steps:
            rig.run(delay)
            if action == "speed":
                rig.motor.value = arg
            elif action == "jam":
                rig.model.jam()
            elif action == "clear":
                rig.model.clear_jam()
            else:
                # so that the roller often reverses with a card in the beam
                for _ in range(300):
                    if rig.model.card_in_beam:
                        break
                    rig.run(0.001)
        rig.model.clear_jam()
        rig.motor.forward(1.0)
        rig.run(0.6)
        rig.motor.backward(1.0)
        rig.run(0.2)
        rig.motor.stop()
        counted = 0
        for _, blocked, speed, out in rig.edges:
            if not blocked and speed > 0:
                counted += 1
            # The count the model shows at each edge already holds the card that edge shows.
            assert out == counted
        assert rig.model.cards_out == counted <= cards
        assert rig.model.cards_out + rig.model.cards_left == cards
    finally:
        rig.close()


@settings(max_examples=100, deadline=None)
@given(
    wanted=st.integers(1, 6),
    speeds=st.lists(st.tuples(st.floats(0.0, 0.3), st.floats(0.0, 1.0)), max_size=30),
    seed=st.integers(0, 2**16),
)
def test_a_stop_on_the_edge_of_card_n_leaves_exactly_n_out(wanted, speeds, seed):
    rig = Rig(cards=10, seed=seed)

    def on_clear() -> None:
        if rig.model.cards_out >= wanted:
            rig.motor.stop()

    rig.on_clear = on_clear
    try:
        for delay, speed in [*speeds, (0.0, 1.0)]:
            rig.run(delay)
            if rig.model.cards_out < wanted:
                rig.motor.forward(speed)
        rig.run(10.0)
        assert rig.model.cards_out == wanted
        assert rig.model.stop_times[-1] == rig.edges[-1][0]
    finally:
        rig.close()
