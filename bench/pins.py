"""The table on a kernel GPIO chip, measured in the booted tests' machine (tests/boot/: Debian
bookworm under QEMU, gpio-sim for its stock kernel), all in one run of one guest:

- the daemon's CPU share idle (seating screen) and in a game (a turn, its light pulsing), on
  the table's own pins (gpiozero over libgpiod: hardware/gpiod_pins.py), on gpiozero's lgpio
  factory on the same chip, and on gpiozero's mock pins (the simulated table);
- press -> light through the kernel: seat 1's button pulled low in sysfs, the time until
  seat 1's light line changes (the claim lights it, the next press puts it out), for the
  daemon on its own pins and on lgpio's, beside a bare libgpiod responder that only toggles
  the light (the floor);
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
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
import time
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


def press_light(machine: Machine, responder: str, presses: int) -> list[float]:
    """µs from each press of seat 1 to its light's change, `responder` (a guest command)
    answering; it runs in the background meanwhile, on the guest's second CPU, the pin tool
    spinning on the light on the first (with the kernel's interrupt threads)."""
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
    return list(found["us"])


def latency(label: str, us: list[float], floor: list[float] | None = None) -> str:
    p50, p99 = quantile(us, 0.5) / 1000, quantile(us, 0.99) / 1000
    text = f"{label}: p50 {p50:.2f} ms, p99 {p99:.2f} ms (n={len(us)})"
    if floor:
        f50, f99 = quantile(floor, 0.5) / 1000, quantile(floor, 0.99) / 1000
        text += f"; against the bare responder: p50 {p50 / f50:.1f}x, p99 {p99 / f99:.1f}x"
    return text


def main() -> None:
    window = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    windows = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    presses = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    races = int(sys.argv[4]) if len(sys.argv) > 4 else 300
    image = ensure_image()
    work = Path(tempfile.mkdtemp(prefix="flashtable-bench-pins-"))
    try:
        share = make_share(work / "share")
        repack(metadata.distribution("lgpio"), share.directory / "wheels")
        shutil.copy(Path(__file__).with_name("pins_guest.py"), share.directory / "pins_guest.py")
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
            machine.run(
                "mount -t 9p -o trans=virtio,version=9p2000.L,ro host /mnt/host && "
                f"cp /mnt/host/pins_guest.py {GUEST_BENCH} && "
                f"python3 -m pip --python {PYTHON} install -q --no-index "
                "--find-links /mnt/host/wheels lgpio && systemctl stop flashtable"
            )
            copy_tool(machine)
            load = machine.run("cat /proc/loadavg").out.split()[:3]
            print(f"guest load average at the start: {', '.join(load)}")
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
            bare = press_light(machine, f"{PYTHON} {GUEST_BENCH} bare 3600", presses)
            own = press_light(machine, f"{PYTHON} {GUEST_BENCH} serve gpiod 3600", presses)
            lg = press_light(machine, f"{PYTHON} {GUEST_BENCH} serve lgpio 3600", presses)
            print(latency("press -> light, bare libgpiod responder", bare))
            print(latency("press -> light, the daemon on gpiod pins", own, bare))
            print(latency("press -> light, the daemon on lgpio pins", lg, bare))
            slap = guest(machine, "slap", str(races), "1")
            print(
                f"SLAP races on gpiod pins: {slap['races']}, {slap['pairs']} pairs of presses"
                f" {slap['gap_ms'][0]:.3f} to {slap['gap_ms'][1]:.1f} ms apart: {slap['errors']}"
                f" ordering errors; {slap['ties']} places marked as ties;"
                f" {slap['missed']} presses the race never saw"
                f" ({slap['seconds']:.0f} s)"
            )
        finally:
            machine.stop()
        print(f"({time.monotonic() - started:.0f} s)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
