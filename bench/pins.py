"""The table on a kernel GPIO chip, measured in the booted tests' machine (tests/boot/: Debian
bookworm under QEMU, gpio-sim for its stock kernel), all in one run of one guest:

- the daemon's CPU share idle (seating screen) and in a game (a turn, its light pulsing), on
  the table's own pins (gpiozero over libgpiod: hardware/gpiod_pins.py), on gpiozero's lgpio
  factory on the same chip, and on gpiozero's mock pins (the simulated table);
- press -> light through the kernel: seat 1's button pulled low in sysfs, the time until
  seat 1's light line changes (the claim lights it, the next press puts it out), for the
  daemon on its own pins and on lgpio's, and on its own pins without its answers worked out
  ahead (controller/shell/answers.py: the bench swaps in answers that never answer), beside a
  bare libgpiod responder that only toggles the light (the floor);
- SLAP ordering: races on the table's own pins whose five presses come in a random order,
  50 µs to 5 ms apart; a pair ranked against the order of its presses (more than the tie's
  1 ms apart), or a reaction time earlier than an earlier press's, is an error.

The guest's half is bench/pins_guest.py. CPU shares are the daemon process's CPU time over
windows of the guest's clock. Under emulation every time is many times the Pi's, and the
host's load moves them; the ratios between backends measured in this one run are what
carries over.

Usage, as root with QEMU and debootstrap (./dev test installs them), from the repository
root, with lgpio installed in .venv (pip install lgpio) for its column:
.venv/bin/python bench/pins.py [CPU window, seconds] [windows] [presses] [SLAP races]
or press -> light alone, on the table's own pins with its answers and without them and the
bare responder, each responder's presses made in ROUNDS turns, the order reversed each turn
(the host's load drifts: each column gets its share of each stretch), no lgpio needed:
.venv/bin/python bench/pins.py press [presses] [rounds]
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.boot.guest_table import SHARE_TAG, install_table, make_share  # noqa: E402
from tests.boot.image import ensure_image  # noqa: E402
from tests.boot.machine import Machine, accelerator  # noqa: E402
from tests.boot.pins import GUEST_TOOL, copy_tool, line  # noqa: E402
from tests.systemd.wheelhouse import repack  # noqa: E402

PYTHON = "/opt/flashtable/current/bin/python"
GUEST_BENCH = "/root/pins_guest.py"
READY = "/run/flashtable-bench.ready"
BACKENDS = ("gpiod", "lgpio", "mock")
# The press -> light responders: what each line says, and the guest's command.
RESPONDERS = {
    "bare": ("bare libgpiod responder", "bare 3600"),
    "gpiod": ("the daemon on gpiod pins", "serve gpiod 3600"),
    "unanswered": ("the daemon on gpiod pins without Answers", "serve gpiod 3600 none"),
    "lgpio": ("the daemon on lgpio pins", "serve lgpio 3600"),
}
COUNTS = ("steps", "given", "missed")  # what the daemon says as it stops (pins_guest.serve)


class BenchMachine(Machine):
    """The test machine on QEMU's fullest CPU: lgpio's wheel uses instructions that the
    booted tests' plain 64-bit CPU lacks (it dies of an illegal instruction there)."""

    def command(self) -> list[str]:
        return ["max" if word == "qemu64" else word for word in super().command()]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def guest(machine: Machine, *args: str, timeout: float = 3600) -> dict:
    done = machine.run(f"cd /root && {PYTHON} {GUEST_BENCH} {' '.join(args)}", timeout=timeout)
    return dict(json.loads(done.out.strip().splitlines()[-1]))


def shares(label: str, values: list[float]) -> str:
    each = ", ".join(f"{v:.2f}" for v in values)
    return f"{label}: median {statistics.median(values):.2f}% ({each})"


def press_light(machine: Machine, responder: str, presses: int) -> tuple[list[float], dict]:
    """µs from each press of seat 1 to its light's change, `responder` (a guest command)
    answering; it runs in the background meanwhile, on the guest's second CPU, the pin tool
    spinning on the light on the first (with the kernel's interrupt threads). With them,
    what the responder said as it stopped (the daemon: its steps, and the lights set ahead)."""
    machine.run(
        f"rm -f {READY}; nohup taskset -c 1 {responder} >/root/responder.log 2>&1 & echo $! >/run/r"
    )
    machine.wait_until(f"test -e {READY}", timeout=600)
    args = f"respond gpiochip0 {line('seat1')} {line('seat1.light')} {presses} 300"
    done = machine.run(f"python3 {GUEST_TOOL} {args}", timeout=3600)
    machine.run("kill $(cat /run/r); while kill -0 $(cat /run/r) 2>/dev/null; do sleep 0.2; done")
    found = json.loads(done.out.strip().splitlines()[-1])
    if found["misses"]:
        print(f"  ({found['misses']} presses unanswered within 2 s)")
    said = machine.run("tail -n 1 /root/responder.log").out.strip()
    return list(found["us"]), dict(json.loads(said)) if said.startswith("{") else {}


Turns = dict[str, list[tuple[list[float], dict]]]


def press_lights(machine: Machine, names: list[str], presses: int, rounds: int) -> Turns:
    """Each responder's `presses` in `rounds` turns, the order reversed each turn: for each
    turn, the µs and what the responder said as it stopped."""
    turns: Turns = {name: [] for name in names}
    for turn in range(rounds):
        for name in names if turn % 2 == 0 else names[::-1]:
            command = f"{PYTHON} {GUEST_BENCH} {RESPONDERS[name][1]}"
            turns[name].append(press_light(machine, command, presses // rounds))
    return turns


def print_press_lights(turns: Turns) -> None:
    took = {name: [us for each, _ in done for us in each] for name, done in turns.items()}
    for name, us in took.items():
        floor = None if name == "bare" else took["bare"]
        print(latency(f"press -> light, {RESPONDERS[name][0]}", us, floor))
    answered, unanswered = took["gpiod"], took["unanswered"]
    a50, a99 = quantile(answered, 0.5), quantile(answered, 0.99)
    u50, u99 = quantile(unanswered, 0.5), quantile(unanswered, 0.99)
    print(
        f"Answers, the daemon on gpiod pins with them against without: p50 {a50 / u50:.2f}x"
        f" ({(u50 - a50) / 1000:+.2f} ms saved), p99 {a99 / u99:.2f}x"
        f" ({(u99 - a99) / 1000:+.2f} ms saved)"
    )
    for name in ("gpiod", "unanswered"):
        steps, given, missed = (sum(told.get(key, 0) for _, told in turns[name]) for key in COUNTS)
        waits = ", ".join(f"{told['wait_us']:.0f}" for _, told in turns[name] if told)
        print(
            f"  {RESPONDERS[name][0]}: {steps} steps, {given} of them lit ahead,"
            f" {missed} answers the step did not bear out; a press from `ahead` to the"
            f" step's lights, median by turn: {waits} µs"
        )
    if len(turns["gpiod"]) > 1:
        for name, done in turns.items():
            p50s = ", ".join(f"{quantile(us, 0.5) / 1000:.2f}" for us, _ in done if us)
            print(f"  p50 by turn, {RESPONDERS[name][0]}: {p50s} ms")


def latency(label: str, us: list[float], floor: list[float] | None = None) -> str:
    p50, p99 = quantile(us, 0.5) / 1000, quantile(us, 0.99) / 1000
    text = f"{label}: p50 {p50:.2f} ms, p99 {p99:.2f} ms (n={len(us)})"
    if floor:
        f50, f99 = quantile(floor, 0.5) / 1000, quantile(floor, 0.99) / 1000
        text += f"; against the bare responder: p50 {p50 / f50:.1f}x, p99 {p99 / f99:.1f}x"
    return text


def measure_all(machine: Machine, window: float, windows: int, presses: int, races: int) -> None:
    """CPU shares, press -> light (each responder's presses in one go) and SLAP races."""
    cpu = {p: guest(machine, "cpu", p, str(window), str(windows)) for p in BACKENDS}
    for phase, words in (("idle", "idle (seating)"), ("game", "in a game (a turn)")):
        for pins in BACKENDS:
            print(shares(f"daemon {words}, {pins} pins", cpu[pins][phase]))
    for pins in BACKENDS:
        print(f"daemon idle, {pins} pins: {cpu[pins]['idle_wakeups']:.0f} wakeups a second")
    idle = {pins: statistics.median(cpu[pins]["idle"]) for pins in BACKENDS}
    print(
        f"idle, gpiod against mock: {idle['gpiod'] / max(idle['mock'], 0.01):.2f}x;"
        f" lgpio against mock: {idle['lgpio'] / max(idle['mock'], 0.01):.2f}x"
    )
    print_press_lights(press_lights(machine, [*RESPONDERS], presses, 1))
    slap = guest(machine, "slap", str(races), "1")
    print(
        f"SLAP races on gpiod pins: {slap['races']}, {slap['pairs']} pairs of presses"
        f" {slap['gap_ms'][0]:.3f} to {slap['gap_ms'][1]:.1f} ms apart: {slap['errors']}"
        f" ordering errors; {slap['ties']} places marked as ties;"
        f" {slap['missed']} presses the race never saw"
        f" ({slap['seconds']:.0f} s)"
    )


def press_light_only(machine: Machine, presses: int, rounds: int) -> None:
    """Press -> light on the table's own pins, with Answers and without, beside the floor;
    then how much slower than this host the guest steps the engine."""
    print_press_lights(press_lights(machine, ["bare", "gpiod", "unanswered"], presses, rounds))
    engine_steps(machine)


def engine_steps(machine: Machine, events: int = 11_000, runs: int = 3) -> None:
    """bench/engine_step.py's early steps in the guest, then on this host at once: how many
    times the host's time the guest's CPU takes for the table's own Python."""
    args = f"{events} {runs}"
    inside = machine.run(f"cd /root && {PYTHON} engine_step.py {args}", timeout=1800).out
    host = [sys.executable, str(ROOT / "bench" / "engine_step.py"), *args.split()]
    outside = subprocess.run(host, capture_output=True, text=True, check=True).stdout
    medians = []
    for where, out in (("guest", inside), ("host", outside)):
        found = next(line for line in out.splitlines() if line.startswith("at event 1,000"))
        medians.append(float(found.split("median ")[1].split()[0]))
        print(f"engine step, {where}: {found.removeprefix('at event 1,000: ')}")
    print(f"engine step, guest against host: median {medians[0] / medians[1]:.1f}x")


def main() -> None:
    press_only = sys.argv[1:2] == ["press"]
    measure: Callable[[Machine], None]
    if press_only:
        args = [*sys.argv[2:], "300", "3"][:2]
        measure = partial(press_light_only, presses=int(args[0]), rounds=int(args[1]))
    else:
        args = [*sys.argv[1:], *("20", "3", "300", "300")[len(sys.argv) - 1 :]][:4]
        window, windows, presses, races = float(args[0]), int(args[1]), int(args[2]), int(args[3])
        measure = partial(measure_all, window=window, windows=windows, presses=presses, races=races)
    image = ensure_image()
    work = Path(tempfile.mkdtemp(prefix="flashtable-bench-pins-"))
    try:
        share = make_share(work / "share")
        if not press_only:
            repack(metadata.distribution("lgpio"), share.directory / "wheels")
        for name in ("pins_guest.py", "engine_step.py", "figures.py"):
            shutil.copy(Path(__file__).with_name(name), share.directory / name)
        disk = Machine.overlay(image.disk, work / "bench.qcow2")
        machine = BenchMachine(image, disk, work / "console", shares={SHARE_TAG: share.directory})
        print(
            f"accelerator: {accelerator()}, CPU max; kernel {image.info['kernel']}; gpio-sim chip"
        )
        started = time.monotonic()
        machine.boot()
        try:
            machine.run("mkdir -p /mnt/host")
            install_table(machine, share, broker=False)
            lgpio = (
                f"python3 -m pip --python {PYTHON} install -q --no-index "
                "--find-links /mnt/host/wheels lgpio && "
            )
            machine.run(
                "mount -t 9p -o trans=virtio,version=9p2000.L,ro host /mnt/host && "
                "cp /mnt/host/pins_guest.py /mnt/host/engine_step.py /mnt/host/figures.py /root && "
                f"{'' if press_only else lgpio}systemctl stop flashtable"
            )
            copy_tool(machine)
            load = machine.run("cat /proc/loadavg").out.split()[:3]
            print(f"guest load average at the start: {', '.join(load)}")
            measure(machine)
        finally:
            machine.stop()
        print(f"({time.monotonic() - started:.0f} s)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
