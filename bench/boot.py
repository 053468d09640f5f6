"""The table on a booted Debian machine under QEMU (the booted tests' machine, tests/boot/):
the image's build, boot to READY, power cuts in the middle of dispenses with the cards counted
on the host's side of the serial line and a setting changed before each, the watchdog's time
from a hung daemon to a running table again, the daemon's CPU use idle and while it deals,
inside the guest, and `systemd-analyze security` of the running unit.

The launcher is the firmware on the host (`flashtable firmware-sim`) at the guest's second
serial port, the table in Extreme mode on the host's Mosquitto; each dispense of 6 cards is
commanded over MQTT and cut by a power cut (QEMU killed) at a random card, then the machine
boots again. CPU shares are utime + stime from /proc over a window of the guest's clock,
beside a bare asyncio loop that only sleeps, measured the same way in the same guest. Under
emulation every figure is many times the Pi's; the ratios to the baselines are what carries
over.

Usage, as root with QEMU and debootstrap (./dev test installs them), from the repository
root: .venv/bin/python bench/boot.py [power cuts] [CPU window, seconds] [seed]
"""

from __future__ import annotations

import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.boot.dealing import (  # noqa: E402
    DEAL,
    Firmware,
    deal_then,
    dealt,
    finished,
    use_serial_launcher,
)
from tests.boot.guest_table import (  # noqa: E402
    BROKER_PORT,
    SHARE_TAG,
    TABLE,
    install_table,
    make_share,
)
from tests.boot.image import cached, cannot_build, ensure_image  # noqa: E402
from tests.boot.machine import Machine, accelerator  # noqa: E402
from tests.boot.watch import TableWatch  # noqa: E402
from tests.controller.mqtt.broker import Broker  # noqa: E402

ACTIVE = "systemctl is-active -q flashtable"
MAIN_PID = "$(systemctl show -P MainPID flashtable)"
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
    return f"median {statistics.median(values):.1f} s, max {max(values):.1f} ({each})"


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


def ready_after_kernel(machine: Machine) -> float:
    usec = machine.run("systemctl show -P ActiveEnterTimestampMonotonic flashtable").out
    return int(usec) / 1e6


def power_cuts(
    machine: Machine, watch: TableWatch, firmware: Firmware, cuts: int, rng: random.Random
) -> None:
    """Each: a setting changed and acknowledged, a dispense cut at a random card, a boot;
    then the cards the launcher dealt, and the settings the table came back with."""
    asked, boots, at_cards, settings_kept = 0, [], [], 0
    for cut in range(cuts):
        timer = 2 + cut % 29
        mark = watch.mark()
        watch.set_settings(turn_timer=timer)
        watch.wait_for("settings", lambda m, t=timer: m.json["turn_timer"] == t, after=mark)
        at_cards.append(deal_then(watch, rng))
        asked += DEAL
        machine.power_cut()
        mark = watch.mark()
        machine.boot()
        machine.wait_until(ACTIVE, timeout=300)
        boots.append(ready_after_kernel(machine))
        dealt(watch, watch.came_online(after=mark))
        out = firmware.cards_out()
        if out != asked:
            raise AssertionError(f"power cut {cut + 1} after card {at_cards[-1]}: {out} != {asked}")
        settings = watch.wait_for("settings", lambda m: True, after=mark).json
        settings_kept += settings["turn_timer"] == timer
    print(
        f"power cuts mid-dispense: {cuts}, each at a random card of {DEAL}"
        f" (cut after card {min(at_cards)} to {max(at_cards)} on MQTT)"
    )
    print(f"  cards asked {asked}, dealt {asked} as the launcher counted them: none twice")
    print(f"  settings changed just before the cut and there after it: {settings_kept} of {cuts}")
    print(f"  boot to READY after the guest's kernel started: {median(boots)}")


def dealing(watch: TableWatch, stop: threading.Event) -> None:
    """Dispense after dispense until `stop`: the table at work."""
    while not stop.is_set():
        mark = watch.mark()
        watch.command(action="dispense", cards=DEAL)
        watch.event("dispense", after=mark)
        finished(watch, mark)


def main() -> int:
    cuts = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    window = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else random.randrange(1 << 32)
    rng = random.Random(seed)
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
    print(f"accelerator: {accelerator()}; kernel {image.info['kernel']}; seed {seed}")
    work = Path(tempfile.mkdtemp(prefix="flashtable-bench-boot-"))
    (work / "broker").mkdir()
    broker = Broker(work / "broker", [TABLE])
    broker.start()
    firmware = Firmware(cards=cuts * DEAL * 4 + 500)
    machine = None
    try:
        share = make_share(work / "share")
        machine = Machine(
            image,
            Machine.overlay(image.disk, work / "table.qcow2"),
            work / "table.console",
            forwards={BROKER_PORT: broker.port},
            shares={SHARE_TAG: share.directory},
            second_serial=firmware.port,
        )
        first = machine.boot()
        _, took = install_table(machine, share)
        print(f"first boot of the fresh image to shell: {first:.1f} s")
        print(f"install.sh, wheels from the host: {took:.0f} s")
        use_serial_launcher(machine)
        with TableWatch(broker, TABLE) as watch:
            mark = watch.mark()
            machine.run("systemctl restart flashtable")
            watch.online(after=mark)
            mark = watch.mark()
            watch.set_settings(mode="extreme")
            watch.wait_for("settings", lambda m: m.json["mode"] == "extreme", after=mark)
            power_cuts(machine, watch, firmware, cuts, rng)

            # Idle: nobody pressing, the boot's own work settled, on the broker.
            machine.run("systemctl is-system-running --wait", check=False, timeout=300)
            daemon = machine.run(f"echo {MAIN_PID}").out.strip()
            idle = cpu_share(machine, daemon, window)
            stop = threading.Event()
            worker = threading.Thread(target=dealing, args=(watch, stop))
            worker.start()
            try:
                busy = cpu_share(machine, daemon, window)
            finally:
                stop.set()
                worker.join()
            machine.write("/run/bare-loop.py", BARE_LOOP)
            bare = machine.run("setsid python3 /run/bare-loop.py >/dev/null 2>&1 & echo $!").out
            machine.wait_until("test -e /run/bare-loop-asleep")
            bare_share = cpu_share(machine, bare.strip(), window)
            machine.run(f"kill {bare.strip()}")
            print(f"daemon idle in the guest: {idle:.2f}% of a CPU over {window:.0f} s")
            print(
                f"daemon dealing (a dispense of {DEAL} after another, over MQTT and the serial"
                f" launcher): {busy:.2f}% of a CPU over {window:.0f} s"
            )
            print(f"a bare asyncio loop asleep, the same guest: {bare_share:.2f}%")

            hung = []
            for _ in range(3):
                before = int(machine.run("systemctl show -P NRestarts flashtable").out)
                machine.run(f"kill -STOP {MAIN_PID}")
                hung.append(
                    machine.wait_until(
                        f'[ "$(systemctl show -P NRestarts flashtable)" -gt {before} ] && {ACTIVE}',
                        timeout=300,
                    )
                )
            print(f"hung (SIGSTOP) to READY again, WatchdogSec=10 + RestartSec=2: {median(hung)}")
        security = machine.run("systemd-analyze security --no-pager flashtable | tail -n 1").out
        found = re.search(r"exposure level for flashtable.service: (\S+ \S+)", security)
        print(
            f"systemd-analyze security, the running unit: {found.group(1) if found else security}"
        )
    finally:
        if machine is not None:
            machine.stop()
        firmware.stop()
        broker.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
