"""A launcher controller reset at any moment of a dispense, through a bad cable, in virtual time:
no card is ever dealt twice, and a power cut costs at most the one card the host cannot know
about (docs/state.md, "Cards owed").

Virtual time spares the waits, not the wake-ups: every frame crosses two pseudo-terminals,
each a hand-over through the kernel after which the test's process must be woken, and on a
loaded machine every wake-up waits its turn for a core. So a run's real time grows with the
load: a thousand power cuts take 14 s on a quiet machine and 250 took about 300 s beside 16
busy loops (the suite's hang timeout). The resets are dealt in parts, each its own test on
its own seed, small enough to stay well inside that timeout there; together they are the
thousand power cuts and 300 other resets."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

import pytest

from hardware import serial_ejector
from hardware.ejector import CardCounted
from hardware.serial_dispense import SerialDispense
from hardware.sim.machine import PWRON_RESET, SOFT_RESET, WDT_RESET
from tests import virtual_loop
from tests.hardware.test_serial_ejector import BAD_CABLE, Rig

# Its tests take long in all: the file starts first (tests/conftest.py).
pytestmark = pytest.mark.long

POWER_CUTS = 100  # in each of PARTS parts
OTHER_RESETS = 50  # in each of PARTS - 4 parts
PARTS = 10
LONGEST = 12  # cards asked for at most: a burst of the wild launcher profile
CARD_TIME = 0.14  # seconds a card takes at most at full speed


@dataclass
class Cut:
    """How the host judged the dispense running at a reset (`counted_at_reset`)."""

    seen: int  # the cards it had heard of
    let_past: int | None  # the most the controller had been let past
    counted: int  # what it took as dealt


@pytest.fixture
def cuts(monkeypatch) -> list[Cut]:
    """Every reset the host judged during a dispense."""
    judged: list[Cut] = []
    judge = serial_ejector.counted_at_reset

    def recorded(during: SerialDispense | None, kept_id: int, kept_counted: int) -> int | None:
        counted = judge(during, kept_id, kept_counted)
        if during is not None and counted is not None:
            judged.append(Cut(during.seen, getattr(during, "let_past", None), counted))
        return counted

    monkeypatch.setattr(serial_ejector, "counted_at_reset", recorded)
    return judged


async def deal_and_reset(rig: Rig, rng: random.Random, cause: int, cuts: list[Cut]):
    """One dispense of 1 to LONGEST cards, reset by `cause` at a random moment of it (or just
    after it): returns (asked, out of the beam at the reset, out of the beam in all, the
    host's judgement of the reset or None when nothing was running)."""
    asked = rng.randint(1, LONGEST)
    before, halts, judged = rig.model.cards_out, len(rig.halts()), len(cuts)
    resets = rig.ejector.resets
    rig.ejector.dispense(asked)
    await asyncio.sleep(rng.uniform(0.0, asked * CARD_TIME))
    out_at_reset = rig.model.cards_out - before
    rig.firmware.reset(cause)

    def over() -> bool:
        # The host heard of the reset, and what it asked for since has been dealt.
        return rig.ejector.resets > resets and not rig.ejector.busy and rig.ejector.owed == 0

    await rig.until(over, within=60.0)
    assert [h.reason for h in rig.halts()[halts:]] == ["done"]
    cut = cuts[judged] if len(cuts) > judged else None
    return asked, out_at_reset, rig.model.cards_out - before, cut


@pytest.mark.parametrize("part", range(PARTS))
def test_a_power_cut_at_any_moment_of_a_dispense_never_deals_a_card_twice(tmp_path, cuts, part):
    """1,000 power cuts in all (the controller forgets everything), each at a random moment of
    a dispense, through a cable that drops, repeats, damages and delays bytes.

    The cards out of the beam equal the cards asked for, or fall short by one: when the
    controller had been let past every card the host had heard of, the host counts the next
    one as dealt, and it had not left yet. That card could have left unheard a moment before
    the cut (the host cannot know), and the host errs towards a card too few. Each shortfall
    here is that case, checked against the beam: the host counted exactly one card more than
    had left at the cut. About five cuts in six land there (the moment a pseudo-terminal hands
    bytes on moves a cut by a little); the others came after the last card, or when the card
    after the last one kept had left."""

    async def main() -> None:
        rig = Rig(tmp_path, BAD_CABLE, seed=21 + 100 * part)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rng = random.Random(34 + 100 * part)
        asked_in_all = short = 0
        for _ in range(POWER_CUTS):
            asked, out_at_cut, dealt, cut = await deal_and_reset(rig, rng, PWRON_RESET, cuts)
            asked_in_all += asked
            assert dealt <= asked  # never a card twice
            if cut is None:  # nothing ran at the cut, or the controller never had it
                assert dealt == asked
                continue
            # The controller let at most one card go past the last it was told was kept.
            assert cut.let_past is not None and out_at_cut <= cut.let_past + 1
            # The host counted that card as dealt, whether it had left or not.
            assert cut.counted == cut.let_past + 1
            assert cut.counted - out_at_cut in (0, 1)
            assert dealt == asked - (cut.counted - out_at_cut)
            short += asked - dealt
        assert sum(isinstance(r, CardCounted) for r in rig.reports) == asked_in_all
        assert rig.model.cards_out == asked_in_all - short
        assert 0.6 * POWER_CUTS < short < 0.95 * POWER_CUTS, short  # about five in six
        counts = rig.relay.counts
        assert min(counts[f] for f in ("drop", "duplicate", "corrupt", "delay")) > 0, counts
        await rig.close()

    virtual_loop.run(main())


@pytest.mark.parametrize("part", range(PARTS - 4))
def test_a_watchdog_or_soft_reset_at_any_moment_of_a_dispense_deals_exactly(tmp_path, cuts, part):
    """The scratch registers keep the dispense the controller started last across a watchdog
    or soft reset, with a card whose clear beam was seen and not yet counted: every dispense
    deals exactly. (Before its first dispense since it was switched on, a controller keeps
    none, as after a power cut: there the host would count a card for a dispense the reset
    came before, so one is dealt first.)"""

    async def main() -> None:
        rig = Rig(tmp_path, BAD_CABLE, seed=22 + 100 * part)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(1)
        await rig.until(lambda: not rig.ejector.busy and rig.ejector.owed == 0, within=10.0)
        rng = random.Random(35 + 100 * part)
        for _ in range(OTHER_RESETS):
            cause = rng.choice((WDT_RESET, SOFT_RESET))
            asked, out_at_reset, dealt, cut = await deal_and_reset(rig, rng, cause, cuts)
            assert dealt == asked
            if cut is not None:
                assert cut.counted == out_at_reset
        await rig.close()

    virtual_loop.run(main())
