"""Runs the firmware's pure modules on fixed inputs and prints what they did as JSON lines: the
first for all but the conversations of the vectors, then one for each conversation (one at a
time: MicroPython's WebAssembly build has a heap of 1 MB).

The same file runs under CPython and under MicroPython (so: only the subset both have); the
tests compare the two outputs and check CPython's against what the protocol promises.
Usage: pure_checks.py ROOT, where ROOT holds firmware/ (MicroPython, whose sys.argv cannot be
set from outside, gets ROOT as a global instead).
"""

import gc
import json
import sys

try:
    root = ROOT
except NameError:
    root = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, root)

from firmware import protocol as p
from firmware.dispenser import Dispenser
from firmware.frame import Decoder, crc16, encode
from firmware.gate import Gate
from firmware.launcher import Launcher, banner
from firmware.link import Link


def unhex(text):
    return bytes(int(text[i : i + 2], 16) for i in range(0, len(text), 2))


def accepted(data):
    return [
        [seq, kind, payload.hex()]
        for seq, kind, payload in Decoder().feed(data)
        if p.well_formed(seq, kind, payload)
    ]


def handed_on(data):
    """What a fresh link takes from the bytes and hands on, and the ACKs it writes."""
    written = []
    taken = Link(written.append).receive(data, 0)
    return [[kind, payload.hex()] for kind, payload in taken], [w.hex() for w in written]


def vectors():
    with open(root + "/firmware/vectors.json") as f:
        v = json.load(f)
    out = {"crc": [], "encoded": [], "decoded": [], "bad": [], "streams": [], "taken": []}
    for case in v["crc"]:
        out["crc"].append(f"{crc16(unhex(case['data'])):04x}")
    for case in v["good"]:
        kind = getattr(p, case["type"])
        out["encoded"].append(encode(case["seq"], kind, unhex(case["payload"])).hex())
        out["decoded"].append(accepted(unhex(case["hex"])))
    for case in v["bad"]:
        out["bad"].append([accepted(unhex(case["hex"])), handed_on(unhex(case["hex"]))])
    for case in v["streams"]:
        out["streams"].append(accepted(unhex(case["hex"])))
        out["taken"].append(handed_on(unhex(case["hex"])))
    info = next(case for case in v["good"] if case["type"] == "INFO")
    out["banner"] = banner(unhex(info["payload"])[4:])
    return out, v["conversations"]


CAUSES = {"power-on": p.R_POWER_ON, "watchdog": p.R_WATCHDOG, "soft reset": p.R_SOFT}


def converse(talk):
    """The launcher's side of a conversation of vectors.json: the host's bytes, the beam and
    the hopper switch in, at their times, and what falls due in between, polled at its own
    time. Returns what the launcher wrote and did, as [at, "launcher", hex] and [at, "motor",
    duty], and whether it took each host frame that reached it (ACKs aside)."""
    board = unhex(talk["board"])
    clock = [0]
    sensors = {"clear": True, "empty": False, "kept": (0, 0)}
    out = []
    taken = []
    flags = []

    def write(data):
        out.append([clock[0], "launcher", data.hex()])

    def drive(duty):
        out.append([clock[0], "motor", duty])

    def keep(ident, counted):
        sensors["kept"] = (ident, counted)

    def boot(cause, start):
        if cause == p.R_POWER_ON:
            sensors["kept"] = (0, 0)
        launcher = Launcher(
            write,
            drive,
            lambda: sensors["clear"],
            lambda: sensors["empty"],
            keep,
            board,
            clock[0],
        )
        write(banner(board).encode())  # main.py writes it before the launcher starts
        ident, counted = sensors["kept"]
        launcher.boot(cause, ident, counted, clock[0], int(start, 16))
        link = launcher.link
        inner = link.receive

        def receive(data, now):
            frames = inner(data, now)
            taken.extend(frames)
            return frames

        link.receive = receive
        return launcher

    launcher = boot(CAUSES[talk["boot"]], talk["start"])
    for step in talk["steps"] + [{"at": talk["until"]}]:
        at = step["at"]
        if "launcher" in step or "motor" in step:
            continue  # what the launcher does: compared, not given
        for _ in range(10000):
            due = launcher.next_due()
            if due is None or due > at:
                break
            clock[0] = due
            launcher.poll(due)
        clock[0] = at
        if "host" in step and not step.get("lost"):
            data = unhex(step["host"])
            before = len(taken)
            launcher.receive(data, at)
            if Decoder().feed(data)[0][1] != p.ACK:
                flags.append(len(taken) > before)
        elif "beam" in step:
            sensors["clear"] = step["beam"] == "clear"
            launcher.beam(sensors["clear"], at)
        elif "hopper" in step:
            sensors["empty"] = step["hopper"] == "empty"
            if sensors["empty"]:
                launcher.hopper_emptied(at)
        elif "reset" in step:
            launcher = boot(CAUSES[step["reset"]], step["start"])
        # "port": the host's own; the launcher sees only the bytes that come, or not
    return {"name": talk["name"], "out": out, "taken": flags}


class Mechanics:
    """A roller feeding one card every 125 us-scaled steps: the beam blocks, then clears."""

    def __init__(self):
        self.duty = 0
        self.log = []
        self.clear = True
        self.empty = False

    def drive(self, duty):
        if duty != self.duty:
            self.duty = duty
            self.log.append(["drive", duty])


def dispenser_run(asked, jam_after=None, glitch=False, keep_after=0):
    """The dispenser on a roller that feeds a card every 125 ms; the host keeps each count
    `keep_after` microseconds after it (None: never)."""
    m = Mechanics()
    reports = []
    keeps = []  # [when, counted] the host will keep

    def report(kind, counted):
        reports.append([kind, counted])
        if kind == p.CARD and keep_after is not None:
            keeps.append([now + keep_after, counted])

    d = Dispenser(m.drive, lambda: m.clear, lambda: m.empty, report)
    now = 0
    d.start(asked, now)
    cards = 0
    while now < 5000000:
        now += 1000
        while keeps and keeps[0][0] <= now:
            d.keep(keeps.pop(0)[1], now)
        if m.duty > 200 and jam_after != cards:
            phase = now % 125000
            if phase == 60000 and m.clear:
                m.clear = False
                d.beam(False, now)
            elif phase == 0 and not m.clear:
                m.clear = True
                cards += 1
                d.beam(True, now)
            elif glitch and phase == 20000:
                d.beam(False, now)
                d.beam(True, now + 1000)
        d.poll(now)
        if d.next_due() is None and m.duty == 0 and not keeps:
            break
    return {"reports": reports, "log": m.log, "cards": cards, "end": now}


def launcher_run():
    """A host's conversation with the launcher core; the host acknowledges what it is sent."""
    line = []
    m = Mechanics()
    kept = []
    launcher = Launcher(
        line.append,
        m.drive,
        lambda: m.clear,
        lambda: m.empty,
        lambda i, c: kept.append([i, c]),
        b"\x01" * 8,
        0,
    )
    heard = []
    decoder = Decoder()

    def listen(now):
        while line:
            for seq, kind, payload in decoder.feed(line.pop(0)):
                heard.append([now, seq, kind, payload.hex()])
                if kind != p.ACK:
                    launcher.receive(encode(0, p.ACK, bytes([seq])), now)

    launcher.boot(p.R_WATCHDOG, 76, 1, 0, 0x5EED)
    listen(0)
    launcher.receive(encode(100, p.WELCOME, p.pack(p.START_FORMAT, 0x5EED)), 500)
    listen(500)
    now = 1000
    for seq, kind, payload in (
        (1, p.HELLO, bytes([p.PROTOCOL_VERSION])),
        (2, p.DISPENSE, p.pack(p.ID_COUNT, 77, 2)),
        (2, p.DISPENSE, p.pack(p.ID_COUNT, 77, 2)),  # the same frame again: a duplicate
        (3, p.DISPENSE, p.pack(p.ID_COUNT, 77, 2)),  # the same id again: from memory
        (4, p.DISPENSE, p.pack(p.ID_COUNT, 76, 3)),  # the one running at the reset
        (5, p.DISPENSE, p.pack(p.ID_COUNT, 78, 1)),  # another while 77 runs: busy
        (6, p.SET, p.pack(p.SET_FORMAT, 9, 1)),  # no such parameter
        (7, p.SET, p.pack(p.SET_FORMAT, p.P_JAM_MS, 20)),  # out of range
        (8, p.DISPENSE, p.pack(p.ID_COUNT, 79, 0)),  # no cards
        (9, 0x3E, b"?"),  # unknown type
        (10, p.STATUS, b""),
        (11, p.STOP, b""),
        (12, p.DISPENSE, p.pack(p.ID_COUNT, 77, 2)),  # stopped: still answered from memory
        (13, p.KEPT, p.pack(p.ID_PROGRESS, 77, 1)),  # about a dispense that ended: no news
    ):
        launcher.receive(encode(seq, kind, payload), now)
        listen(now)
        now += 1000
    due = launcher.next_due()
    launcher.poll(now + 2000000)  # the host falls silent
    return {"heard": heard, "drive": m.log, "kept": kept, "due": due, "lost": launcher.host_lost}


def start_run():
    """A launcher just started: frames that come before the host has welcomed this start are
    neither acknowledged nor taken (they were sent to it before the reset); each one tells the
    host of the start again, unless that is on its way already."""
    line = []
    m = Mechanics()
    launcher = Launcher(line.append, m.drive, lambda: m.clear, lambda: m.empty,
                        lambda i, c: None, b"\x01" * 8, 0)  # fmt: skip
    launcher.boot(p.R_POWER_ON, 0, 0, 0, 7)
    decoder = Decoder()
    steps = []

    def heard():
        out = [[kind, payload.hex()] for _, kind, payload in decoder.feed(b"".join(line))]
        line.clear()
        return out

    def host(seq, kind, payload, now):
        launcher.receive(encode(seq, kind, payload), now)
        steps.append(heard())

    dispense = p.pack(p.ID_COUNT, 90, 3)
    steps.append(heard())  # RESET
    host(5, p.DISPENSE, dispense, 1000)  # before it heard of the start: dropped
    host(0, p.ACK, bytes([1]), 2000)  # RESET has arrived: START follows
    host(0, p.ACK, bytes([2]), 2500)  # START has arrived: INFO follows
    host(5, p.DISPENSE, dispense, 3000)  # still not welcomed: dropped, the start told again
    host(0, p.ACK, bytes([3]), 3500)  # INFO has arrived
    host(6, p.WELCOME, p.pack(p.START_FORMAT, 7), 4000)
    host(5, p.DISPENSE, dispense, 5000)  # sent anew: taken
    return {"steps": steps, "drive": m.log}


class LateBoard:
    """A board whose main loop comes late to the beam. The roller feeds a card every 200 ms it
    runs (the card's front at 160 ms, its back end clear at 190 ms); each edge is stored by the
    interrupt for the main loop (`edges`) and told to the gate at once. `starved`, the
    mechanics stand still until the main loop next disables interrupts (the gate's `hold`),
    then catch up to it, each edge at its own time: an interrupt that came while the main
    loop handled a frame (a Pico's in a long garbage collection there; a board double's whose
    mechanics a loaded machine starved)."""

    def __init__(self):
        self.now = 0  # the main loop's time, us
        self.t = 0  # the mechanics' time
        self.ran = 0  # ms the roller has run forwards
        self.duty = 0
        self.out = 0  # cards out of the slot
        self.stored = []
        self.starved = False
        self._inside = False
        self.gate = Gate(self._motor, lambda: self.now, hold=self._hold)

    def clear(self):
        return not 160 <= self.ran % 200 < 190

    def edges(self):
        out = self.stored
        self.stored = []
        return out

    def catch_up(self):
        self._inside = True
        while self.t < self.now:
            self.t += 1000
            if self.duty > 0:
                self.ran += 1
                if self.ran % 200 in (160, 190):
                    clear = self.clear()
                    self.out += 1 if clear else 0
                    self.stored.append((clear, self.t))
                    self.gate.edge(clear, self.t)
        self._inside = False

    def _motor(self, duty):
        self.duty = duty

    def _hold(self):
        if not self._inside:
            self.catch_up()
        return 0


def late_loop_run(command, starved):
    """A dispense of 3 cards whose main loop stalls while the gate stops the second card at
    the beam; the host's `command` ("STOP" at 300 ms, or "KEPT" of each count 60 ms after it
    hears it) reaches the loop as it resumes, before it has handed on the edges stored
    meanwhile. Returns what the host heard and the cards out of the slot."""
    board = LateBoard()
    line = []
    launcher = Launcher(line.append, None, board.clear, lambda: False, lambda i, c: None,
                        b"\x02" * 8, 0, board.gate, board.edges)  # fmt: skip
    decoder = Decoder()
    coming = [[0, p.WELCOME, p.pack(p.START_FORMAT, 9)]]
    coming.append([5000, p.DISPENSE, p.pack(p.ID_COUNT, 7, 3)])
    if command == "STOP":
        coming.append([300000, p.STOP, b""])
    heard = []
    launcher.boot(p.R_POWER_ON, 0, 0, 0, 9)
    # Stalled as the first card leaves (STOP), or once it has counted (KEPT), until after
    # the second card's front has reached the beam.
    stall = (180000 if command == "STOP" else 210000, 450000)
    sent = 0
    for now in range(1000, 2000000, 1000):
        board.now = now
        board.starved = starved and stall[0] <= now <= stall[1]
        if not board.starved:
            board.catch_up()
        if stall[0] <= now < stall[1]:
            continue  # the main loop stands; the mechanics, unless starved, go on
        coming.sort(key=lambda item: item[0])
        while coming and coming[0][0] <= now:
            _, kind, payload = coming.pop(0)
            if kind != p.ACK:
                sent += 1
            launcher.receive(encode(0 if kind == p.ACK else sent, kind, payload), now)
        launcher.take_beam()
        launcher.poll(now)
        for seq, kind, payload in decoder.feed(b"".join(line)):
            if kind == p.ACK:
                continue
            coming.append([now, p.ACK, bytes([seq])])
            if kind in p.PROGRESS:
                ident, counted = p.unpack(p.ID_PROGRESS, payload)
                heard.append([kind, counted])
                if kind == p.CARD and command == "KEPT":
                    coming.append([now + 60000, p.KEPT, p.pack(p.ID_PROGRESS, ident, counted)])
        line.clear()
    return {"heard": heard, "out": board.out}


def late_dispense_run():
    """A card stuck in the beam by a jam is pulled out by hand while the main loop stalls; the
    host's DISPENSE for the rest is read as the loop resumes, before it has handed on the
    edge the interrupt stored. Returns what the host heard: [kind, id, counted]."""
    beam = {"clear": True, "stored": []}

    def edges():
        out = beam["stored"]
        beam["stored"] = []
        return out

    def edge(clear, at):
        beam["clear"] = clear
        beam["stored"].append((clear, at))

    line = []
    heard = []
    decoder = Decoder()
    launcher = Launcher(line.append, lambda duty: None, lambda: beam["clear"], lambda: False,
                        lambda i, c: None, b"\x03" * 8, 0, None, edges)  # fmt: skip

    def host(seq, kind, payload, now):
        launcher.receive(encode(seq, kind, payload), now)
        listen(now)

    def listen(now):
        while line:  # the host acknowledges all it hears
            for heard_seq, heard_kind, data in decoder.feed(line.pop(0)):
                if heard_kind in p.PROGRESS:
                    ident, counted = p.unpack(p.ID_PROGRESS, data)
                    heard.append([heard_kind, ident, counted])
                if heard_kind != p.ACK:
                    launcher.receive(encode(0, p.ACK, bytes([heard_seq])), now)

    launcher.boot(p.R_POWER_ON, 0, 0, 0, 5)
    host(1, p.WELCOME, p.pack(p.START_FORMAT, 5), 0)
    host(2, p.DISPENSE, p.pack(p.ID_COUNT, 7, 2), 1000)
    edge(False, 100000)  # the first card reaches the beam and sticks there
    for now in range(100000, 1000000, 10000):
        launcher.take_beam()
        launcher.poll(now)  # the jam time passes
        listen(now)
    edge(True, 1000000)  # the hand pulls it out as the main loop stalls
    host(3, p.DISPENSE, p.pack(p.ID_COUNT, 8, 2), 1050000)
    return heard


checked, talks = vectors()
print(
    json.dumps(
        {
            "vectors": checked,
            "dispense3": dispenser_run(3),
            "glitches": dispenser_run(2, glitch=True),
            "jam": dispenser_run(4, jam_after=1),
            "kept_late": dispenser_run(2, keep_after=100000),
            "never_kept": dispenser_run(3, keep_after=None),
            "launcher": launcher_run(),
            "start": start_run(),
            "late_stop": late_loop_run("STOP", starved=False),
            "late_stop_starved": late_loop_run("STOP", starved=True),
            "late_kept": late_loop_run("KEPT", starved=False),
            "late_kept_starved": late_loop_run("KEPT", starved=True),
            "late_dispense": late_dispense_run(),
        }
    )
)
del checked
while talks:
    print(json.dumps(converse(talks.pop(0))))
    gc.collect()
