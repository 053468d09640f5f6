"""The launcher's counting rule (firmware/dispenser.py), run in-process: every card that leaves
counts, the roller stops exactly at the count, and no card more is dispensed or counted after
a stop, a jam or an empty hopper (SPEC 2.4)."""

from __future__ import annotations

from firmware.dispenser import (
    CLEAR_US,
    EMPTIED,
    IDLE,
    JAM_US,
    JAMMED,
    MIN_CARD_US,
    RETRACT_DUTY,
    RETRACT_US,
    RUNNING,
    SOFT_START,
    SOFT_START_STEP_US,
    Dispenser,
)
from firmware.protocol import CARD, DONE, EMPTY, JAM

CARD_US = 30_000  # how long a card blocks the beam


class Rig:
    """A dispenser on model pins: the motor's duties, the beam, the hopper switch."""

    def __init__(self) -> None:
        self.duties: list[int] = []
        self.clear = True
        self.empty = False
        self.reports: list[tuple[object, int]] = []
        self.dispenser = Dispenser(
            self.duties.append,
            lambda: self.clear,
            lambda: self.empty,
            lambda kind, counted: self.reports.append((kind, counted)),
        )

    def block(self, t: int) -> None:
        self.clear = False
        self.dispenser.beam(False, t)

    def unblock(self, t: int) -> None:
        self.clear = True
        self.dispenser.beam(True, t)

    def card(self, t: int) -> int:
        """A card passes the beam from `t`; the moment its back end clears it."""
        self.block(t)
        self.unblock(t + CARD_US)
        return t + CARD_US

    def run(self, until: int) -> None:
        d = self.dispenser
        while (due := d.next_due()) is not None and due <= until:
            d.poll(due)
            for kind, counted in self.reports:
                if kind == CARD:
                    d.keep(counted, due)


def test_a_card_that_has_left_counts_when_the_motor_is_stopped_before_its_count():
    rig = Rig()
    d = rig.dispenser
    d.start(3, 0)
    cleared = rig.card(100_000)
    d.stop("cancel", cleared + CLEAR_US // 2)  # cleared the beam, its count not yet due
    assert rig.reports == [(CARD, 1), ("cancel", 1)]
    assert d.state == IDLE and rig.duties[-1] == 0
    rig.card(300_000)  # a card pushed through by hand afterwards is none of ours
    rig.run(2_000_000)
    assert rig.reports == [(CARD, 1), ("cancel", 1)]


def test_the_last_card_counted_at_a_stop_ends_the_dispense_exactly():
    rig = Rig()
    d = rig.dispenser
    d.start(1, 0)
    cleared = rig.card(100_000)
    d.stop("cancel", cleared + 1)
    assert rig.reports == [(CARD, 1), (DONE, 1)]
    assert d.state == IDLE and rig.duties[-1] == 0


def test_a_stop_while_nothing_runs_reports_nothing():
    rig = Rig()
    rig.dispenser.stop("cancel", 0)
    assert rig.reports == [] and rig.dispenser.state == IDLE


def test_a_jam_keeps_the_card_in_the_beam_and_a_stop_forgets_it():
    rig = Rig()
    d = rig.dispenser
    d.start(2, 0)
    rig.block(100_000)  # the card sticks in the beam
    rig.run(100_000 + JAM_US)
    assert rig.reports == [(JAM, 0)]
    assert d.state == JAMMED and d.stuck and rig.duties[-1] == 0
    d.stop("cancel", 1_000_000)
    assert d.state == IDLE and not d.stuck
    rig.unblock(1_100_000)  # a hand pulls the card out: the dispense was cancelled
    rig.run(3_000_000)
    assert rig.reports == [(JAM, 0)]  # the jam was the dispense's end: nothing more


def test_a_card_stuck_by_a_jam_counts_as_it_is_pulled_out():
    rig = Rig()
    d = rig.dispenser
    d.start(2, 0)
    rig.block(100_000)
    rig.run(100_000 + JAM_US)
    rig.unblock(1_500_000)
    rig.run(1_500_000 + CLEAR_US)
    assert rig.reports == [(JAM, 0), (CARD, 1)]


def test_the_hopper_switch_closing_mid_dispense_stops_it_as_empty():
    rig = Rig()
    d = rig.dispenser
    d.start(3, 0)
    rig.run(rig.card(100_000) + CLEAR_US)
    assert rig.reports == [(CARD, 1)]
    rig.empty = True
    d.hopper_emptied(400_000)
    assert rig.reports == [(CARD, 1), (EMPTY, 1)]
    assert d.state == EMPTIED and rig.duties[-1] == 0
    rig.run(5_000_000)
    assert rig.reports == [(CARD, 1), (EMPTY, 1)]


def test_the_card_that_emptied_the_hopper_was_the_last_asked_for():
    rig = Rig()
    d = rig.dispenser
    d.start(1, 0)
    cleared = rig.card(100_000)
    rig.empty = True
    d.hopper_emptied(cleared + 1)  # the card has left, its count not yet due
    assert rig.reports == [(CARD, 1), (DONE, 1)]
    assert d.state == IDLE
    assert rig.duties[-1] == -RETRACT_DUTY  # done: the next card is pulled back


def test_a_jam_with_the_hopper_switch_saying_empty_is_an_empty_hopper():
    rig = Rig()
    d = rig.dispenser
    d.start(2, 0)
    rig.empty = True
    rig.run(JAM_US)
    assert rig.reports == [(EMPTY, 0)] and d.state == EMPTIED


def test_a_restart_runs_the_motor_again_with_a_fresh_soft_start_and_jam_time():
    rig = Rig()
    d = rig.dispenser
    d.start(2, 0)
    rig.run(500_000)
    assert rig.duties == list(SOFT_START)
    d.restart(500_000)
    assert rig.duties[-1] == SOFT_START[0]
    rig.run(500_000 + JAM_US - 1)
    assert rig.reports == []  # the jam time runs from the restart
    assert rig.duties == [*SOFT_START, *SOFT_START]
    rig.run(500_000 + JAM_US)
    assert rig.reports == [(JAM, 0)]


def test_a_restart_never_runs_a_motor_that_is_not_dispensing():
    rig = Rig()
    d = rig.dispenser
    d.restart(0)
    assert rig.duties == [] and d.state == IDLE
    d.start(1, 0)
    rig.run(rig.card(100_000) + CLEAR_US)
    duties = list(rig.duties)
    d.restart(1_000_000)
    assert rig.duties == duties and d.state == IDLE


def test_a_dispense_waiting_for_the_host_is_not_restarted():
    rig = Rig()
    d = rig.dispenser
    d.start(3, 0)
    cleared = rig.card(100_000)
    # The host does not keep the count: the motor stops before the next card.
    while (due := d.next_due()) is not None and due <= cleared + 100_000:
        d.poll(due)
    assert d.held and d.state == RUNNING and rig.duties[-1] == 0
    d.restart(cleared + 100_000)
    assert rig.duties[-1] == 0 and d.held


def test_a_retract_runs_the_roller_backwards_for_the_retract_time():
    rig = Rig()
    d = rig.dispenser
    d.retract(1_000)
    assert rig.duties == [-RETRACT_DUTY] and d.next_due() == 1_000 + RETRACT_US
    d.poll(1_000 + RETRACT_US - 1)
    assert rig.duties == [-RETRACT_DUTY]
    d.poll(1_000 + RETRACT_US)
    assert rig.duties == [-RETRACT_DUTY, 0] and d.next_due() is None


def test_no_beam_edge_for_the_jam_time_while_the_dispense_waits_for_the_host_is_no_jam():
    rig = Rig()
    d = rig.dispenser
    d.start(3, 0)
    cleared = rig.card(100_000)
    while (due := d.next_due()) is not None and due <= cleared + 100_000:
        d.poll(due)  # the host does not keep the count: the motor stops
    assert d.held and rig.duties[-1] == 0
    rig.block(cleared + 200_000)  # a hand at the slot while the motor waits
    while (due := d.next_due()) is not None and due <= cleared + 200_000 + 2 * JAM_US:
        d.poll(due)
    assert rig.reports == [(CARD, 1)] and d.state == RUNNING and d.held


def test_a_card_left_in_the_beam_counts_however_little_of_it_is_still_to_pass():
    rig = Rig()
    d = rig.dispenser
    rig.clear = False  # a card left in the beam by a stop
    d.start(2, 50_000)
    rig.unblock(50_000)  # it leaves at once
    rig.run(50_000 + CLEAR_US)
    assert rig.reports == [(CARD, 1)]


def test_a_glitch_before_a_jam_leaves_no_card_in_the_beam_and_a_hand_there_is_no_card():
    rig = Rig()
    d = rig.dispenser
    d.start(2, 0)
    rig.block(100_000)
    rig.unblock(100_000 + MIN_CARD_US // 2)  # a glitch, not a card
    rig.run(200_000 + JAM_US)
    assert rig.reports == [(JAM, 0)] and d.state == JAMMED and not d.stuck
    rig.card(1_500_000)  # a hand clearing the slot crosses the beam
    rig.run(3_000_000)
    assert rig.reports == [(JAM, 0)]


def test_a_card_counts_only_once_the_beam_has_stayed_clear_and_a_flicker_inside_it_is_one_card():
    rig = Rig()
    d = rig.dispenser
    d.start(3, 0)
    rig.block(100_000)
    rig.unblock(110_000)
    rig.run(110_000 + CLEAR_US - 1)
    assert rig.reports == []  # the beam has not stayed clear long enough
    rig.block(110_000 + CLEAR_US - 1)  # the same card blocks it again
    rig.unblock(130_000)
    rig.run(130_000 + CLEAR_US)
    assert rig.reports == [(CARD, 1)]


def test_the_roller_starts_softly_one_step_of_its_drive_each_step_time():
    """So that the roller grips the card instead of slipping: the drive steps up through
    SOFT_START, one step each SOFT_START_STEP_US, and stays at full drive."""
    rig = Rig()
    d = rig.dispenser
    d.start(3, 1_000)
    for step, duty in enumerate(SOFT_START):
        at = 1_000 + step * SOFT_START_STEP_US
        d.poll(at - 1)
        assert rig.duties[-1] == (SOFT_START[step - 1] if step else duty)
        d.poll(at)
        assert rig.duties[-1] == duty
    d.poll(1_000 + len(SOFT_START) * SOFT_START_STEP_US)
    assert rig.duties == list(SOFT_START)
