"""The GPIO ejector on the launcher model: exactly the cards asked, through glitches and jams."""

import itertools
import random

import pytest
from gpiozero import Motor

from hardware.clock import VirtualClock
from hardware.ejector import CardCounted, Halted
from hardware.gpio_ejector import EDGE_WAIT, EDGE_WAIT_LIMIT, GpioEjector
from hardware.inputs import EdgeInput
from hardware.pinmap import DEFAULT_PINS, SIM_HEADER, SIMULATION_EXTRA_PINS, PinMap
from hardware.sim.launcher_model import LauncherModel
from hardware.sim.pins import SimFactory

PINMAP = PinMap.build(
    8, base={**DEFAULT_PINS, **SIMULATION_EXTRA_PINS}, header=SIM_HEADER, i2c_in_use=False
)


class Rig:
    """The launcher model with the ejector wired to it as the daemon wires it."""

    def __init__(self, seed: int = 0, cards: int = 54) -> None:
        self.clock = VirtualClock()
        self.factory = SimFactory(self.clock)
        self.model = LauncherModel.for_pinmap(
            self.factory, self.clock, PINMAP, cards=cards, rng=random.Random(seed)
        )
        self.reports: list = []
        self.motor = Motor(
            PINMAP["launcher.motor.forward"],
            PINMAP["launcher.motor.backward"],
            pin_factory=self.factory,
        )
        self.empty = EdgeInput(
            PINMAP["launcher.empty"],
            role="launcher.empty",
            on_edge=lambda name, active, t: self.ejector.edge(name, active, t),
            pin_factory=self.factory,
        )
        self.ejector = GpioEjector(
            self.motor,
            clock=self.clock,
            on_report=self.reports.append,
            beam_clear=lambda: self.beam.is_active,
            hopper_empty=lambda: self.empty.is_active,
        )
        self.queued: list[tuple[bool, float]] | None = None  # edges waiting to be handed on
        self.beam = EdgeInput(
            PINMAP["launcher.beam"],
            role="launcher.beam",
            on_edge=lambda _, clear, t: self._beam_edge(clear, t),
            pin_factory=self.factory,
        )
        self.beam.on_pin_thread = self.ejector.beam_edge_now

    def _beam_edge(self, clear: bool, t: float) -> None:
        if self.queued is None:
            self.ejector.edge("launcher.beam", clear, t)
        else:
            self.queued.append((clear, t))

    def hand_on(self) -> None:
        """The edges that waited, to the ejector (as the daemon's queue hands them on)."""
        queued, self.queued = self.queued or [], None
        for clear, t in queued:
            self.ejector.edge("launcher.beam", clear, t)

    def run_until_halted(self, limit: float = 30.0) -> Halted:
        end = self.clock.now() + limit
        start = len(self.reports)
        while self.clock.run_next(end):
            halts = [r for r in self.reports[start:] if isinstance(r, Halted)]
            if halts:
                return halts[0]
        raise AssertionError("the ejector never stopped")

    def run_for(self, seconds: float) -> None:
        end = self.clock.now() + seconds
        while self.clock.run_next(end):
            pass
        self.clock.set(end)

    def close(self) -> None:
        for device in (self.beam, self.ejector and self.motor, self.empty):
            device.close()
        self.model.close()


@pytest.fixture
def rig():
    rig = Rig()
    yield rig
    rig.close()


@pytest.mark.parametrize("count", [1, 2, 4, 6, 12])
def test_dispenses_exactly_the_count_and_pulls_the_next_card_back(rig, count):
    rig.ejector.dispense(count)
    halt = rig.run_until_halted()
    assert halt.reason == "done" and halt.owed == 0
    assert rig.model.cards_out == count
    assert [r.owed for r in rig.reports if isinstance(r, CardCounted)] == list(
        range(count - 1, -1, -1)
    )
    rig.run_for(5.0)
    assert rig.model.cards_out == count
    assert rig.model.motor_speed == 0
    assert not rig.model.card_in_beam
    assert rig.ejector.busy is False


def test_ten_thousand_dispenses_through_beam_noise_are_all_exact():
    rig = Rig(seed=99, cards=10_000)
    rng = random.Random(2026)
    asked = 0
    for _ in range(10_000):
        if rig.model.cards_left < 20:
            rig.model.refill(500)
        count = rng.randint(1, 6)
        before = rig.model.cards_out
        rig.ejector.dispense(count)
        # Glitches shorter than any card, at random moments of the dispense, far enough
        # apart that two never run together into one long pulse.
        moments = sorted(rng.uniform(0.0, 0.12 * count) for _ in range(rng.randint(0, 3)))
        for when in moments[:1] + [b for a, b in itertools.pairwise(moments) if b - a > 0.01]:
            length = rng.uniform(0.0005, 0.003)
            rig.clock.call_at(rig.clock.now() + when, lambda n=length: rig.model.glitch(n))
        halt = rig.run_until_halted()
        assert (halt.reason, rig.model.cards_out - before) == ("done", count)
        asked += count
        rig.run_for(0.1)
    assert rig.model.cards_out == asked
    rig.close()


def test_jams_anywhere_never_lose_or_add_a_card():
    rig = Rig(seed=5, cards=5_000)
    rng = random.Random(77)
    asked = jams = 0
    for _ in range(300):
        count = rng.randint(1, 8)
        asked += count
        rig.ejector.dispense(count)
        rig.clock.call_at(rig.clock.now() + rng.uniform(0.0, 0.15 * count), rig.model.jam)
        while (halt := rig.run_until_halted()).reason == "jam":
            jams += 1
            # The motor is off within 50 ms of the moment the jam was seen.
            assert rig.model.motor_speed == 0
            assert halt.time - rig.model.stop_times[-1] <= 0.05
            assert halt.owed == count - (rig.model.cards_out - (asked - count))
            rig.run_for(1.0)
            rig.model.clear_jam()
            rig.ejector.resume()
        assert halt.reason == "done"
        assert rig.model.cards_out == asked
    assert jams > 100
    rig.run_for(5.0)
    assert rig.model.cards_out == asked
    rig.close()


def test_a_dispense_of_fewer_than_no_cards_is_refused_and_changes_nothing(rig):
    with pytest.raises(ValueError, match=r"^cannot dispense fewer than no cards$"):
        rig.ejector.dispense(-1)
    rig.run_for(1.0)
    assert (rig.ejector.owed, rig.ejector.busy, rig.model.motor_speed) == (0, False, 0)


def test_an_empty_hopper_stops_and_keeps_the_count_owed(rig):
    rig.model.empty()
    rig.model.refill(3)
    rig.ejector.dispense(5)
    halt = rig.run_until_halted()
    assert (halt.reason, halt.owed, rig.model.cards_out) == ("empty", 2, 3)
    # At the switch's edge, with the last card: not a jam time later, with no card coming.
    assert halt.time == [r.time for r in rig.reports if isinstance(r, CardCounted)][-1]
    assert rig.model.motor_speed == 0
    rig.model.refill(10)
    rig.ejector.resume()
    assert rig.run_until_halted().reason == "done"
    assert rig.model.cards_out == 5


def test_dispensing_into_an_empty_hopper_says_so_at_once(rig):
    rig.model.empty()
    rig.ejector.dispense(2)
    assert rig.reports == [Halted("empty", rig.clock.now(), 2)]
    assert rig.model.motor_speed == 0


def test_the_last_card_asked_for_emptying_the_hopper_ends_the_dispense_done_not_empty(rig):
    rig.model.empty()
    rig.model.refill(3)
    rig.ejector.dispense(3)
    halt = rig.run_until_halted()
    assert (halt.reason, halt.owed, rig.model.cards_out, rig.ejector.fault) == ("done", 0, 3, None)
    rig.run_for(2.0)
    assert rig.reports[-1] == halt and rig.model.motor_speed == 0  # nothing more


def test_a_stop_just_after_the_last_card_left_counts_it_done_and_pulls_nothing_back(rig):
    """The card is out, the beam clear behind it, but not yet counted (the beam must stay
    clear a moment): a stop then counts it, the dispense is done, and the roller, stopped,
    stays stopped (no retract after a stop)."""
    rig.ejector.dispense(1)
    while rig.model.cards_out < 1:
        rig.clock.run_next(rig.clock.now() + 5.0)
    assert rig.reports == []
    rig.ejector.stop()
    now = rig.clock.now()
    assert rig.reports == [CardCounted(now, 0), Halted("done", now, 0)]
    rig.run_for(1.0)
    assert (rig.model.motor_speed, rig.model.cards_out, len(rig.reports)) == (0, 1, 2)


def test_a_stop_keeps_what_is_owed(rig):
    rig.ejector.dispense(6)
    rig.run_for(0.3)
    rig.ejector.stop()
    out = rig.model.cards_out
    assert 0 < out < 6 and rig.ejector.owed == 6 - out
    rig.run_for(2.0)
    assert rig.model.cards_out == out
    rig.ejector.resume()
    rig.run_until_halted()
    assert rig.model.cards_out == 6


def test_a_stop_counts_a_card_whose_edges_wait_to_be_handed_on(rig):
    """The daemon hands the beam's edges on from its queue: at a stop, the edges of a card
    that left just before it may still wait there. The motor stops first, then they are
    handed on, then the count, as on the controller: the card counts for the dispense (one
    owed fewer), not as a card past the count."""
    rig.ejector.dispense(3)
    while rig.model.cards_out < 1:
        rig.clock.run_next(rig.clock.now() + 5.0)
    rig.run_for(0.01)  # the first card is counted
    rig.queued = []
    while rig.model.cards_out < 2:
        rig.clock.run_next(rig.clock.now() + 5.0)
    rig.run_for(0.001)  # the second card left a moment before the stop
    rig.ejector.stop(rig.hand_on)
    assert rig.queued is None  # handed on
    assert [r.owed for r in rig.reports if isinstance(r, CardCounted)] == [2, 1]
    assert rig.ejector.owed == 1
    rig.run_for(2.0)
    assert rig.model.cards_out == 2


def test_behind_a_stalled_loop_the_gate_stops_the_motor_at_the_next_cards_front(rig):
    """The loop stalls from the start: it neither counts nor keeps a card. The gate, told
    every beam edge on the pin's thread, lets the one card go that needs no count kept, and
    stops the motor as the next one's front reaches the beam. Once the loop has the edges,
    the dispense goes on and deals exactly."""
    rig.queued = []
    rig.ejector.dispense(3)
    rig.run_for(0.5)  # less than the jam time: the loop's own timers would see a jam
    assert (rig.model.cards_out, rig.model.card_in_beam, rig.model.motor_speed) == (1, True, 0)
    assert rig.reports == []
    rig.hand_on()
    assert rig.run_until_halted().reason == "done"
    assert rig.model.cards_out == sum(isinstance(r, CardCounted) for r in rig.reports) == 3


def test_a_card_driven_out_past_the_count_while_the_edges_waited_is_reported_owing_nothing(
    rig, caplog
):
    """A loop that stalls hands the beam's edges on late, and the motor stops only when the
    last card asked for is counted: a card that the motor drove out meanwhile left before the
    stop. It is reported, with nothing owed, so that no card that came out goes uncounted; a
    flicker of the beam shorter than a card is not one."""
    # Every edge waits, as behind a stalled loop, and in the kernel's buffer, out of sight of
    # the gate on the pin's thread too.
    rig.queued = []
    rig.beam.on_pin_thread = None
    rig.ejector.dispense(2)

    def ended() -> list[float]:  # when each card waiting to be handed on cleared the beam
        return [t for clear, t in rig.queued or [] if clear]

    while len(ended()) < 3:
        rig.clock.run_next(rig.clock.now() + 5.0)
    rig.run_for(0.01)  # the third card is wholly out; the fourth not yet in the beam
    assert rig.model.motor_speed > 0 and rig.model.cards_out == 3
    cards_ended = ended()
    now = rig.clock.now()
    rig.queued += [(False, now - 0.004), (True, now - 0.0035)]  # half a millisecond: noise
    rig.hand_on()
    counted = [r for r in rig.reports if isinstance(r, CardCounted)]
    assert [r.owed for r in counted] == [1, 0, 0]
    assert counted[2].time == cards_ended[2]  # at the edge that ended it, before the stop
    assert "a card came out past the count (the loop stalled): reported" in caplog.messages
    assert rig.ejector.owed == 0
    rig.run_for(2.0)
    assert rig.model.cards_out == 3 and rig.model.motor_speed == 0


def test_the_beam_crossed_after_the_motor_stopped_counts_no_card(rig):
    """A hand in the slot once the dispense is over blocks the beam as long as a card does:
    the motor was stopped, so it is no card."""
    rig.ejector.dispense(2)
    assert rig.run_until_halted().reason == "done"
    rig.run_for(1.0)
    counted = len(rig.reports)
    now = rig.clock.now()
    rig.ejector.beam(False, now)
    rig.ejector.beam(True, now + 0.05)
    assert rig.reports[counted:] == []
    assert rig.model.cards_out == 2


def test_after_a_jam_new_cards_wait_for_resume(rig):
    rig.model.jam()
    rig.ejector.dispense(3)
    assert rig.run_until_halted().reason == "jam"
    rig.ejector.dispense(2)  # a new penalty while the slot is still blocked
    rig.run_for(2.0)
    assert rig.model.motor_speed == 0 and rig.ejector.owed == 5
    rig.model.clear_jam()
    rig.ejector.resume()
    assert rig.run_until_halted().reason == "done"
    assert rig.model.cards_out == 5


def test_a_jammed_card_pulled_out_by_hand_counts(rig):
    rig.ejector.dispense(3)
    rig.run_for(0.05)
    while not rig.model.card_in_beam:
        rig.run_for(0.001)
    rig.model.jam()  # stuck with its front through the beam
    halt = rig.run_until_halted()
    assert (halt.reason, halt.owed) == ("jam", 3)
    # The person at the table pulls the card out through the slot.
    rig.model.clear_jam()
    rig.motor.forward(1.0)  # (standing in for the hand: the card moves on out)
    while rig.model.card_in_beam:
        rig.run_for(0.001)
    rig.motor.stop()
    rig.run_for(0.1)
    assert rig.model.cards_out == 1
    assert rig.ejector.owed == 2
    rig.ejector.resume()
    assert rig.run_until_halted().reason == "done"
    assert rig.model.cards_out == 3


def test_the_last_card_pulled_out_of_a_jam_by_hand_is_not_fought_by_a_retract(rig):
    """A hand is in the slot: the roller must not run backwards against it, even though the
    count is complete and a dispense would otherwise pull the next card back."""
    rig.ejector.dispense(1)
    while not rig.model.card_in_beam:
        rig.run_for(0.001)
    rig.model.jam()
    assert rig.run_until_halted().reason == "jam"
    rig.model.clear_jam()
    rig.motor.forward(1.0)  # (standing in for the hand: the card moves on out)
    while rig.model.card_in_beam:
        rig.run_for(0.001)
    rig.motor.stop()
    for _ in range(100):  # the count, and long past a retract's time
        rig.run_for(0.001)
        assert rig.motor.value == 0
    assert rig.model.cards_out == 1 and rig.ejector.owed == 0


def test_a_hand_crossing_the_beam_while_a_jam_waits_counts_no_cards(rig):
    rig.model.jam()
    rig.ejector.dispense(2)
    assert rig.run_until_halted().reason == "jam"
    assert not rig.model.card_in_beam
    for _ in range(3):  # fingers in the slot, across the beam
        rig.model.glitch(0.05)
        rig.run_for(0.2)
    assert rig.ejector.owed == 2
    rig.model.clear_jam()
    rig.ejector.resume()
    assert rig.run_until_halted().reason == "done"
    rig.run_for(3.0)
    assert rig.model.cards_out == 2


class Record:
    """What the daemon's cards-owed file tells the ejector: the count it has on the disk."""

    def __init__(self) -> None:
        self.on_disk: int | None = None

    def allows(self, remaining: int) -> bool:
        return self.on_disk == remaining


def test_the_motor_starts_only_once_the_record_counts_the_first_card_as_dealt():
    rig, record = Rig(), Record()
    rig.ejector._may_feed = record.allows
    rig.ejector.dispense(3)
    rig.run_for(1.0)
    assert rig.model.motor_speed == 0 and rig.model.cards_out == 0
    assert rig.ejector.in_flight == 1  # the record is asked to count it already
    record.on_disk = 2
    rig.ejector.recheck()
    rig.run_for(0.05)
    assert rig.model.motor_speed > 0
    rig.close()


def test_a_record_that_lags_stops_the_motor_before_the_next_card_reaches_the_slot():
    rig, record = Rig(), Record()
    rig.ejector._may_feed = record.allows
    record.on_disk = 4
    rig.ejector.dispense(5)
    rig.ejector.recheck()
    while rig.model.cards_out < 1:
        assert rig.clock.run_next(rig.clock.now() + 5)
    # The record does not take the next count: no second card may leave, or even show.
    rig.run_for(2.0)
    assert rig.model.cards_out == 1 and not rig.model.card_in_beam
    assert rig.model.motor_speed == 0
    assert not [r for r in rig.reports if isinstance(r, Halted)]  # waiting is not a jam
    record.on_disk = 3
    rig.ejector.recheck()
    while rig.model.cards_out < 2:
        assert rig.clock.run_next(rig.clock.now() + 5)
    rig.close()


def test_with_a_record_that_keeps_up_every_card_goes_without_a_stop():
    rig, record = Rig(), Record()

    def keeping_up(remaining: int) -> bool:
        record.on_disk = remaining  # a write that is on the disk at once
        return True

    rig.ejector._may_feed = keeping_up
    rig.ejector.dispense(6)
    halt = rig.run_until_halted()
    assert halt.reason == "done" and rig.model.cards_out == 6
    rig.run_for(1.0)
    assert len(rig.model.stop_times) == 1  # once, after the retract at the sixth card
    rig.close()


def test_a_cards_rules_and_constants_exist_once_in_the_firmwares_dispenser(rig):
    """The Pi's launcher runs the controller's own dispenser: no second copy of a rule or a
    constant of a card's life (min card time, beam-clear time, soft start, retract, the
    record's window, the jam time) lives on the host."""
    import re
    from pathlib import Path

    import hardware.gpio_ejector
    from controller.settings import setting
    from firmware.dispenser import JAM_US, Dispenser

    source = Path(hardware.gpio_ejector.__file__).read_text(encoding="utf-8")
    for name in ("MIN_CARD", "CLEAR", "SOFT_START", "RETRACT", "WRITE_WINDOW", "KEPT_WINDOW"):
        assert not re.search(rf"^{name}\w* =", source, re.M), name
    assert isinstance(rig.ejector._dispenser, Dispenser)
    assert setting("jam_time").default == JAM_US // 1000


class Roller:
    """The roller's motor as the ejector drives it: its speed, negative backwards."""

    def __init__(self) -> None:
        self.speed = 0.0

    def forward(self, speed: float) -> None:
        self.speed = speed

    def backward(self, speed: float) -> None:
        self.speed = -speed

    def stop(self) -> None:
        self.speed = 0.0


def test_a_jam_waits_for_a_beam_edge_the_kernel_stamped_in_time_and_handed_on_late():
    """The pins' thread, kept from the CPU, hands a beam edge over only after the jam time
    has run out, though the kernel stamped it before: edge time is truth, so the launcher
    runs on and the jam time counts from that edge. With nothing on its way, a launcher
    that sends no edge for the jam time stops, jammed."""
    clock = VirtualClock()
    reports: list = []
    on_its_way: list[tuple[bool, float]] = []  # stamped by the kernel, not handed over yet
    roller = Roller()
    ejector = GpioEjector(
        roller,
        clock=clock,
        on_report=reports.append,
        beam_clear=lambda: not on_its_way,
        edges_waiting=lambda: bool(on_its_way),
    )

    def run_until(when: float) -> list[str]:
        while clock.run_next(when):
            pass
        clock.set(when)
        return [r.reason for r in reports if isinstance(r, Halted)]

    start = clock.now()
    ejector.dispense(3)
    run_until(start + ejector.jam_time - 0.1)
    on_its_way.append((False, clock.now()))  # a card's front reaches the beam
    assert run_until(start + ejector.jam_time + 0.3) == [] and roller.speed > 0
    clear, at = on_its_way.pop()
    ejector.beam(clear, at)
    assert run_until(at + ejector.jam_time - 0.01) == [] and roller.speed > 0
    assert run_until(at + ejector.jam_time + 0.01) == ["jam"] and roller.speed == 0


def test_a_beam_line_that_never_falls_quiet_puts_no_jam_off_for_ever():
    """Edges always on their way (a chattering beam line, a pins' thread that no longer
    hands them over): the launcher waits for them a moment at most, then looks at the jam
    time as it stands, stops jammed and keeps what is owed."""
    clock = VirtualClock()
    reports: list = []
    roller = Roller()
    ejector = GpioEjector(
        roller,
        clock=clock,
        on_report=reports.append,
        beam_clear=lambda: True,
        edges_waiting=lambda: True,
    )
    start = clock.now()
    ejector.dispense(3)
    end = start + ejector.jam_time + EDGE_WAIT_LIMIT + EDGE_WAIT
    while clock.run_next(end):
        pass
    halted = [r for r in reports if isinstance(r, Halted)]
    assert [(h.reason, h.owed) for h in halted] == [("jam", 3)], reports
    assert roller.speed == 0
