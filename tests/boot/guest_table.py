"""The table in the test machine, put there as docs/deploy.md tells an operator: a checkout's
systemd/ and the wheels handed over from the host, the config in place, systemd/install.sh.

The guest stands in for a Pi without its pins: there is no GPIO chip, so the config names
gpiozero's mock pins (as `flashtable sim` has them), and the LCD's backpack is an i2c-stub
chip on the guest's only I2C bus (tests/boot/image.py). The rest runs as on the Pi: the unit
and its sandbox, the user, the groups, the watchdog, the state on an ext4 disk.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from tests.controller.mqtt.broker import PASSWORD
from tests.systemd.wheelhouse import CHECKOUT, build_table_wheel, repack, runtime_distributions

from .image import HOST_SERVICES
from .machine import Machine

TABLE = "guest"  # the table's id, and its user on the broker
BROKER_PORT = 1883  # as the guest sees it, on HOST_SERVICES
SHARE_TAG = "host"
# This version never reaches READY: an upgrade to it must roll back.
NEVER_READY = {
    "controller/commands/run.py": (
        "    loop = asyncio.get_running_loop()\n",
        '    raise RuntimeError("this version dies before READY")\n',
    )
}
CONFIG = f"""\
# The booted tests' machine: a Pi without its pins. A table with 6 seats and the launcher on
# the Pi's pins, as systemd/flashtable.toml shows it.
[table]
id = "{TABLE}"
seats = 6

[gpio]
factory = "mock"

[lcd]
interface = "i2c"
i2c_port = 0
i2c_address = 0x27

[pins]
"play_pause" = 13
"launcher.motor.forward" = 19
"launcher.motor.backward" = 16
"launcher.beam" = 26
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
    """systemd/install.sh from the checkout in /root/flashtable, as the operator runs it; pip
    finds the wheels in the share instead of on PyPI."""
    return (
        "cd /root/flashtable && PIP_NO_INDEX=1 PIP_FIND_LINKS=/mnt/host/wheels "
        f"FLASHTABLE_FROM=/mnt/host/{wheel} systemd/install.sh {' '.join(args)} 2>&1"
    )


def install_table(machine: Machine, share: Share, *, broker: bool = True) -> tuple[str, float]:
    """docs/deploy.md's steps 3 to 5 in a booted machine: what install.sh printed, and the
    seconds it took. With `broker`, the table is then put on the host's broker."""
    mount_share(machine)
    machine.run("mkdir -p /root/flashtable && cp -r /mnt/host/checkout/systemd /root/flashtable/")
    # The config before the installer: it keeps it, and the table starts on it.
    machine.write("/etc/flashtable/flashtable.toml", CONFIG, mode="0640")
    started = time.monotonic()
    done = machine.run(install_command(share.table_wheel), timeout=900, check=False)
    took = time.monotonic() - started
    assert done.rc == 0, f"install.sh failed:\n{done.out}{done.err}\n{machine.journal()}"
    if broker:
        # As an operator does: the password file the daemon's own, the broker's address let
        # through the sandbox, and a restart.
        owner = "flashtable:flashtable"
        machine.write("/etc/flashtable/mqtt-password", PASSWORD, mode="0600", owner=owner)
        machine.run("cat >> /etc/flashtable/flashtable.toml", stdin=MQTT_CONFIG.encode())
        # docs/deploy.md, step 5: checked as the service's user, and a broker elsewhere let
        # through the sandbox by a drop-in (A broker on another machine).
        machine.run("runuser -u flashtable -- flashtable check-config")
        machine.write("/etc/systemd/system/flashtable.service.d/broker.conf", BROKER_DROP_IN)
        machine.run("systemctl daemon-reload && systemctl restart flashtable")
    machine.run("umount /mnt/host")  # QEMU cannot save a machine with the share mounted
    return done.out, took
