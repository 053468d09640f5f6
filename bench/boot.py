"""The table on a booted Debian machine under QEMU (the booted tests' machine, tests/boot/):
the image's build, boot to shell and to READY, the watchdog's time from a hung daemon to a
running table again, and the daemon's CPU use when idle, inside the guest.

Boots are real boots of the installed disk, each on an overlay of its own. The idle CPU is the
daemon's utime + stime from /proc over a window of the guest's clock, beside a bare asyncio
loop that only sleeps, measured the same way in the same guest. Under emulation every figure
is many times the Pi's; the ratios to the baselines are what carries over.

Usage, as root with QEMU and debootstrap (./dev test installs them), from the repository
root: .venv/bin/python bench/boot.py [boots] [idle window, seconds]
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.boot.guest_table import SHARE_TAG, install_table, make_share  # noqa: E402
from tests.boot.image import cached, cannot_build, ensure_image  # noqa: E402
from tests.boot.machine import Machine, accelerator  # noqa: E402

ACTIVE = "systemctl is-active -q flashtable"
# Says when it is asleep, so that its start-up is not counted as idle.
BARE_LOOP = (
    "import asyncio, pathlib\n"
    "async def main():\n"
    "    pathlib.Path('/run/bare-loop-asleep').touch()\n"
    "    await asyncio.sleep(1e6)\n"
    "asyncio.run(main())\n"
)


def median(values: list[float]) -> str:
    each = ", ".join(f"{v:.1f}" for v in values)
    return f"median {statistics.median(values):.1f} s ({each})"


def cpu_share(machine: Machine, pid: str, window: float) -> float:
    """The share of one CPU that process `pid` used over `window` seconds of the guest's
    clock, in percent."""
    ticks = f"awk '{{print $14 + $15}}' /proc/{pid}/stat"  # utime + stime
    script = (
        f"hz=$(getconf CLK_TCK); a=$({ticks}); s=$(cut -d' ' -f1 /proc/uptime);"
        f" sleep {window}; b=$({ticks}); e=$(cut -d' ' -f1 /proc/uptime);"
        ' echo "$hz $a $b $s $e"'
    )
    hz, before, after, start, end = map(float, machine.run(script, timeout=window + 60).out.split())
    return 100 * (after - before) / hz / (end - start)


def main() -> int:
    boots = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    window = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    image = cached()
    if image is None:
        reason = cannot_build()
        if reason:
            print(f"cannot build the image: {reason}", file=sys.stderr)
            return 1
        started = time.monotonic()
        image = ensure_image(lambda text: print(text, flush=True))
        print(f"image build (this run): {time.monotonic() - started:.0f} s")
    else:
        print(f"image build: {image.info['build_seconds']:.0f} s when it was built (cached now)")
    print(f"accelerator: {accelerator()}; kernel {image.info['kernel']}")
    work = Path(tempfile.mkdtemp(prefix="flashtable-bench-boot-"))
    try:
        share = make_share(work / "share")
        installer = Machine(
            image,
            Machine.overlay(image.disk, work / "install.qcow2"),
            work / "install.console",
            shares={SHARE_TAG: share.directory},
        )
        first = installer.boot()
        _, took = install_table(installer, share, broker=False)
        installer.shutdown()
        print(f"first boot of the fresh image to shell: {first:.1f} s")
        print(f"install.sh, wheels from the host: {took:.0f} s")

        to_shell, to_ready, ready_after_kernel = [], [], []
        machine = None
        for boot in range(boots):
            if machine is not None:
                machine.stop()
            machine = Machine(
                image,
                Machine.overlay(installer.disk, work / f"boot{boot}.qcow2"),
                work / f"boot{boot}.console",
            )
            to_shell.append(machine.boot())
            machine.wait_until(ACTIVE, timeout=300)
            to_ready.append(time.monotonic() - machine.started_at)
            usec = machine.run("systemctl show -P ActiveEnterTimestampMonotonic flashtable").out
            ready_after_kernel.append(int(usec) / 1e6)
        assert machine is not None
        print(f"boot to shell (QEMU started to the agent's answer): {median(to_shell)}")
        print(f"boot to READY (QEMU started to the table active): {median(to_ready)}")
        print(f"  of which after the guest's kernel started: {median(ready_after_kernel)}")

        # Idle: the seating screen, nobody pressing, no broker; the boot's own work settled.
        machine.run("systemctl is-system-running --wait", check=False, timeout=300)
        daemon = machine.run("systemctl show -P MainPID flashtable").out.strip()
        idle = cpu_share(machine, daemon, window)
        machine.write("/run/bare-loop.py", BARE_LOOP)
        bare = machine.run("setsid python3 /run/bare-loop.py >/dev/null 2>&1 & echo $!").out
        machine.wait_until("test -e /run/bare-loop-asleep")
        bare_share = cpu_share(machine, bare.strip(), window)
        machine.run(f"kill {bare.strip()}")
        print(
            f"daemon idle in the guest: {idle:.2f}% of a CPU over {window:.0f} s;"
            f" a bare asyncio loop asleep: {bare_share:.2f}%"
        )

        hung = []
        for _ in range(boots):
            before = int(machine.run("systemctl show -P NRestarts flashtable").out)
            machine.run("kill -STOP $(systemctl show -P MainPID flashtable)")
            hung.append(
                machine.wait_until(
                    f'[ "$(systemctl show -P NRestarts flashtable)" -gt {before} ] && {ACTIVE}',
                    timeout=300,
                )
            )
        print(f"hung (SIGSTOP) to READY again, WatchdogSec=10 + RestartSec=2: {median(hung)}")
        machine.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
