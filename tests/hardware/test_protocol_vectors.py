"""The host's side of the protocol's test vectors (firmware/vectors.json): every vector read
through the host's link (firmware/link.py under CPython, as hardware.controller_session runs
it) and the host's reading of a reset (hardware.serial_dispense); the conversations with the
table's own host (hardware.serial_ejector) replayed through it, every frame it decides to
send checked. The launcher's side reads the same vectors in tests/firmware."""

from __future__ import annotations

import binascii
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware import protocol as p
from firmware.frame import Decoder, crc16, encode
from firmware.link import Link
from hardware.serial_dispense import SerialDispense, counted_at_reset
from tests.firmware.table_host import TableHost
from tests.firmware.write_vectors import describe

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "firmware" / "vectors.json").read_text())
# The types a host sends; it takes the others (and ACK goes both ways).
HOST_SENDS = {p.HELLO, p.DISPENSE, p.RETRACT, p.STATUS, p.STOP, p.SET, p.KEPT, p.WELCOME}


def host_link() -> tuple[Link, list[bytes]]:
    written: list[bytes] = []
    return Link(written.append), written


def numbered_to(seq: int) -> tuple[Link, list[bytes]]:
    """A host's link whose next frame gets `seq`: its frames before were all acknowledged."""
    link, written = host_link()
    for n in range(1, (seq - 1) % 256 + 1):
        link.send(p.STATUS, b"", 0)
        link.receive(encode(0, p.ACK, bytes((n & 0xFF,))), 0)
    assert link.idle
    written.clear()
    return link, written


def judged(case: dict, kept_id: int, kept_counted: int) -> int | None:
    """The cards the host counts as dealt by its dispense `case` when a RESET names these."""
    ident, asked, seen = case["dispense"]
    during = SerialDispense(ident, asked, seen, let_past=case["let_past"])
    return counted_at_reset(during, kept_id, kept_counted)


def test_the_host_computes_every_crc_vector():
    for case in VECTORS["crc"]:
        data = bytes.fromhex(case["data"])
        assert crc16(data) == int(case["crc"], 16) == binascii.crc_hqx(data, 0xFFFF)


@pytest.mark.parametrize("case", VECTORS["good"], ids=lambda c: f"{c['type']}#{c['seq']}")
def test_the_host_sends_and_takes_every_good_vector(case):
    kind, payload, seq = getattr(p, case["type"]), bytes.fromhex(case["payload"]), case["seq"]
    frame = bytes.fromhex(case["hex"])
    if kind == p.ACK:
        # An ACK ends the frame in flight with that SEQ, and is itself never acknowledged.
        link, written = numbered_to(payload[0])
        link.send(p.STATUS, b"", 0)
        written.clear()
        assert link.receive(frame, 0) == [] and link.idle and written == []
        return
    if kind in HOST_SENDS:
        link, written = numbered_to(seq)
        link.send(kind, payload, 0)
        assert written == [frame]
    link, written = host_link()
    assert link.receive(frame, 0) == [(kind, payload)]
    assert written == [encode(0, p.ACK, bytes((seq,)))]
    if "host" in case:
        assert kind == p.RESET
        _cause, kept_id, kept_counted = p.unpack(p.RESET_FORMAT, payload)
        assert judged(case["host"], kept_id, kept_counted) == case["host"]["counted"]


def test_the_host_drops_every_bad_vector_without_a_word():
    for case in VECTORS["bad"]:
        link, written = host_link()
        assert link.receive(bytes.fromhex(case["hex"]), 0) == [], case["why"]
        assert written == [] and link.last_heard is None, case["why"]


def test_the_host_finds_and_takes_the_frames_of_every_stream():
    good = VECTORS["good"]
    for case in VECTORS["streams"]:
        link, written = host_link()
        taken = link.receive(bytes.fromhex(case["hex"]), 0)
        expected = [good[i] for i in case["taken"]]
        assert taken == [(getattr(p, g["type"]), bytes.fromhex(g["payload"])) for g in expected]
        acks = [encode(0, p.ACK, bytes((good[i]["seq"],))) for i in case["frames"]]
        assert written == acks, case["meaning"]


def replay(talk: dict) -> tuple[list[list], list[bool], int | None]:
    """The host's side of a conversation: the launcher's bytes that reach it in, at their
    times; the frames the host means to send (those its link has not written of its own) given
    to its link; resends polled when due. The host forgets what is unacknowledged when it takes
    a START, and judges the RESET before it (the conversation's "host": the dispense it had on
    its way, the count it last let past by KEPT, and the cards it counts). Returns what the
    host wrote, whether it took each launcher frame that reached it (ACKs aside), and the
    cards it counted at the last reset."""
    clock = [0]
    written: list[list] = []

    def opened() -> Link:
        return Link(lambda data: written.append([clock[0], data.hex()]))

    link: Link | None = opened()
    taken: list[bool] = []
    news = None
    counted = None
    start = None
    mine = 0  # the host's steps met so far
    for step in [*talk["steps"], {"at": talk["until"]}]:
        at = step["at"]
        while link is not None and (due := link.next_due()) is not None and due <= at:
            clock[0] = due
            link.poll(due)
        clock[0] = at
        if "launcher" in step and not step.get("lost"):
            assert link is not None, "the launcher's bytes reach a closed port"
            data = bytes.fromhex(step["launcher"])
            frames = link.receive(data, at)
            found = Decoder().feed(data)
            if found and found[0][1] != p.ACK:
                taken.append(bool(frames))
            for kind, payload in frames:
                if kind == p.RESET:
                    news = p.unpack(p.RESET_FORMAT, payload)
                elif kind == p.START:
                    link.forget()
                    if "host" in talk and payload != start:
                        # Judged once per start; the last is the one in the dispense's time.
                        start = payload
                        _cause, kept_id, kept_counted = news or (p.R_POWER_ON, 0, 0)
                        counted = judged(talk["host"], kept_id, kept_counted)
        elif "port" in step:
            link = opened() if step["port"] == "opened" else None
        elif "host" in step:
            if len(written) <= mine:  # not written by the link itself: the host sends it
                assert link is not None
                (_seq, kind, payload), *_ = Decoder().feed(bytes.fromhex(step["host"]))
                assert kind != p.ACK, "the link acknowledges, the host does not"
                link.send(kind, payload, at)
            mine += 1
    return written, taken, counted


def host_side(talk: dict) -> tuple[list[list], list[bool]]:
    """What the conversation says the host wrote, and which launcher frames it took."""
    written = [[s["at"], s["host"]] for s in talk["steps"] if "host" in s]
    taken = [
        s.get("taken", True)
        for s in talk["steps"]
        if "launcher" in s
        and not s.get("lost")
        and (frames := Decoder().feed(bytes.fromhex(s["launcher"])))
        and frames[0][1] != p.ACK
    ]
    return written, taken


def replay_table(talk: dict) -> tuple[list[list], TableHost]:
    """The table's own host in a conversation: the launcher's bytes that reach it, the port,
    and what the table asks of it (cards, a resume, a restart of the daemon with its record),
    each at its time, and what falls due in between at its own. Returns what it wrote."""
    written: list[list] = []
    host = TableHost(
        lambda data: written.append([round(host.clock.now() * 1_000_000), data.hex()]),
        0,
        talk["table"]["first_id"],
    )
    host.opened()
    for step in [*talk["steps"], {"at": talk["until"]}]:
        host.advance(step["at"])
        if "launcher" in step and not step.get("lost"):
            host.receive(bytes.fromhex(step["launcher"]))
        elif "port" in step:
            (host.opened if step["port"] == "opened" else host.lost)()
        elif step.get("table") == "restarts":
            record = step["record"]
            host.restart(record and tuple(record), step["owed"], step["first_id"])
        elif "table" in step:
            host.act(step["table"])
    return written, host


SCRIPTED = [talk for talk in VECTORS["conversations"] if "table" not in talk]
TABLE = [talk for talk in VECTORS["conversations"] if "table" in talk]


@pytest.mark.parametrize("talk", SCRIPTED, ids=lambda t: t["name"])
def test_the_host_link_says_what_every_scripted_conversation_says(talk):
    written, taken, counted = replay(talk)
    assert (written, taken) == host_side(talk)
    if "host" in talk:
        assert counted == talk["host"]["counted"]


@pytest.mark.parametrize("talk", TABLE, ids=lambda t: t["name"])
def test_the_tables_host_writes_what_every_conversation_of_it_says(talk):
    """Every frame it writes, at its time, decided by itself (ACKs, resends, the heartbeat,
    welcomes, what it asks and keeps); and the cards it counts, and still owes, at the end."""
    written, host = replay_table(talk)
    assert written == [[s["at"], s["host"]] for s in talk["steps"] if "host" in s]
    assert host.counted == talk["table"]["counted"]
    assert host.ejector.owed == talk["table"]["owed"]


def test_every_conversation_is_played_by_the_host():
    assert SCRIPTED and TABLE
    assert len(SCRIPTED) + len(TABLE) == len(VECTORS["conversations"])


def test_every_step_of_every_conversation_says_what_it_is():
    for talk in VECTORS["conversations"]:
        for step in talk["steps"]:
            data = step.get("launcher") or step.get("host")
            if data is not None:
                assert step["is"] == describe(bytes.fromhex(data)), (talk["name"], step)


CHECKS: dict[str, Callable] = {
    "crc": test_the_host_computes_every_crc_vector,
    "good": test_the_host_sends_and_takes_every_good_vector,
    "bad": test_the_host_drops_every_bad_vector_without_a_word,
    "streams": test_the_host_finds_and_takes_the_frames_of_every_stream,
    "conversations": test_every_conversation_is_played_by_the_host,
}


def test_every_vector_is_read_here():
    """A section of vectors.json that the host's side does not read fails here (and the
    launcher's side has the same test): a vector is for both sides or for none. Each check
    above reads every entry of its section."""
    assert set(VECTORS) == set(CHECKS)
