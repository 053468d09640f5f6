"""The serial ejector and the real firmware code, through a bad cable between two real
pseudo-terminals, in virtual time: exact counts, resets, unplugging, a silent host."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import random
import tty
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from firmware import protocol as p
from firmware.frame import HEADER, SYNC, TRAILER, Decoder, crc16, encode
from firmware.launcher import banner
from hardware.clock import LoopClock
from hardware.ejector import CardCounted, Halted
from hardware.serial_dispense import Sent
from hardware.serial_ejector import SerialEjector
from hardware.sim.firmware import FirmwareSim
from hardware.sim.machine import PWRON_RESET, WDT_RESET
from hardware.sim.relay import LineFaults, Relay
from tests import virtual_loop

LOOK_AGAIN = 0.05  # seconds (virtual) between looks at what only the model shows
BAD_CABLE = LineFaults(drop=0.01, duplicate=0.01, corrupt=0.01, delay=0.01)


def another_id(seq: int, kind: int, payload: bytes) -> bytes:
    """The frame about another dispense id."""
    return encode(seq, kind, bytes((payload[0] ^ 0xFF,)) + payload[1:])


def a_status(seq: int, kind: int, payload: bytes) -> bytes:
    """A STATUS in the frame's place."""
    return encode(seq, p.STATUS, b"")


Chunks = list[tuple[bool, bytes]]  # what the cable hands on: (held back, bytes)
C = TypeVar("C", bound=Callable[[Chunks], Chunks])


def whole_frame(data: bytes, kind: int) -> tuple[int, int] | None:
    """Where the first whole frame of `kind` in `data` starts and ends, if there is one."""
    start = data.find(bytes((SYNC,)))
    while 0 <= start < len(data) - HEADER:
        end = start + HEADER + data[start + 1] + TRAILER
        frame = data[start:end]
        whole = len(frame) == end - start and frame[3] == kind
        if whole and int.from_bytes(frame[-TRAILER:], "big") == crc16(frame[1:-TRAILER]):
            return start, end
        start = data.find(bytes((SYNC,)), start + 1)
    return None


class Forger:
    """Hands on, in place of the first frame of `kind` that comes whole, `forged(seq, kind,
    payload)` under the same sequence number: what a damaged copy whose CRC passed by chance
    does on a bad cable. The frame meant is then taken for a repeat of it."""

    def __init__(self, kind: int, forged: Callable[[int, int, bytes], bytes]) -> None:
        self.kind, self._forged, self.done = kind, forged, False

    def __call__(self, chunks: Chunks) -> Chunks:
        out = []
        for held, data in chunks:
            found = None if self.done else whole_frame(data, self.kind)
            if found is not None:
                self.done = True
                start, end = found
                payload = data[start + HEADER : end - TRAILER]
                data = data[:start] + self._forged(data[start + 2], self.kind, payload) + data[end:]
            out.append((held, data))
        return out


class Holder:
    """Holds back each frame of `kind` that comes whole, and what follows it (the line keeps
    its order), while what came before it goes on."""

    def __init__(self, kind: int) -> None:
        self.kind, self.held = kind, 0

    def __call__(self, chunks: Chunks) -> Chunks:
        out: Chunks = []
        for held, data in chunks:
            found = whole_frame(data, self.kind)
            if found is None:
                out.append((held, data))
            else:
                self.held += 1
                out += [(held, data[: found[0]]), (True, data[found[0] :])]
        return out


class Spy:
    """Hands everything on, and keeps the payload of each frame of `kind` that passes whole."""

    def __init__(self, kind: int) -> None:
        self.kind, self.payloads = kind, []

    def __call__(self, chunks: Chunks) -> Chunks:
        for _, data in chunks:
            while (found := whole_frame(data, self.kind)) is not None:
                start, end = found
                self.payloads.append(data[start + HEADER : end - TRAILER])
                data = data[end:]
        return chunks


class Rig:
    """Host ejector <-> pty <-> fault relay <-> pty <-> firmware on the launcher model.

    The host opens the port by a symlink, as /dev/serial/by-id/ names a real board."""

    def __init__(
        self,
        tmp_path: Path,
        faults: LineFaults,
        seed: int = 0,
        keep_sent: Callable[[Sent], bool] = lambda sent: True,
        kept: Callable[[Sent], bool] = lambda sent: True,
        cards: int = 1_000_000,
    ) -> None:
        self.loop = asyncio.get_running_loop()
        self.clock = LoopClock(self.loop)
        self.path = tmp_path / "launcher"
        self.fw_master, self.fw_slave = os.openpty()
        tty.setraw(self.fw_slave)
        self.firmware = FirmwareSim(
            self.fw_slave, clock=self.clock, cards=cards, rng=random.Random(seed)
        )
        self._plug()
        self.relay = Relay(
            self.host_master, self.fw_master, faults, clock=self.clock, rng=random.Random(~seed)
        )
        self.reports: list = []
        self.links: list[tuple[float, bool]] = []
        self._news = asyncio.Event()
        self.ejector = SerialEjector(
            str(self.path),
            clock=self.clock,
            on_report=self._heard,
            on_link=lambda up: self._heard((self.clock.now(), up), self.links),
            first_id=1 + seed,
            keep_sent=keep_sent,
            kept=kept,
        )

    def _heard(self, item: object, into: list | None = None) -> None:
        (self.reports if into is None else into).append(item)
        self._news.set()

    def _plug(self) -> None:
        self.host_master, self.host_slave = os.openpty()
        tty.setraw(self.host_slave)
        self.path.unlink(missing_ok=True)
        self.path.symlink_to(os.ttyname(self.host_slave))

    def unplug(self) -> None:
        self.relay.close()
        os.close(self.host_master)
        os.close(self.host_slave)
        self.path.unlink()

    def plug(self) -> None:
        self._plug()
        self.relay.connect(self.host_master, self.fw_master)

    def forge(self, change: C, side: str) -> C:
        """What `side` ("host" or "controller") writes goes through `change` on the cable."""
        way = self.relay._ways[0 if side == "host" else 1]
        pass_on = way._pass_on
        way._pass_on = lambda chunks: pass_on(change(chunks))
        return change

    @property
    def model(self):
        return self.firmware.model

    async def until(self, done: Callable[[], bool], within: float) -> float:
        """Wait (in virtual time) until `done()`; returns the time it took."""
        start = self.clock.now()
        while not done():
            if self.clock.now() - start > within:
                raise AssertionError(f"not within {within} s: {self.state()}")
            self._news.clear()
            # Woken by a report, or soon anyway for what only the model shows.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), LOOK_AGAIN)
        return self.clock.now() - start

    def halts(self) -> list[Halted]:
        return [r for r in self.reports if isinstance(r, Halted)]

    def state(self) -> str:
        """How the link, the ejector and the launcher stand, for a test that fails."""
        ejector, model = self.ejector, self.model
        return (
            f"link up {ejector.link_up}, owed {ejector.owed}, fault {ejector.fault}, "
            f"cards out {model.cards_out}, motor {model.motor_speed}, links {self.links[-4:]}, "
            f"last reports {self.reports[-4:]}, line {self.relay.counts}"
        )

    async def close(self) -> None:
        self.ejector.close()
        await asyncio.sleep(0)
        self.relay.close()
        self.firmware.close()
        for fd in (self.host_master, self.host_slave, self.fw_master, self.fw_slave):
            os.close(fd)


def test_a_thousand_dispenses_through_a_bad_cable_each_deliver_exactly(tmp_path):
    async def main() -> None:
        rig = Rig(tmp_path, BAD_CABLE, seed=3)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rng = random.Random(5)
        for _ in range(1000):
            count = rng.randint(1, 5)
            before, halts = rig.model.cards_out, len(rig.halts())
            rig.ejector.dispense(count)
            await rig.until(lambda h=halts: len(rig.halts()) > h, within=30.0)
            assert rig.halts()[-1].reason == "done"
            assert rig.model.cards_out - before == count
            assert rig.ejector.owed == 0
        assert sum(isinstance(r, CardCounted) for r in rig.reports) == rig.model.cards_out
        counts = rig.relay.counts
        # Every fault happened, and often: at least 1% of the bytes each.
        assert (
            min(counts[f] for f in ("drop", "duplicate", "corrupt", "delay"))
            > 0.008 * (counts["bytes"])
        ), counts
        await rig.close()

    virtual_loop.run(main())


@pytest.mark.parametrize(
    ("side", "kind", "forged"),
    [
        ("host", p.DISPENSE, a_status),
        ("host", p.KEPT, another_id),
        ("controller", p.CARD, another_id),
    ],
    ids=["dispense", "kept", "card"],
)
def test_a_frame_taken_in_place_of_another_costs_no_card_and_stops_nothing_for_good(
    tmp_path, caplog, side, kind, forged
):
    """A frame taken is not always the one sent: a damaged copy whose CRC passes by chance is
    acknowledged under its sequence number, and the frame meant is then taken for a repeat.
    The controller's answers to the heartbeat (STATE) show the dispense standing still: it is
    asked again, and every dispense still deals exactly. The table idles a while first: the
    answers with nothing in play mean nothing."""

    caplog.set_level(logging.DEBUG, logger="hardware.serial_ejector")

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=5)
        forger = rig.forge(Forger(kind, forged), side)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        await asyncio.sleep(2.0)
        for count in itertools.islice(itertools.cycle((3, 5)), 4):
            before, halts = rig.model.cards_out, len(rig.halts())
            rig.ejector.dispense(count)
            await rig.until(lambda h=halts: len(rig.halts()) > h, within=10.0)
            assert rig.halts()[-1].reason == "done"
            assert rig.model.cards_out - before == count
        assert forger.done
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        if kind == p.CARD:  # about an id the host never asked for
            ignored = f"launcher controller: 0x22 about dispense {6 ^ 0xFF000000:#010x} ignored"
            assert ignored in caplog.messages
        await rig.close()

    virtual_loop.run(main())


def test_a_dispense_standing_still_is_asked_again_once_a_jam_time_and_not_after_the_stop(
    tmp_path,
):
    """A dispense whose record is not written stands still after its first card (no KEPT
    goes). It is asked again once it has stood for longer than the jam time, and only once
    for each such stand, not at every heartbeat after. At shutdown, once the STOP is sent,
    nothing more is asked: not even for the stand the controller's next STATE shows."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=27, kept=lambda sent: False)
        dispenses = rig.forge(Spy(p.DISPENSE), "host")
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(3)
        await rig.until(lambda: rig.model.cards_out == 1 and rig.model.motor_speed == 0, 10.0)
        await asyncio.sleep(6.0)
        # Asked, then again at the first STATE (one each 0.5 s) that shows a stand longer than
        # the jam time (0.8 s): 1 s after the stand was first seen, and seen anew 0.5 s after.
        assert len(dispenses.payloads) in (4, 5), len(dispenses.payloads)
        halts: list[tuple[asyncio.Future, int]] = []

        def halt_at_a_status_that_shows_a_long_stand(chunks: Chunks) -> Chunks:
            stood = rig.ejector._stood
            long = stood is not None and rig.clock.now() - stood[1] > rig.ejector.jam_time
            if long and not halts and any(whole_frame(d, p.STATUS) for _, d in chunks):
                halt = asyncio.ensure_future(rig.ejector.halt(lambda: None))
                halts.append((halt, len(dispenses.payloads)))
            return chunks

        rig.forge(halt_at_a_status_that_shows_a_long_stand, "host")
        await rig.until(lambda: bool(halts) and halts[0][0].done(), within=5.0)
        await asyncio.sleep(1.0)
        assert len(dispenses.payloads) == halts[0][1]
        assert not rig.ejector.busy
        assert sum(isinstance(r, CardCounted) for r in rig.reports) == rig.model.cards_out == 1
        await rig.close()

    virtual_loop.run(main())


async def pull_out_a_stuck_second_of_three(rig: Rig) -> None:
    """A dispense of 3 whose second card sticks in the beam (JAM); a hand pulls it out and
    the table resumes. Returns once nothing is in play. The card pulled out counts for the
    jammed dispense after the host asked the rest: the host owes one card fewer than it
    asked for, and STOPs the new dispense after its first card."""
    rig.ejector.dispense(3)
    while not (rig.model.cards_out == 1 and rig.model.card_in_beam):
        await asyncio.sleep(0.002)
    rig.model.jam()
    await rig.until(lambda: rig.ejector.fault == "jam", within=5.0)
    rig.model.pull_out()
    rig.ejector.resume()
    await rig.until(lambda: not rig.ejector.busy, within=10.0)


def test_a_stop_taken_in_place_of_another_goes_again_and_the_next_dispense_deals(tmp_path):
    """A card stuck in the beam (JAM) is pulled out as the table resumes: it counts for the
    jammed dispense after the host asked the rest, so the host owes one card fewer than it
    asked for and STOPs the new dispense after its first card. That STOP is lost in the place
    of a damaged copy: the controller, waiting for a KEPT that never comes, stands still, and
    the host, asking again, sends the STOP again. The next dispense deals."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=6)
        forger = rig.forge(Forger(p.STOP, a_status), "host")
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        await pull_out_a_stuck_second_of_three(rig)
        assert forger.done
        assert (rig.model.cards_out, rig.ejector.owed) == (3, 0)
        rig.ejector.dispense(1)
        await rig.until(lambda: rig.model.cards_out == 4 and not rig.ejector.busy, within=10.0)
        assert rig.ejector.owed == 0
        await rig.close()

    virtual_loop.run(main())


def test_a_hopper_emptied_by_the_last_card_owed_is_no_fault(tmp_path):
    """The card pulled out of a jam counts for the jammed dispense after the host asked the
    rest: the new dispense's first card is the last one owed, and it empties the hopper. The
    controller ends that dispense EMPTY before the host's STOP reaches it; with nothing owed
    that is no fault, and the table is told only that the dispense is done."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=6, cards=3)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        await pull_out_a_stuck_second_of_three(rig)
        assert (rig.model.cards_out, rig.model.cards_left, rig.ejector.owed) == (3, 0, 0)
        assert [(h.reason, h.owed) for h in rig.halts()] == [("jam", 2), ("done", 0)]
        assert rig.ejector.fault is None
        await rig.close()

    virtual_loop.run(main())


def test_kept_goes_for_each_card_heard_but_the_last_one_its_dispense_asks_for(tmp_path):
    """KEPT lets the next card of a dispense leave: none goes before its first card is heard
    (the record written with none counted yet), and none for the last card it asks for, even
    with more cards owed (they go under the next id)."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=25)
        spy = rig.forge(Spy(p.KEPT), "host")
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(2)
        rig.ejector.recheck()  # the record holds the dispense, no card heard yet
        await rig.until(lambda: any(isinstance(r, CardCounted) for r in rig.reports), 10.0)
        rig.ejector.dispense(3)  # more owed while the first one runs
        await rig.until(lambda: rig.halts(), within=10.0)
        assert [(h.reason, h.owed) for h in rig.halts()] == [("done", 0)]
        assert rig.model.cards_out == 5
        kept = {p.unpack(p.ID_PROGRESS, payload) for payload in spy.payloads}
        assert kept == {(26, 1), (27, 1), (27, 2)}
        await rig.close()

    virtual_loop.run(main())


def test_a_dispense_of_fewer_than_no_cards_is_refused_and_asks_for_nothing(tmp_path):
    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=7)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        with pytest.raises(ValueError, match=r"^cannot dispense fewer than no cards$"):
            rig.ejector.dispense(-1)
        await asyncio.sleep(1.0)
        assert (rig.ejector.owed, rig.ejector.busy, rig.model.cards_out) == (0, False, 0)
        await rig.close()

    virtual_loop.run(main())


def test_a_halt_waits_for_the_end_of_the_dispense_not_only_for_the_stop_to_be_taken(tmp_path):
    """At shutdown the host waits, after the controller acknowledged its STOP, for the
    controller to end the dispense it ran: its STOPPED, held back on the cable a moment,
    comes within the halt's wait, and every card that left is counted."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=8)
        holder = rig.forge(Holder(p.STOPPED), "controller")
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(5)
        await rig.until(lambda: rig.model.cards_out >= 2, within=10.0)
        await rig.ejector.halt(lambda: None)
        assert holder.held == 1
        assert not rig.ejector.busy
        assert sum(isinstance(r, CardCounted) for r in rig.reports) == rig.model.cards_out
        await rig.close()

    virtual_loop.run(main())


def test_an_empty_hopper_ends_the_dispense_keeps_the_rest_owed_and_a_refill_deals_it(
    tmp_path, caplog
):
    """EMPTY ends the dispense with the card still owed, and the host asks for nothing more
    until the table goes on (a DISPENSE into an empty hopper would only end at once)."""

    caplog.set_level(logging.INFO, logger="hardware.serial_ejector")

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=9, cards=4)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        # A controller switched on while nothing runs is news, not trouble.
        started = ("launcher controller restarted (power-on)", logging.INFO)
        assert started in [(r.getMessage(), r.levelno) for r in caplog.records]
        rig.ejector.dispense(5)
        await rig.until(lambda: rig.halts(), within=10.0)
        assert [(h.reason, h.owed) for h in rig.halts()] == [("empty", 1)]
        last_card = [r.time for r in rig.reports if isinstance(r, CardCounted)][-1]
        assert rig.halts()[0].time >= last_card
        assert (rig.model.cards_out, rig.ejector.fault) == (4, "empty")
        assert "launcher stopped: empty, 1 card(s) still owed" in caplog.messages
        await asyncio.sleep(3.0)
        assert (rig.ejector.busy, rig.ejector.owed, len(rig.halts())) == (False, 1, 1)
        rig.model.refill(10)
        rig.ejector.resume()
        await rig.until(lambda: len(rig.halts()) == 2, within=10.0)
        assert (rig.halts()[-1].reason, rig.model.cards_out, rig.ejector.owed) == ("done", 5, 0)
        await rig.close()

    virtual_loop.run(main())


def test_no_dispense_leaves_before_the_disk_holds_it(tmp_path):
    """The id and count of a DISPENSE are on the disk before the command leaves, so a restart
    asks for the same id again and the controller answers from memory (docs/state.md)."""
    on_disk: list[Sent] = []
    asked: list[Sent] = []

    def keep_sent(sent: Sent) -> bool:
        asked.append(sent)
        return sent in on_disk

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=2, keep_sent=keep_sent)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(3)
        await asyncio.sleep(2.0)  # the write has not reached the disk yet: nothing moves
        assert asked and rig.model.cards_out == 0 and rig.model.motor_speed == 0
        on_disk.extend(asked)  # it has now
        rig.ejector.recheck()
        await rig.until(lambda: rig.halts(), within=10.0)
        assert [h.reason for h in rig.halts()] == ["done"]
        assert rig.model.cards_out == 3
        await rig.close()

    virtual_loop.run(main())


def test_a_dispense_restored_after_a_restart_that_the_controller_forgot_counts_one_card(tmp_path):
    """After a daemon's restart the dispense it had sent is asked for again under its id; a
    controller switched on meanwhile has forgotten it. One card counts as dealt, as on the
    Pi's own launcher (docs/state.md: at worst a card fewer), and the rest go under a new id."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=4)
        rig.ejector.restore((50, 5, 2))  # 5 asked for, 2 heard before the daemon stopped
        rig.ejector.dispense(3)  # the cards still owed, as the record kept them
        await rig.until(lambda: rig.halts(), within=10.0)
        assert [h.reason for h in rig.halts()] == ["done"]
        assert rig.model.cards_out == 2
        assert sum(isinstance(r, CardCounted) for r in rig.reports) == 3
        assert rig.ejector.owed == 0
        await rig.close()

    virtual_loop.run(main())


def test_a_dispense_a_lost_host_left_running_is_stopped_and_the_new_one_deals_exactly(
    tmp_path, caplog
):
    """A host that comes to a controller still dealing a dispense it knows nothing of (the
    daemon before it died, and its record of the cards owed with it) is refused as busy: it
    stops that dispense at once, then asks for its own, which deals exactly its cards."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=17)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(30)
        await rig.until(lambda: rig.model.cards_out >= 2 and rig.model.motor_speed > 0, 10.0)
        rig.ejector.close()  # gone, with its record; the controller deals on
        rig.reports.clear()
        rig.ejector = SerialEjector(
            str(rig.path), clock=rig.clock, on_report=rig.reports.append, first_id=500
        )
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(3)
        await rig.until(lambda: rig.halts(), within=10.0)
        assert [(h.reason, h.owed) for h in rig.halts()] == [("done", 0)]
        assert sum(isinstance(r, CardCounted) for r in rig.reports) == 3
        assert rig.model.cards_out < 30  # the dispense from before was stopped, not run out
        await rig.close()

    virtual_loop.run(main())
    assert f"launcher controller refused a frame {p.DISPENSE:#04x}: error {p.E_BUSY}" in (
        caplog.messages
    )


def a_refused_kept(seq: int, kind: int, payload: bytes) -> bytes:
    """An ERROR in the frame's place: the controller refused a KEPT's payload."""
    return encode(seq, p.ERROR, p.pack(p.ERROR_FORMAT, p.E_PAYLOAD, p.KEPT))


def test_a_refusal_other_than_busy_during_a_dispense_is_logged_and_stops_nothing(tmp_path, caplog):
    """Only a DISPENSE refused as busy means a dispense from before runs on the controller
    (and is stopped); any other refusal is the log's, and the dispense deals on."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=29)
        stops = rig.forge(Spy(p.STOP), "host")
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(12)
        await rig.until(lambda: rig.model.cards_out >= 1, within=10.0)
        forger = rig.forge(Forger(p.STATE, a_refused_kept), "controller")
        await rig.until(lambda: rig.halts(), within=10.0)
        assert forger.done
        assert [(h.reason, h.owed) for h in rig.halts()] == [("done", 0)]
        assert (rig.model.cards_out, stops.payloads) == (12, [])
        await rig.close()

    virtual_loop.run(main())
    assert f"launcher controller refused a frame {p.KEPT:#04x}: error {p.E_PAYLOAD}" in (
        caplog.messages
    )


def test_a_firmware_reset_mid_dispense_is_reported_and_the_rest_dispensed_once(tmp_path, caplog):
    async def main() -> None:
        rig = Rig(tmp_path, BAD_CABLE, seed=7)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(20)
        # In the middle of it, the roller turning (not waiting for a count to be kept).
        await rig.until(lambda: rig.model.cards_out >= 6 and rig.model.motor_speed > 0, 10.0)
        resets = rig.ejector.resets
        rig.firmware.reset()
        assert rig.model.motor_speed == 0  # a reset stops the motor at once
        await rig.until(lambda: rig.halts(), within=20.0)
        assert [h.reason for h in rig.halts()] == ["done"]
        assert rig.model.cards_out == 20
        assert rig.ejector.resets == resets + 1
        await rig.close()

    virtual_loop.run(main())
    said = ("launcher controller restarted (watchdog) during dispense 0x00000008", logging.WARNING)
    assert said in [(r.getMessage(), r.levelno) for r in caplog.records]


def a_cause_unknown(seq: int, kind: int, payload: bytes) -> bytes:
    """The RESET with a cause this host does not know (a later firmware's)."""
    return encode(seq, kind, bytes((9,)) + payload[1:])


@pytest.mark.parametrize(
    ("cause", "forged", "named"),
    [(PWRON_RESET, None, "power-on"), (WDT_RESET, a_cause_unknown, "cause 9")],
    ids=["power-cut", "unknown-cause"],
)
def test_a_controller_restarted_during_a_dispense_is_a_warning_that_names_its_cause(
    tmp_path, caplog, cause, forged, named
):
    """A restart in the middle of a dispense is trouble, whatever its cause: a power cut
    too, unlike a board switched on with nothing running. A cause the host does not know is
    named by its number. The cards asked for are all counted."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=23)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        if forged is not None:
            rig.forge(Forger(p.RESET, forged), "controller")
        caplog.clear()
        rig.ejector.dispense(8)
        await rig.until(lambda: rig.model.cards_out >= 3, within=10.0)
        rig.firmware.reset(cause)
        await rig.until(lambda: rig.halts(), within=20.0)
        assert [(h.reason, h.owed) for h in rig.halts()] == [("done", 0)]
        assert sum(isinstance(r, CardCounted) for r in rig.reports) == 8
        await rig.close()

    virtual_loop.run(main())
    said = (f"launcher controller restarted ({named}) during dispense 0x00000018", logging.WARNING)
    assert said in [(r.getMessage(), r.levelno) for r in caplog.records]


def test_an_unplugged_cable_is_survived_and_the_link_back_within_2s(tmp_path):
    async def main() -> None:
        rig = Rig(tmp_path, BAD_CABLE, seed=11)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(30)
        await rig.until(lambda: rig.model.cards_out >= 5, within=10.0)
        rig.unplug()
        await rig.until(lambda: not rig.ejector.link_up, within=2.0)
        await asyncio.sleep(1.0)
        rig.ejector.dispense(4)  # asked for while the link is down: waits as owed
        rig.plug()
        took = await rig.until(lambda: rig.ejector.link_up, within=5.0)
        assert took <= 2.0
        await rig.until(lambda: rig.halts(), within=30.0)
        assert [h.reason for h in rig.halts()] == ["done"]
        assert rig.model.cards_out == 34
        assert [up for _, up in rig.links] == [True, False, True]
        await rig.close()

    virtual_loop.run(main())


def test_a_controller_switched_on_again_while_silent_is_asked_for_cards_only_after_its_info(
    tmp_path,
):
    """Cards asked for while the controller is silent wait for its frames, not for any byte:
    its banner, read before its first frame, neither brings the link back nor sends the
    DISPENSE (the controller, just started, would not take it, and its RESET would then count
    a card it never dealt). They are asked for after its INFO, and every one leaves."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=19)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.firmware.close()  # it falls silent
        await rig.until(lambda: not rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(2)  # waits as owed
        os.write(rig.fw_slave, banner(bytes(8)).encode())  # switched on: its banner first
        await asyncio.sleep(0.5)
        assert [up for _, up in rig.links] == [True, False]
        rig.firmware = FirmwareSim(rig.fw_slave, clock=rig.clock, rng=random.Random(20))
        await rig.until(lambda: rig.halts(), within=10.0)
        assert [h.reason for h in rig.halts()] == ["done"]
        assert sum(isinstance(r, CardCounted) for r in rig.reports) == 2
        assert rig.model.cards_out == 2
        assert rig.ejector.owed == 0
        await rig.close()

    virtual_loop.run(main())


def test_a_silent_host_stops_the_motor_within_a_card_and_ends_the_dispense_within_2_5_s(
    tmp_path,
):
    """A host that hangs keeps no more counts: the controller lets at most one more card go,
    then waits with the motor off; its watchdog ends the dispense as host lost."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=13)
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(200)
        await rig.until(lambda: rig.model.cards_out >= 3 and rig.model.motor_speed > 0, 10.0)
        rig.ejector.close()  # the host hangs: not a byte more
        silent, heard = rig.clock.now(), rig.model.cards_out
        await rig.until(lambda: rig.model.motor_speed == 0, within=5.0)
        # The card on its way, counted and never kept, and 40 ms: no other card comes.
        assert rig.model.stop_times[-1] - silent <= 0.2
        await rig.until(lambda: rig.firmware.launcher.host_lost, within=5.0)
        assert rig.clock.now() - silent <= 2.5
        assert rig.model.cards_out <= heard + 1
        rig.relay.close()
        rig.firmware.close()

    virtual_loop.run(main())


class Mute:
    """While `on`, nothing gets through: a cable whose wire that way is broken."""

    def __init__(self) -> None:
        self.on = False

    def __call__(self, chunks: Chunks) -> Chunks:
        return [] if self.on else chunks


def test_a_dispense_the_controller_ended_for_a_lost_host_is_reported_and_its_rest_dealt(
    tmp_path, caplog
):
    """The host's words stop reaching the controller for longer than its watchdog while it
    deals: it ends the dispense as host lost. Once the line carries again the host hears that
    end and says it in its own words, asks the cards still owed under a new id, and the cards
    dealt are exactly those asked for, with no fault for the table to clear."""

    async def main() -> None:
        rig = Rig(tmp_path, LineFaults(), seed=21)
        mute = rig.forge(Mute(), "host")
        await rig.until(lambda: rig.ejector.link_up, within=2.0)
        rig.ejector.dispense(30)
        await rig.until(lambda: rig.model.cards_out >= 3, within=10.0)
        mute.on = True
        await rig.until(lambda: rig.firmware.launcher.host_lost, within=5.0)
        mute.on = False  # its end waits on the line behind the CARD the host acknowledges
        said = "launcher controller stopped: it lost the host for a while"
        await rig.until(lambda: said in caplog.messages, within=2.0)
        await rig.until(lambda: rig.halts(), within=30.0)
        assert [(h.reason, h.owed) for h in rig.halts()] == [("done", 0)]
        assert rig.model.cards_out == 30
        assert sum(isinstance(r, CardCounted) for r in rig.reports) == 30
        await rig.close()

    virtual_loop.run(main())


def test_a_host_that_comes_after_another_acknowledged_the_start_is_told_it_again(tmp_path):
    """Another program had the port as the controller started: it acknowledged RESET, START
    and INFO, and went away without welcoming the start. The host that comes next is told the
    start again, INFO included (it asks for nothing before INFO), and deals."""

    async def main() -> None:
        loop = asyncio.get_running_loop()
        clock = LoopClock(loop)
        master, slave = os.openpty()
        tty.setraw(slave)
        firmware = FirmwareSim(master, clock=clock, rng=random.Random(17))
        decoder, heard = Decoder(), []
        told = asyncio.Event()

        def readable() -> None:
            # A reader of the loop's own, so that its virtual time waits for the bytes on
            # their way (tests/virtual_loop.py), as it does for the ejector's port.
            for seq, kind, _ in decoder.feed(os.read(slave, 4096)):
                heard.append(kind)
                os.write(slave, encode(0, p.ACK, bytes((seq,))))
            if p.INFO in heard:
                told.set()

        loop.add_reader(slave, readable)
        await told.wait()
        assert heard == [p.RESET, p.START, p.INFO]
        await asyncio.sleep(0.5)
        loop.remove_reader(slave)
        reports: list = []
        ejector = SerialEjector(os.ttyname(slave), clock=clock, on_report=reports.append)
        for _ in range(40):
            if ejector.link_up:
                break
            await asyncio.sleep(0.05)
        assert ejector.link_up and ejector.session.firmware == "2.0.0"
        ejector.dispense(2)
        for _ in range(200):
            if any(isinstance(r, Halted) for r in reports):
                break
            await asyncio.sleep(0.05)
        assert [r.reason for r in reports if isinstance(r, Halted)] == ["done"]
        assert firmware.model.cards_out == 2
        ejector.close()
        await asyncio.sleep(0)
        firmware.close()
        os.close(master)
        os.close(slave)

    virtual_loop.run(main())
