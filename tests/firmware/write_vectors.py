"""Writes the conversations of firmware/vectors.json: scripted hosts talking with the firmware.

Each conversation is the launcher core (firmware/launcher.py) and a host's link
(firmware/link.py) joined by a line that loses only what the script says, on one clock in
microseconds. Every byte either side writes, every motor change and every beam or hopper
event is one step, in the order it happened. The tests replay each side on its own against
the steps (tests/firmware/pure_checks.py for the launcher, on CPython and MicroPython;
tests/hardware/test_protocol_vectors.py for the host), so a change of behaviour on either side
shows as a vector that no longer holds. Run from the repository root after a deliberate change
of the protocol, and read the diff: `python -m tests.firmware.write_vectors`.
"""

from __future__ import annotations

import json
from pathlib import Path

from firmware import protocol as p
from firmware.frame import Decoder
from firmware.launcher import Launcher, banner
from firmware.link import Link
from tests.firmware.table_host import TableHost

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "firmware" / "vectors.json"
BOARD = bytes.fromhex("e6614104032f3a2b")
START = 0x8F3A6C21
TYPES: tuple[str, ...] = ("ACK", "HELLO", "DISPENSE", "RETRACT", "STATUS", "STOP", "SET")
TYPES += ("KEPT", "WELCOME", "INFO", "RESET", "CARD", "DONE", "JAM", "EMPTY", "HOST_LOST")
TYPES += ("STOPPED", "STATE", "START", "ERROR")
NAMES = {getattr(p, name): name for name in TYPES}
CAUSES = {p.R_POWER_ON: "power-on", p.R_WATCHDOG: "watchdog", p.R_SOFT: "soft reset"}
STATES = {
    0: "idle",
    1: "running",
    2: "waiting after a jam",
    3: "waiting after empty",
    4: "host lost",
}


def describe(data: bytes) -> str:
    """One line on what the bytes are: the frame's type, sequence number and fields."""
    frames = Decoder().feed(data)
    if not frames:
        return "text " + repr(data.decode("ascii", "replace"))
    (seq, kind, payload), *_ = frames
    name = NAMES.get(kind, f"type {kind:#04x}")
    fields = ""
    if kind == p.ACK:
        return f"ACK of #{payload[0]}"
    if kind in p.PROGRESS or kind == p.KEPT:
        ident, counted = p.unpack(p.ID_PROGRESS, payload)
        fields = f"id {ident}, {counted} counted"
    elif kind == p.DISPENSE:
        ident, count = p.unpack(p.ID_COUNT, payload)
        fields = f"id {ident}, {count} cards"
    elif kind in (p.START, p.WELCOME):
        fields = f"start {payload.hex()}"
    elif kind == p.RESET:
        cause, ident, counted = p.unpack(p.RESET_FORMAT, payload)
        fields = f"{CAUSES.get(cause, cause)}, id {ident}, {counted} counted"
    elif kind == p.INFO:
        version, major, minor, patch, board = p.unpack(p.INFO_FORMAT, payload)
        fields = f"protocol {version}, firmware {major}.{minor}.{patch}, board {board.hex()}"
    elif kind == p.STATE:
        state, ident, counted, asked, empty, clear = p.unpack(p.STATE_FORMAT, payload)
        fields = (
            f"{STATES.get(state, state)}, id {ident}, {counted} of {asked}, "
            f"hopper {'empty' if empty else 'not empty'}, beam {'clear' if clear else 'blocked'}"
        )
    elif kind == p.ERROR:
        code, about = payload
        fields = f"code {code} about {NAMES.get(about, f'type {about:#04x}')}"
    elif kind == p.HELLO:
        fields = f"protocol {payload[0]}"
    elif kind == p.SET:
        param, value = p.unpack(p.SET_FORMAT, payload)
        fields = f"parameter {param} = {value}"
    elif payload:
        fields = payload.hex()
    return f"{name} #{seq}" + (f" {fields}" if fields else "")


class Talk:
    """One conversation: a launcher just started, a host with the port open. The host is a
    script (a host link that sends what the script says), or, with `table` (its first
    dispense id), the table's own host (table_host.py), which decides what it sends."""

    def __init__(
        self,
        name: str,
        meaning: str,
        start: int = START,
        welcoming: bool = True,
        table: int | None = None,
    ):
        self.name, self.meaning, self.start = name, meaning, start
        self.now = 0
        self.steps: list[dict] = []
        self.clear, self.empty = True, False
        self.kept = (0, 0)  # what the scratch registers hold
        self.line: list[tuple[str, object]] = []  # written, not yet arrived: (who, what)
        self.losing: list[tuple[str, int | None]] = []  # the next frame of (who, kind) is lost
        self.dead_until = 0  # nothing arrives either way before this time
        self.deaf_until = 0  # nothing of the launcher's arrives before this time
        self.answers: list[tuple[int, bytes]] = []  # what the host sends on what it took
        self.welcoming = welcoming  # the host welcomes a start as it takes it
        self.host: Link | None = None
        self.table: TableHost | None = None
        self.first_id = table
        self._boot(p.R_POWER_ON, start)
        if table is None:
            self.host = Link(lambda data: self.line.append(("host", data)))
        else:
            self.table = TableHost(lambda data: self.line.append(("host", data)), 0, table)
            self.table.opened()
        self._pump()

    # -- the script

    def at(self, when: int) -> Talk:
        """Let time pass until `when`: resends, counts, holds, jams fall due."""
        assert when >= self.now
        while True:
            dues = [self.launcher.next_due()]
            if self.host is not None:
                dues.append(self.host.next_due())
            if self.table is not None:
                dues.append(self.table.next_due())
            due = min((d for d in dues if d is not None), default=None)
            if due is None or due > when:
                break
            self.now = max(self.now, due)
            self._settle()
            self._pump()
        self.now = when
        return self

    def send(self, kind: int, payload: bytes = b"") -> Talk:
        """The host sends a frame now (its link has nothing in flight)."""
        assert self.host is not None and self.host.idle, "the host sends one frame at a time"
        self._settle()
        self.host.send(kind, payload, self.now)
        self._pump()
        return self

    def queue(self, kind: int, payload: bytes = b"") -> Talk:
        """The host queues a frame now, behind the one in flight."""
        assert self.host is not None
        self._settle()
        self.host.send(kind, payload, self.now)
        self._pump()
        return self

    def lose(self, who: str, kind: int) -> Talk:
        """The next frame of `kind` that `who` writes never arrives."""
        self.losing.append((who, kind))
        return self

    def lose_all(self, until: int, launcher_only: bool = False) -> Talk:
        """Nothing arrives from now until `until`: either way, or (`launcher_only`) of what
        the launcher writes (the host's frames still arrive)."""
        if launcher_only:
            self.deaf_until = until
        else:
            self.dead_until = until
        return self

    def ask(self, what: str) -> Talk:
        """The table asks its host for cards ("asks N") or to go on after a jam ("resumes")."""
        assert self.table is not None
        self._settle()
        self._pump()
        self.steps.append({"at": self.now, "table": what})
        self.table.act(what)
        self._pump()
        return self

    def restart(self, first_id: int) -> Talk:
        """The table's daemon dies and starts again (the port closed and opened anew), and
        takes up its record: the dispense on its way, and the cards still owed."""
        assert self.table is not None
        self._settle()
        self._pump()
        ejector = self.table.ejector
        record, owed = ejector.sent, ejector.owed
        self.steps.append(
            {
                "at": self.now,
                "table": "restarts",
                "record": None if record is None else list(record),
                "owed": owed,
                "first_id": first_id,
            }
        )
        self.table.restart(record, owed, first_id)
        self._pump()
        return self

    def beam(self, clear: bool) -> Talk:
        self._settle()
        self._pump()
        self.steps.append({"at": self.now, "beam": "clear" if clear else "blocked"})
        self.clear = clear
        self.launcher.beam(clear, self.now)
        self._pump()
        return self

    def card(self, blocked_at: int, clear_at: int) -> Talk:
        """A card passes the beam: it blocks it at one time and clears it at the other; time
        runs on until it has counted (the beam clear for 3 ms)."""
        return self.at(blocked_at).beam(False).at(clear_at).beam(True).at(clear_at + 3_000)

    def hopper(self, empty: bool) -> Talk:
        self._settle()
        self._pump()
        self.steps.append({"at": self.now, "hopper": "empty" if empty else "refilled"})
        self.empty = empty
        if empty:
            self.launcher.hopper_emptied(self.now)
        self._pump()
        return self

    def port(self, opened: bool) -> Talk:
        """The host closes the port (the daemon stops) or opens it again (with a new link)."""
        self._pump()
        self.steps.append({"at": self.now, "port": "opened" if opened else "closed"})
        if self.table is not None:
            self.table.advance(self.now)
            (self.table.opened if opened else self.table.lost)()
            self._pump()
            return self
        self.host = Link(lambda data: self.line.append(("host", data))) if opened else None
        return self

    def reset(self, cause: int, start: int) -> Talk:
        """The launcher starts over: a watchdog keeps the scratch registers, a power-on not."""
        self._settle()
        self._pump()
        kept = "keep" if cause == p.R_WATCHDOG else "lose"
        self.steps.append(
            {
                "at": self.now,
                "reset": CAUSES[cause],
                "start": f"{start:08x}",
                "is": f"the launcher starts again: the motor stops, the scratch registers {kept} "
                "the dispense",
            }
        )
        self._boot(cause, start)
        self._pump()
        return self

    def welcome(self) -> Talk:
        """Let the boot frames through: the host acknowledges them and welcomes the start."""
        return self.at(self.now)

    def write(self) -> dict:
        self._pump()
        talk = {
            "name": self.name,
            "meaning": self.meaning,
            "board": BOARD.hex(),
            "boot": "power-on",
            "start": f"{self.start:08x}",
            "until": self.now,
            "steps": self.steps,
        }
        if self.table is not None:
            ejector = self.table.ejector
            talk["table"] = {
                "first_id": self.first_id,
                "counted": self.table.counted,
                "owed": ejector.owed,
            }
        return talk

    # -- the line

    def _boot(self, cause: int, start: int) -> None:
        if cause == p.R_POWER_ON:
            self.kept = (0, 0)
        self.launcher = Launcher(
            lambda data: self.line.append(("launcher", data)),
            lambda duty: self.line.append(("motor", duty)),
            lambda: self.clear,
            lambda: self.empty,
            self._keep,
            BOARD,
            self.now,
        )
        self.line.append(("launcher", banner(BOARD).encode()))
        self.launcher.boot(cause, *self.kept, self.now, start)
        self._taken: list = []
        link = self.launcher.link
        inner = link.receive

        def receive(data: bytes, now: int) -> list:
            frames: list = inner(data, now)
            self._taken.extend(frames)
            return frames

        link.receive = receive

    def _keep(self, ident: int, counted: int) -> None:
        self.kept = (ident, counted)

    def _settle(self) -> None:
        # What falls due by now, the launcher first: a replay polls before each input.
        for side in (self.launcher, self.host):
            if side is None:
                continue
            for _ in range(1000):
                due = side.next_due()
                if due is None or due > self.now:
                    break
                side.poll(due)
            self._pump()
        if self.table is not None:
            self.table.advance(self.now)
            self._pump()

    def _pump(self) -> None:
        while self.line:
            who, what = self.line.pop(0)
            step: dict = {"at": self.now}
            self.steps.append(step)
            if who == "motor":
                step["motor"] = what
                continue
            assert isinstance(what, bytes)
            step[who] = what.hex()
            step["is"] = describe(what)
            frames = Decoder().feed(what)
            kind = frames[0][1] if frames else None
            if (who, kind) in self.losing:
                self.losing.remove((who, kind))
                step["lost"] = True
                continue
            if self.now < self.dead_until or (who == "launcher" and self.now < self.deaf_until):
                step["lost"] = True
                continue
            if who == "launcher" and self.table is not None:
                if not self.table.ejector.session.connected:
                    step["lost"] = True
                    continue
                self.table.advance(self.now)
                self.table.receive(what)
                continue
            if who == "launcher":
                if self.host is None:
                    step["lost"] = True
                    continue
                self._settle_host()
                taken = self.host.receive(what, self.now)
                if frames and kind != p.ACK and not taken:
                    step["taken"] = False
                for took, payload in taken:
                    if took == p.START and self.welcoming:
                        # What waits unacknowledged was meant for the launcher before this
                        # start: forgotten, and the welcome goes first.
                        self.host.forget()
                        self.answers.append((p.WELCOME, payload))
            else:
                before = len(self._taken)
                self.launcher.receive(what, self.now)
                if kind != p.ACK and len(self._taken) == before:
                    step["taken"] = False
            # The host's answers to what it took go out once its acknowledgement has.
            self._app()

    def _app(self) -> None:
        if self.answers:
            kind, payload = self.answers.pop(0)
            assert self.host is not None and self.host.idle
            self.host.send(kind, payload, self.now)

    def _settle_host(self) -> None:
        if self.host is not None:
            for _ in range(1000):
                due = self.host.next_due()
                if due is None or due > self.now:
                    break
                self.host.poll(due)


def idp(ident: int, count: int) -> bytes:
    return bytes(p.pack(p.ID_PROGRESS, ident, count))


def conversations() -> list[dict]:
    talks = []

    t = Talk(
        "repeats",
        "A frame whose ACK is lost is sent again with the same SEQ: the receiver acknowledges "
        "it again and does not act on it (one STATE for two STATUS). HELLO is the exception: "
        "it is always taken, so a HELLO sent again is answered again (INFO twice).",
    ).welcome()
    t.at(10_000).lose("launcher", p.ACK).send(p.STATUS).at(110_000)
    t.at(120_000).lose("launcher", p.ACK).send(p.HELLO, bytes((p.PROTOCOL_VERSION,)))
    talks.append(t.at(220_000).at(230_000).write())

    t = Talk(
        "errors",
        "Refusals, each an ERROR naming the type of the frame refused, in the order the frames "
        "were taken: a HELLO of another version gets ERROR 1 before its INFO; an unknown type "
        "ERROR 2; values out of range ERROR 3; a DISPENSE while another runs ERROR 4 (that id "
        "is not taken: asked again once the other has ended, it starts); the id that runs "
        "asked again is answered with how it stands, never refused; RETRACT while a dispense "
        "runs ERROR 4; a SET of no parameter ERROR 5.",
    ).welcome()
    t.at(10_000).send(p.HELLO, b"\x01")
    t.at(20_000).send(0x3E, b"?")
    t.at(30_000).send(p.SET, p.pack(p.SET_FORMAT, p.P_JAM_MS, 20))
    t.at(40_000).send(p.SET, p.pack(p.SET_FORMAT, 9, 1))
    t.at(50_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 0, 2))
    t.at(60_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 301, 2))
    t.at(70_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 302, 1))
    t.at(80_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 301, 2))
    t.at(90_000).send(p.RETRACT)
    t.at(95_000).send(p.STOP)
    t.at(110_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 302, 1))
    t.at(120_000).send(p.STOP)
    talks.append(t.at(130_000).write())

    t = Talk(
        "kept",
        "A card leaves only once the host has kept the count of the one before: the first at "
        "once; KEPT 60 ms after the first card's count comes too late, so the motor stops "
        "40 ms after that card cleared the beam and starts again (soft start) when KEPT "
        "comes; the second count is kept at once and the roller runs on; at the last card the "
        "motor stops, DONE, and it runs backwards for the retract time.",
    ).welcome()
    t.at(10_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 401, 3))
    t.card(200_000, 230_000).at(290_000).send(p.KEPT, idp(401, 1))
    t.card(500_000, 530_000).send(p.KEPT, idp(401, 2))
    t.card(620_000, 650_000)
    talks.append(t.at(750_000).write())

    t = Talk(
        "jam",
        "A jam in the middle of a dispense: no beam edge for the jam time (800 ms) with the "
        "motor running ends the dispense with JAM and the count so far; the launcher waits "
        "(STATE 2) with the card stuck in the beam and refuses to retract. The stuck card, "
        "pulled out by hand, counts for the jammed dispense: CARD after JAM. The host asks "
        "for the cards still owed under a new id.",
    ).welcome()
    t.at(10_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 501, 3))
    t.card(200_000, 230_000).send(p.KEPT, idp(501, 1))
    t.at(330_000).beam(False)
    t.at(700_000).send(p.STATUS)
    t.at(1_140_000).send(p.STATUS)
    t.at(1_150_000).send(p.RETRACT)
    t.at(1_600_000).beam(True)
    t.at(1_610_000).send(p.STATUS)
    t.at(2_000_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 502, 1))
    t.card(2_200_000, 2_230_000)
    talks.append(t.at(2_330_000).write())

    t = Talk(
        "empty-refill",
        "The hopper switch closes in the middle of a dispense: EMPTY with the count so far, "
        "the motor off, STATE 3. A DISPENSE while the switch is closed ends at once with "
        "EMPTY and 0 cards, and uses up its id. A refill sends nothing: STATE shows the switch "
        "open, and the host asks for the rest under a new id.",
    ).welcome()
    t.at(10_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 601, 3))
    t.card(200_000, 230_000).send(p.KEPT, idp(601, 1))
    t.at(300_000).hopper(True)
    t.at(310_000).send(p.STATUS)
    t.at(320_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 602, 2))
    t.at(1_000_000).hopper(False)
    t.at(1_010_000).send(p.STATUS)
    t.at(1_020_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 603, 2))
    t.card(1_200_000, 1_230_000).send(p.KEPT, idp(603, 1))
    t.card(1_320_000, 1_350_000)
    talks.append(t.at(1_450_000).write())

    t = Talk(
        "queue-overflow",
        "The host's ACKs stop arriving while its frames still do: the launcher's STATE stays "
        "in flight, sent again every 100 ms, and the answers queue behind it. The queue keeps "
        "one STATE (a newer replaces an older one not yet sent) and at most 24 frames: the "
        "25th pushes out the oldest waiting (the ERROR about type 0x30). Once ACKs arrive "
        "again, the rest comes in order.",
    ).welcome()
    t.at(10_000).lose("host", p.ACK).send(p.STATUS)
    for kind in range(0x30, 0x48):
        t.send(kind)
    t.send(p.STATUS)
    t.send(p.STATUS)
    # The STATE sent again is acknowledged, and that ACK is lost too; the next arrives.
    t.lose("host", p.ACK).at(250_000)
    talks.append(t.write())

    t = Talk(
        "memory-16",
        "The launcher remembers the last 16 dispense ids. With the hopper empty each DISPENSE "
        "ends at once (EMPTY, 0 cards); after 17 of them, and a refill, id 2 is still "
        "remembered (answered from memory, the motor still) and id 1 is not: it starts as a "
        "new dispense. A host never uses an id again.",
    ).welcome()
    t.at(10_000).hopper(True)
    for ident in range(1, 18):
        t.at(10_000 + ident * 10_000).send(p.DISPENSE, p.pack(p.ID_COUNT, ident, 1))
    t.at(200_000).hopper(False)
    t.at(210_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 2, 1))
    t.at(220_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 1, 1))
    t.at(230_000).send(p.STOP)
    talks.append(t.at(240_000).write())

    t = Talk(
        "reconnect",
        "The host goes away in the middle of a dispense (the daemon restarts) before it kept "
        "the first card: the motor stops 40 ms after that card. A new host opens the port "
        "(its SEQ starts again at 1: HELLO is always taken), waits for INFO, and asks for the "
        "same id with the same count: the launcher answers how it stands (CARD 1) and deals "
        "nothing more until the host keeps that count.",
    ).welcome()
    t.at(10_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 701, 3))
    t.at(200_000).beam(False).at(230_000).beam(True).port(False)
    t.at(800_000).port(True).send(p.HELLO, bytes((p.PROTOCOL_VERSION,)))
    t.at(850_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 701, 3))
    t.at(860_000).send(p.KEPT, idp(701, 1))
    t.card(1_000_000, 1_030_000).send(p.KEPT, idp(701, 2))
    t.card(1_120_000, 1_150_000)
    talks.append(t.at(1_250_000).write())

    t = Talk(
        "late-host",
        "A host that came after the launcher started: the start's RESET, START and INFO were "
        "acknowledged by a host that went away before it welcomed the start. The new host's "
        "HELLO is not taken (nothing is before a WELCOME); the launcher tells its start again, "
        "INFO included, and the host welcomes it.",
        welcoming=False,
    )
    t.welcome().at(5_000).port(False).at(100_000).port(True)
    t.welcoming = True
    t.send(p.HELLO, bytes((p.PROTOCOL_VERSION,)))
    talks.append(t.at(110_000).write())

    t = Talk(
        "watchdog-reset",
        "The table's host. The launcher's watchdog resets it during a dispense, after the "
        "second card, before the host's KEPT of it arrives. The scratch registers keep the "
        "dispense: RESET names it with 2 cards, and the host counts 2. The KEPT sent again "
        "before the host has heard of the start is neither acknowledged nor taken; once RESET "
        "and START come, the host forgets it, welcomes the start, and waits for INFO. Then it "
        "asks for the card still owed under a new id; it never asks the old one again (it "
        "would be answered from memory, STOPPED with 2, and deal nothing).",
        table=801,
    ).welcome()
    t.at(10_000).ask("asks 3")
    t.card(200_000, 230_000)
    t.lose("host", p.KEPT).card(320_000, 350_000)
    t.at(355_000).lose("launcher", p.RESET).reset(p.R_WATCHDOG, 0x1C0FFEE5)
    t.card(700_000, 730_000)
    talks.append(t.at(830_000).write())

    t = Talk(
        "power-cut",
        "The power goes during a dispense, after the first card, with the host's KEPT of it "
        "on its way. Switched on again the launcher has forgotten the dispense (RESET names "
        "none): the host told it the first card was kept, so at most the second can have "
        "left unheard; it counts 2 cards as dealt (one too many at worst, never a card "
        "twice) and asks for the last one under a new id, never the old one (forgotten, it "
        "would start again from nothing).",
    ).welcome()
    t.at(10_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 901, 3))
    t.card(200_000, 230_000).lose("host", p.KEPT).send(p.KEPT, idp(901, 1))
    t.at(240_000).lose("launcher", p.RESET).reset(p.R_POWER_ON, 0x50C4E7A1).at(400_000)
    t.send(p.DISPENSE, p.pack(p.ID_COUNT, 902, 1))
    t.card(600_000, 630_000)
    talk = t.at(730_000).write()
    talk["host"] = {"dispense": [901, 3, 1], "let_past": 1, "counted": 2}
    talks.append(talk)
    talks += questions()
    return talks


def questions() -> list[dict]:
    """Conversations for what a host author asks (PROTOCOL.md, For host authors)."""
    talks = []

    t = Talk(
        "link-down",
        "The table's host. The line carries nothing either way for 1.5 s in the middle of a "
        "dispense (the port stays open). After 1.2 s without a frame the host takes the link "
        "as down (it asks for nothing new) but does not open the port again: it keeps "
        "sending the frame in flight (its heartbeat's STATUS) every 100 ms. The launcher, "
        "which heard the host less than 2 s ago, waits with the motor off for the KEPT of "
        "its second card, sending its CARD again every 100 ms. When the line carries again, "
        "the launcher's frames bring the link back, and the host asks the dispense in play "
        "again under its id (answered from memory: CARD 2); its KEPT, still in its queue, "
        "lets the last card go.",
        table=1101,
    ).welcome()
    t.at(10_000).ask("asks 3")
    t.card(200_000, 230_000).at(300_000).lose_all(1_800_000)
    t.card(320_000, 350_000).at(1_800_000).card(2_000_000, 2_030_000)
    talks.append(t.at(2_100_000).write())

    t = Talk(
        "news-lost",
        "The table's host. The only way news is lost on a line that works: the port opened "
        "again while the launcher's frames do not arrive. Each HELLO sent again is taken and "
        "answered with INFO; 24 INFOs wait behind the CARD in flight, and the one after "
        "pushes out the oldest waiting, DONE. When the launcher's frames arrive again, the "
        "host, as after every opening, asks the dispense in play again under its id once "
        "INFO has come: it is answered from memory with DONE.",
        table=1201,
    ).welcome()
    t.at(10_000).ask("asks 2")
    t.card(200_000, 230_000).lose_all(3_400_000, launcher_only=True)
    t.card(320_000, 350_000).at(400_000).port(False).at(450_000).port(True)
    talks.append(t.at(3_700_000).write())

    t = Talk(
        "kept-waiting",
        "The table's host. The count the host last told KEPT is the last one it wrote to the "
        "line, acknowledged or not: one only waiting in its queue cannot have been taken. "
        "Here the first card's CARD comes while the heartbeat's STATUS waits for an ACK that "
        "was lost, so KEPT 1 waits behind it; the power goes before it is written. The "
        "launcher, switched on again, has forgotten the dispense; it was let past no count, "
        "so at most its first card left, which the host heard: it counts 1, exactly, and "
        "asks for the 2 still owed under a new id.",
        table=1401,
    ).welcome()
    t.at(10_000).ask("asks 3").at(400_000).lose("launcher", p.ACK)
    t.card(470_000, 499_000).at(550_000).reset(p.R_POWER_ON, 0x3A1B2C4D)
    t.card(900_000, 930_000).card(1_020_000, 1_050_000)
    talks.append(t.at(1_150_000).write())

    t = Talk(
        "never-left",
        "The table's host. A DISPENSE that never left the host is one never written to the "
        "line: it waits behind the heartbeat's STATUS, whose ACK was lost, when the power "
        "goes. The launcher switched on again names no dispense, and the host asks for this "
        "one again as it is, under its id (the launcher starts it from nothing).",
        table=1501,
    ).welcome()
    t.at(400_000).lose("launcher", p.ACK).at(501_000).ask("asks 2")
    t.at(550_000).reset(p.R_POWER_ON, 0x5EB1A2C3)
    t.card(900_000, 930_000).card(1_020_000, 1_050_000)
    talks.append(t.at(1_150_000).write())

    t = Talk(
        "restart",
        "The table's host. Its daemon dies after the DISPENSE left (its record held the "
        "dispense before it was written: there is no moment at which a DISPENSE is on the "
        "line and not on the record), and the port closes. The launcher deals the first "
        "card (its CARD reaches nobody) and waits for its KEPT. The daemon starts again "
        "with its record (the id, 3 asked, none heard) and the port opens: the CARD sent "
        "again counts the card, and once INFO has come the host asks the same id again, as "
        "the first time: the launcher answers from memory (CARD 1), the host keeps that "
        "count, and the rest follows.",
        table=1551,
    ).welcome()
    t.at(10_000).ask("asks 3").at(150_000).port(False)
    t.card(200_000, 230_000).at(800_000).restart(first_id=5001)
    t.card(1_000_000, 1_030_000).card(1_120_000, 1_150_000)
    talks.append(t.at(1_250_000).write())

    t = Talk(
        "jam-crossing",
        "The table's host. A card sticks in the beam: JAM with 1 counted. A person clears "
        "the slot and says so (the table resumes) in the very moment the card comes out, so "
        "the DISPENSE for the 2 still owed reaches the launcher before the card has counted "
        "(3 ms of clear beam): the launcher counts it for the jammed dispense first (CARD "
        "after JAM), then starts the new one. The host, which asked for 2 and now owes 1, "
        "lets no card past what it owes: after the new dispense's first card it sends no "
        "KEPT but STOP, and the dispense ends there (STOPPED, 1). Three cards, as asked.",
        table=1601,
    ).welcome()
    t.at(10_000).ask("asks 3")
    t.card(200_000, 230_000).at(320_000).beam(False).at(1_400_000).beam(True)
    t.at(1_401_000).ask("resumes").card(1_600_000, 1_630_000)
    talks.append(t.at(2_100_000).write())

    t = Talk(
        "heartbeat",
        "The table's host. Its heartbeat keeps a fixed beat of 500 ms from the opening of "
        "the port (it does not start over after other frames): at each beat, a STATUS if "
        "nothing waits to be sent or acknowledged, else nothing (the frame resent every "
        "100 ms keeps the launcher's watchdog fed as well). Here the launcher's ACK of the "
        "DISPENSE is lost, so at the beat of 1 s the DISPENSE is still in flight and no "
        "STATUS goes. Before the launcher's start is welcomed, its HELLO waits "
        "unacknowledged, so no STATUS goes before WELCOME either.",
        table=1701,
    ).welcome()
    t.at(990_000).lose("launcher", p.ACK).ask("asks 1").card(1_300_000, 1_330_000)
    talks.append(t.at(1_600_000).write())

    t = Talk(
        "idle-watchdog",
        "The launcher's watchdog of the host runs while nothing is dispensed too: after 2 s "
        "with no frame from the host it fires, with nothing to stop and nothing to send. "
        "The first frame after that ends it; a STATUS that is that frame is answered with "
        "STATE 4 (host lost), the next with STATE 0. A DISPENSE after it deals as usual.",
    ).welcome()
    t.at(2_200_000).send(p.STATUS).at(2_210_000).send(p.STATUS)
    t.at(2_220_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 1801, 1)).card(2_400_000, 2_430_000)
    talks.append(t.at(2_530_000).write())

    t = Talk(
        "queue-replaced",
        "A frame that replaces an older one of its kind waiting in the queue (KEPT and CARD "
        "of the same dispense id, SET of the same parameter, STATE) drops the older one and "
        "goes to the back of the queue, behind frames queued before it. Here the host's "
        "STATUS waits for an ACK that was lost while it queues KEPT 1, SET 900, SET 1200 "
        "(SET 900 is dropped) and KEPT 1 once more (the first is dropped): once the STATUS "
        "is acknowledged, SET 1200 goes, then KEPT 1, and the roller, stopped 40 ms after the "
        "first card, starts again.",
    ).welcome()
    t.at(10_000).send(p.DISPENSE, p.pack(p.ID_COUNT, 1901, 2)).card(200_000, 230_000)
    t.at(240_000).lose("launcher", p.ACK).send(p.STATUS).queue(p.KEPT, idp(1901, 1))
    t.queue(p.SET, p.pack(p.SET_FORMAT, p.P_JAM_MS, 900))
    t.queue(p.SET, p.pack(p.SET_FORMAT, p.P_JAM_MS, 1200)).queue(p.KEPT, idp(1901, 1))
    t.card(600_000, 630_000)
    talks.append(t.at(730_000).write())

    return talks


def dumps(vectors: dict) -> str:
    """The file's text: one step a line, so that a change reads as a change of steps."""
    head = {key: value for key, value in vectors.items() if key != "conversations"}
    text = json.dumps(head, indent=1)
    lines = [text[: text.rindex("}")].rstrip() + ',\n "conversations": [']
    for i, talk in enumerate(vectors["conversations"]):
        fields = {key: value for key, value in talk.items() if key != "steps"}
        lines.append("  {")
        for key, value in fields.items():
            lines.append(f"   {json.dumps(key)}: {json.dumps(value)},")
        lines.append('   "steps": [')
        for j, step in enumerate(talk["steps"]):
            comma = "," if j < len(talk["steps"]) - 1 else ""
            lines.append(f"    {json.dumps(step)}{comma}")
        lines.append("   ]")
        lines.append("  }" + ("," if i < len(vectors["conversations"]) - 1 else ""))
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    vectors = json.loads(VECTORS.read_text())
    vectors["conversations"] = conversations()
    text = dumps(vectors)
    assert json.loads(text) == vectors
    VECTORS.write_text(text)


if __name__ == "__main__":
    main()
