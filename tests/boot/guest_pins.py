"""The test side of the guest's GPIO chip: it drives the table's inputs through the kernel (a
line's simulated pull, as a switch or a sensor would pull the wire) and reads its outputs
back (a line's value as the table drives it).

It runs in the guest, on its Python with the standard library alone; the tests copy it there
(tests/boot/pins.py) and run it through the agent. Each command prints one line of JSON.

    guest_pins.py drive                   steps from standard input (JSON), timed
    guest_pins.py sample CHIP LINE N      the share of N reads, 1 ms apart, that found it high
    guest_pins.py launcher SPEC           a model of the launcher, until its stop file
    guest_pins.py respond CHIP IN OUT N   press IN N times, the time until OUT follows

A line's pull: "pull-down" is a switch closed to ground (a pressed button, a clear beam that
pulls the line low), "pull-up" the line left to its pull-up (released, a card in the beam).
"""

import json
import os
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

    def pull(self, line: int, level: str) -> int:
        if line not in self._pull:
            self._pull[line] = os.open(line_dir(self.chip, line) / "pull", os.O_WRONLY)
        os.write(self._pull[line], level.encode())
        return time.monotonic_ns()

    def value(self, line: int) -> int:
        if line not in self._value:
            self._value[line] = os.open(line_dir(self.chip, line) / "value", os.O_RDONLY)
        return int(os.pread(self._value[line], 4, 0))


def wait_until(deadline_ns: int) -> None:
    """Sleep most of the way, then spin: a gap of 50 µs is kept to a few µs."""
    left = deadline_ns - time.monotonic_ns()
    if left > 400_000:
        time.sleep((left - 300_000) / 1e9)
    while time.monotonic_ns() < deadline_ns:
        pass


def drive(request: dict) -> dict:
    """`steps`: [[after_us, line, level], ...], each `after_us` after the one before was due;
    for each write, the monotonic ns just before it and just after it returned: the kernel's
    time of the edge lies in between (a write that wakes the table may return late)."""
    lines = Lines(request["chip"])
    done = []
    at = time.monotonic_ns()
    for after_us, line, level in request["steps"]:
        at += int(after_us * 1000)
        wait_until(at)
        before = time.monotonic_ns()
        done.append([before, lines.pull(line, level)])
    return {"at": done}


def sample(chip: str, line: int, samples: int) -> dict:
    """The share of `samples` reads of `line`, a millisecond apart, that found it high."""
    lines = Lines(chip)
    high = 0
    for _ in range(samples):
        high += lines.value(line)
        time.sleep(0.001)
    return {"high": high / samples}


def launcher(spec: dict) -> None:
    """A launcher's mechanics on the lines: while the motor's forward line is high, a card
    crosses the beam every `card_ms` (the beam blocked for `block_ms` of it), until `cards`
    have gone or `jam_after` cards have (then it jams: the roller turns, nothing comes out,
    until the file `clear` exists). The beam is held clear otherwise, as a sensor drives its
    line whatever the bias the table asks for. Counts go to `out` as they change; it ends
    when `stop` exists.

    The motor's line keeps the level it was last driven to when its process ends, as a Pi's
    does (gpio-sim's would fall back to its pull): the model sets the pull to each level it
    sees driven, and logs the changes, [monotonic ns, level, cards out by then], as `motor`."""
    lines = Lines(spec["chip"])
    motor, beam = spec["motor"], spec["beam"]
    out, stop, clear = Path(spec["out"]), Path(spec["stop"]), Path(spec["clear"])
    card_ns, block_ns = spec["card_ms"] * 1_000_000, spec["block_ms"] * 1_000_000
    hopper, jam_after = spec["cards"], spec.get("jam_after")
    counted = 0
    running_for = 0  # ns the motor has run forward since the last card
    blocked = False
    last = time.monotonic_ns()
    state = {"out": 0, "jammed": False, "motor_runs": 0, "motor": []}
    kept = None
    was_running = False
    high_at = -(1 << 62)

    def publish() -> None:
        temp = out.with_suffix(".new")
        temp.write_text(json.dumps(state))
        temp.rename(out)

    publish()
    while not stop.exists():
        time.sleep(0.0002)
        now = time.monotonic_ns()
        step, last = now - last, now
        level = lines.value(motor)
        if level != kept:
            lines.pull(motor, "pull-up" if level else "pull-down")
            kept = level
            state["motor"] = [*state["motor"][-199:], [now, level, counted]]
            publish()
        # The forward line may be PWM (a soft start): running while it was high lately.
        if level == 1:
            high_at = now
        running = now - high_at < 25_000_000
        if running and not was_running:
            state["motor_runs"] += 1
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


def respond(chip: str, line_in: int, line_out: int, presses: int, gap_ms: float) -> dict:
    """Press `line_in` `presses` times, `gap_ms` apart, each released once `line_out` has
    changed (as a seat's light answers a claim); the µs from each press to the change."""
    lines = Lines(chip)
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
        time.sleep(gap_ms / 2000)
        lines.pull(line_in, "pull-up")
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
    elif command == "respond":
        result = respond(args[0], int(args[1]), int(args[2]), int(args[3]), float(args[4]))
    else:
        raise SystemExit(f"unknown command {command}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
