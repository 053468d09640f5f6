"""The test side of the guest's GPIO chip: it drives the table's inputs through the kernel (a
line's simulated pull, as a switch or a sensor would pull the wire) and reads its outputs
back (a line's value as the table drives it).

It runs in the guest, on its Python with the standard library alone; the tests copy it there
(tests/boot/pins.py) and run it through the agent. Each command prints one line of JSON.

    guest_pins.py drive                   steps from standard input (JSON), timed
    guest_pins.py sample CHIP LINE N      the share of N reads, 1 ms apart, that found it high
    guest_pins.py launcher SPEC           a model of the launcher, until its stop file
    guest_pins.py respond CHIP IN OUT N   press IN N times, the time until OUT follows
    guest_pins.py kill-high PID CHIP LINE COUNT N
                                          SIGKILL to PID while its output LINE is high,
                                          once the launcher's model has put out N cards

A line's pull: "pull-down" is a switch closed to ground (a pressed button, a clear beam that
pulls the line low), "pull-up" the line left to its pull-up (released, a card in the beam).
"""

import json
import os
import signal
import sys
import time
from pathlib import Path


def line_dir(chip: str, line: int) -> Path:
    for found in Path("/sys/bus/platform/devices").glob(f"gpio-sim.*/{chip}"):
        return found / f"sim_gpio{line}"
    raise SystemExit(f"no gpio-sim chip {chip}")


class Lines:
    """The sysfs files of one chip's lines, opened once: a write is one system call."""

    def __init__(self, chip: str) -> None:
        self.chip = chip
        self._pull: dict[int, int] = {}
        self._value: dict[int, int] = {}

    def open_pulls(self, lines: set[int]) -> None:
        for line in lines - self._pull.keys():
            self._pull[line] = os.open(line_dir(self.chip, line) / "pull", os.O_WRONLY)

    def pull(self, line: int, level: str) -> int:
        if line not in self._pull:
            self.open_pulls({line})
        os.write(self._pull[line], level.encode())
        return time.monotonic_ns()

    def value(self, line: int) -> int:
        if line not in self._value:
            self._value[line] = os.open(line_dir(self.chip, line) / "value", os.O_RDONLY)
        return int(os.pread(self._value[line], 4, 0))


# The CPU the test side and the kernel's interrupt threads share (see `Beside`).
CPU = 0


class Beside:
    """This process, and the interrupt threads that turn the chip's edges into the table's
    events, on one CPU. The tool runs at the lowest real-time priority, below those threads
    (priority 50): a write of a line's pull raises its interrupt on this CPU, and the
    thread runs before the write returns to the tool, so the kernel has made the edge's
    event before the tool makes the next edge.

    gpio-sim needs this where a Pi's controller does not: its interrupt simulator keeps no
    edge pending. An edge that comes while the line's last one is still waiting for its
    thread (on another CPU, which a loaded host may stall for tens of milliseconds) is
    folded into it, stamped with the later time and the level read then: a press and its
    release can become one edge, or none. A Pi's controller latches each edge, and its
    interrupt thread runs within microseconds.

    An interrupt thread sets its own CPUs the first time it runs (to its interrupt's), so
    `keep` puts back, after each edge, any thread that has left the CPU."""

    def __init__(self) -> None:
        os.sched_setaffinity(0, {CPU})
        self.threads: list[int] = []
        self.find()

    def find(self) -> None:
        """The interrupt threads there are now (a table started anew has new ones)."""
        self.threads = []
        for task in Path("/proc").glob("[0-9]*"):
            try:
                if (task / "comm").read_text().startswith("irq/"):
                    self.threads.append(int(task.name))
            except OSError:
                continue  # gone
        self.keep()

    def keep(self) -> None:
        for thread in self.threads:
            try:
                if os.sched_getaffinity(thread) != {CPU}:
                    os.sched_setaffinity(thread, {CPU})
            except OSError:
                continue  # gone, or a thread bound to its CPU


def wait_until(deadline_ns: int) -> None:
    """Sleep most of the way, then spin: a gap of 50 µs is kept to a few µs."""
    left = deadline_ns - time.monotonic_ns()
    if left > 400_000:
        time.sleep((left - 300_000) / 1e9)
    while time.monotonic_ns() < deadline_ns:
        pass


# Real-time priorities: the tool's own, below the kernel's interrupt threads (50), and the
# one it takes for a burst of edges on distinct lines, above them.
BESIDE, AHEAD = 1, 60
BURST_US = 10_000  # edges this close on distinct lines are made as one burst


def priority(level: int) -> None:
    """The tool's real-time priority; dropped below the interrupt threads, it lets those
    that wait run at once, before the call returns."""
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(level))


def drive(request: dict) -> dict:
    """`steps`: [[after_us, line, level], ...], each `after_us` after the one before was due,
    or after that write returned if it came late (a guest CPU stalled by a loaded host): a
    late step never brings the next ones closer than they were asked, so a race's presses
    keep their order and their gaps. For each write, the monotonic ns just before it and
    just after it returned: the kernel's time of the edge lies in between.

    Each write raises its line's interrupt, whose handler stamps the edge's time at once;
    the interrupt's thread, which reads the line's level and makes the table's event, runs
    before the next write (`Beside`). Edges on distinct lines closer than
    `BURST_US` (a SLAP race's presses, 50 µs apart) are made above the interrupt threads
    instead, back to back, their threads run after the burst: no two edges of one line are
    ever in a burst, so each thread finds the level its edge made."""
    lines = Lines(request["chip"])
    steps = request["steps"]
    lines.open_pulls({line for _, line, _ in steps})  # no file opened between two edges
    beside = Beside()
    done = []
    at = time.monotonic_ns()
    for burst in bursts(steps):
        if len(burst) > 1:
            priority(AHEAD)
        for after_us, line, level in burst:
            at = max(at, done[-1][1] if done else at) + int(after_us * 1000)
            wait_until(at)
            before = time.monotonic_ns()
            done.append([before, lines.pull(line, level)])
        if len(burst) > 1:
            priority(BESIDE)  # the burst's edges made into events
        beside.keep()
    return {"at": done}


def bursts(steps: list) -> list[list]:
    """The steps in runs of edges on distinct lines, each within `BURST_US` of the last."""
    runs: list[list] = []
    for step in steps:
        after_us, line, _ = step
        if runs and after_us < BURST_US and line not in {s[1] for s in runs[-1]}:
            runs[-1].append(step)
        else:
            runs.append([step])
    return runs


def sample(chip: str, line: int, samples: int) -> dict:
    """The share of `samples` reads of `line`, a millisecond apart, that found it high."""
    lines = Lines(chip)
    high = 0
    for _ in range(samples):
        high += lines.value(line)
        time.sleep(0.001)
    return {"high": high / samples}


RUN_ON_NS = 25_000_000  # with 12 ms, dispenses on a loaded guest jammed: its looks come late


def launcher(spec: dict) -> None:
    """A launcher's mechanics on the lines: while the motor's forward line is high, a card
    crosses the beam every `card_ms` (the beam blocked for `block_ms` of it), until `cards`
    have gone or `jam_after` cards have (then it jams: the roller turns, nothing comes out,
    until the file `clear` exists). The beam is held clear otherwise, as a sensor drives its
    line whatever the bias the table asks for. Counts go to `out` as they change; it ends
    when `stop` exists.

    The motor line's changes, [monotonic ns, level], are logged as `motor`
    (the line keeps its level when the process that drove it ends, as a Pi's does:
    tests/boot/gpio_sim.py); the motor's runs, [monotonic ns, cards out by then], as `runs`:
    a run starts as the line rises after the roller has come to rest (its run-on over)."""
    lines = Lines(spec["chip"])
    motor, beam = spec["motor"], spec["beam"]
    out, stop, clear = Path(spec["out"]), Path(spec["stop"]), Path(spec["clear"])
    card_ns, block_ns = spec["card_ms"] * 1_000_000, spec["block_ms"] * 1_000_000
    hopper, jam_after = spec["cards"], spec.get("jam_after")
    counted = 0
    running_for = 0  # ns the motor has run forward since the last card
    blocked = False
    last = time.monotonic_ns()
    state = {"out": 0, "jammed": False, "motor": [], "runs": []}
    kept = None
    was_running = False
    high_at = -(1 << 62)

    def publish() -> None:
        temp = out.with_suffix(".new")
        temp.write_text(json.dumps(state))
        temp.rename(out)

    publish()
    beside = Beside()
    # Above the table's threads, beside the kernel's interrupt threads: the mechanics keep
    # their pace on a busy guest, as a launcher's do whatever its Pi is doing.
    priority(BESIDE)
    found = time.monotonic_ns()
    while not stop.exists():
        time.sleep(0.001)
        now = time.monotonic_ns()
        if now - found > 1_000_000_000:  # a table started anew has new interrupt threads
            beside.find()
            found = now
        step, last = now - last, now
        level = lines.value(motor)
        if level != kept:
            kept = level
            state["motor"] = [*state["motor"][-199:], [now, level]]
            publish()
        # The forward line may be PWM (a soft start, played by a thread that a loaded guest
        # wakes late): running while it was high lately. A motor stopped with a card's front
        # in the beam (the gate's stop) so turns on for up to RUN_ON_NS: a card must stay in
        # the beam longer than that to stay in the slot.
        if level == 1:
            high_at = now
        running = now - high_at < RUN_ON_NS
        if running and not was_running:
            state["runs"] = [*state["runs"][-49:], [now, counted]]
            publish()
        was_running = running
        jammed = jam_after is not None and counted >= jam_after and not clear.exists()
        if state["jammed"] != jammed:
            state["jammed"] = jammed
            publish()
        if running and counted < hopper and not jammed:
            # One edge of the beam per pass at most: a pass that comes late (the guest's
            # CPU taken) delays a card, and never lets one through unseen.
            running_for += step
            if not blocked and running_for >= card_ns - block_ns:
                blocked, running_for = True, card_ns - block_ns  # a card enters the beam
            elif blocked and running_for >= card_ns:
                blocked, running_for = False, 0  # and leaves it: one card out
                counted += 1
                state["out"] = counted
                publish()
        # A card stopped in the slot stays in the beam. The sensor drives its line whatever
        # the bias the table asks for, which gpio-sim takes as the line's pull.
        if lines.value(beam) != int(blocked):
            lines.pull(beam, "pull-up" if blocked else "pull-down")
            beside.keep()


def kill_high(pid: int, chip: str, line: int, count: str, cards: int) -> dict:
    """Once the launcher's model (its `out` file `count`) has put out `cards`, SIGKILL to
    `pid` at a moment its output `line` is high (a PWM wave's high half will do): the line
    read until it is high, then every thread stopped, and killed if the line is still high,
    let go on if not. The process is stopped only at those moments: never so long that its
    motor's lease runs out or its launcher sees a jam, which a stop at every look did on a
    slow guest (the motor never high again once the jam stopped it)."""
    lines = Lines(chip)
    while json.loads(Path(count).read_text())["out"] < cards:
        time.sleep(0.005)
    tasks = Path(f"/proc/{pid}/task")
    while True:
        while not lines.value(line):
            time.sleep(0.0005)
        os.kill(pid, signal.SIGSTOP)
        while any(
            (task / "stat").read_text().rsplit(")", 1)[1].split()[0] != "T"
            for task in tasks.iterdir()
        ):
            time.sleep(0.0005)
        if lines.value(line):
            os.kill(pid, signal.SIGKILL)
            return {"killed_at": time.monotonic_ns()}
        os.kill(pid, signal.SIGCONT)


def respond(chip: str, line_in: int, line_out: int, presses: int, gap_ms: float) -> dict:
    """Press `line_in` `presses` times, `gap_ms` apart, each released once `line_out` has
    changed (as a seat's light answers a claim); the µs from each press to the change. It
    spins on the light's value beside the kernel's interrupt threads (`Beside`), so the
    responder, on the other CPU, has that CPU to itself."""
    lines = Lines(chip)
    beside = Beside()
    took = []
    misses = 0
    for _ in range(presses):
        before = lines.value(line_out)
        start = lines.pull(line_in, "pull-down")
        deadline = start + 2_000_000_000
        while lines.value(line_out) == before:
            if time.monotonic_ns() > deadline:
                misses += 1
                break
        else:
            took.append((time.monotonic_ns() - start) / 1000)
        beside.keep()
        time.sleep(gap_ms / 2000)
        lines.pull(line_in, "pull-up")
        beside.keep()
        time.sleep(gap_ms / 2000)
    return {"us": took, "misses": misses}


def main() -> None:
    command, args = sys.argv[1], sys.argv[2:]
    if command == "drive":
        result = drive(json.loads(sys.stdin.read()))
    elif command == "sample":
        result = sample(args[0], int(args[1]), int(args[2]))
    elif command == "launcher":
        launcher(json.loads(args[0]))
        result = {"stopped": True}
    elif command == "kill-high":
        result = kill_high(int(args[0]), args[1], int(args[2]), args[3], int(args[4]))
    elif command == "respond":
        result = respond(args[0], int(args[1]), int(args[2]), int(args[3]), float(args[4]))
    else:
        raise SystemExit(f"unknown command {command}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
