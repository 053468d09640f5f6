"""The table in the test machine, put there as docs/deploy.md tells an operator: a checkout's
systemd/ and the wheels beside it, handed over from the host, the config in place, then the
guide's own command lines, read from it and run as written (with sudo, as on the Pi).

The guest stands in for a Raspberry Pi 4: its GPIO chip is a kernel one (gpio-sim) labelled
as the Pi 4's controller, made at boot (tests/boot/image.py), so the config names no pins'
backend and no chip, as a Pi's needs none; the test side drives the inputs and reads the
outputs through the kernel (tests/boot/pins.py). The LCD's backpack is an i2c-stub chip on
the guest's only I2C bus. The rest runs as on the Pi: the unit and its sandbox, the user, the
groups, the watchdog, the state on an ext4 disk.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from tests.controller.mqtt.broker import PASSWORD
from tests.docs_text import block_after
from tests.systemd.wheelhouse import CHECKOUT, build_table_wheel, repack, runtime_distributions

from .image import HOST_SERVICES
from .machine import Machine

TABLE = "guest"  # the table's id, and its user on the broker
BROKER_PORT = 1883  # as the guest sees it, on HOST_SERVICES
SHARE_TAG = "host"
GUEST_CHECKOUT = "/root/flashtable"
# docs/deploy.md, step 4 on a Pi without the internet: run in the checkout, wheels/ beside it.
OFFLINE_INSTALL = block_after("docs/deploy.md", "**A Pi without the internet.**")
# Step 5 once the editor has saved the config: the check as the service's user, a restart.
CHECK_AND_RESTART = "".join(
    line
    for line in block_after("docs/deploy.md", "## 5. Configure and check").splitlines(True)
    if not line.startswith("sudoedit ")
)
# This version never reaches READY: an upgrade to it must roll back.
NEVER_READY = {
    "controller/commands/run.py": (
        "    loop = asyncio.get_running_loop()\n",
        '    raise RuntimeError("this version dies before READY")\n',
    )
}
CONFIG = f"""\
# The booted tests' machine: a Pi 4. A table with 6 seats and the launcher on the Pi's pins,
# as systemd/flashtable.toml shows it, with the hopper switch of hardware/README.md.
[table]
id = "{TABLE}"
seats = 6

[lcd]
interface = "i2c"
i2c_port = 0
i2c_address = 0x27

[pins]
"play_pause" = 13
"launcher.motor.forward" = 19
"launcher.motor.backward" = 16
"launcher.beam" = 26
"launcher.empty" = 15
"""
MQTT_CONFIG = f"""
[mqtt]
host = "{HOST_SERVICES}"
port = {BROKER_PORT}
username = "{TABLE}"
password_file = "/etc/flashtable/mqtt-password"
keepalive = 10
"""
# A broker elsewhere than on the table: let through the sandbox by a drop-in, as
# docs/deploy.md (A broker on another machine) tells an operator to.
BROKER_DROP_IN = f"[Service]\nIPAddressAllow={HOST_SERVICES}\n"


@dataclass
class Share:
    """What the host hands the guest (a read-only 9p share): the checkout's systemd/ and the
    wheels, this checkout's and its dependencies', built on the host as tests/systemd does
    (the guest has no way to PyPI)."""

    directory: Path
    version: str
    table_wheel: str  # relative to the share
    never_ready_wheel: str


def make_share(directory: Path) -> Share:
    import controller

    wheels = directory / "wheels"
    wheels.mkdir(parents=True)
    for dist in runtime_distributions():
        repack(dist, wheels)
    version = controller.__version__
    table = build_table_wheel(wheels, version, {})
    # Apart from the others, so that pip never picks it for the good version's install.
    bad = directory / "bad"
    bad.mkdir()
    never_ready = build_table_wheel(bad, f"{version}.post1", NEVER_READY)
    shutil.copytree(CHECKOUT / "systemd", directory / "checkout" / "systemd")
    return Share(directory, version, f"wheels/{table.name}", f"bad/{never_ready.name}")


def mount_share(machine: Machine) -> None:
    machine.run(
        "mountpoint -q /mnt/host || { mkdir -p /mnt/host && "
        f"mount -t 9p -o trans=virtio,version=9p2000.L,ro {SHARE_TAG} /mnt/host; }}"
    )


def install_command(wheel: str, *args: str) -> str:
    """systemd/install.sh from the checkout, as the guide's offline install runs it, with the
    wheel `wheel` (relative to the share) and the options `args`."""
    return (
        f"cd {GUEST_CHECKOUT} && sudo env PIP_NO_INDEX=1 PIP_FIND_LINKS=/mnt/host/wheels "
        f"FLASHTABLE_FROM=/mnt/host/{wheel} systemd/install.sh {' '.join(args)} 2>&1"
    )


def install_table(machine: Machine, share: Share, *, broker: bool = True) -> tuple[str, float]:
    """docs/deploy.md's steps 3 to 5 in a booted machine: what install.sh printed, and the
    seconds it took. With `broker`, the table is then put on the host's broker as the guide's
    "A broker on another machine" says."""
    mount_share(machine)
    machine.run(
        f"mkdir -p {GUEST_CHECKOUT} && "
        f"cp -r /mnt/host/checkout/systemd /mnt/host/wheels {GUEST_CHECKOUT}/"
    )
    # The config before the installer: it keeps it, and the table starts on it.
    machine.write("/etc/flashtable/flashtable.toml", CONFIG, mode="0640")
    started = time.monotonic()
    done = machine.run(
        f"cd {GUEST_CHECKOUT} && (\n{OFFLINE_INSTALL}) 2>&1", timeout=900, check=False
    )
    took = time.monotonic() - started
    assert done.rc == 0, f"install.sh failed:\n{done.out}{done.err}\n{machine.journal()}"
    if broker:
        # As an operator does: the password file the daemon's own, the broker's address let
        # through the sandbox by a drop-in of one's own and a reload, then step 5.
        owner = "flashtable:flashtable"
        machine.write("/etc/flashtable/mqtt-password", PASSWORD, mode="0600", owner=owner)
        machine.run("cat >> /etc/flashtable/flashtable.toml", stdin=MQTT_CONFIG.encode())
        machine.write("/etc/systemd/system/flashtable.service.d/broker.conf", BROKER_DROP_IN)
        machine.run("sudo systemctl daemon-reload")
        machine.run("set -e\n" + CHECK_AND_RESTART)
    machine.run("umount /mnt/host")  # QEMU cannot save a machine with the share mounted
    return done.out, took
