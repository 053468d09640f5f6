"""The booted tests' machine: a small Debian bookworm made from Debian's packages alone, with
systemd as PID 1, the stock kernel and its initramfs, and an agent on the first serial port
that runs the tests' commands (tests/boot/guest_agent.py), and a kernel GPIO chip: gpio-sim,
built for the stock kernel (tests/boot/gpio_sim.py), made at boot before the table starts,
by the guest's chip maker (tests/boot/guest_chips.py).

debootstrap fetches the packages from the machine's own Debian mirror, `mkfs.ext4 -d` turns
the tree into a disk without mounting anything, and the kernel and initramfs are kept beside
it so QEMU boots them directly (no boot loader). The result is cached in
~/.cache/flashtable/vm/KEY/, KEY a hash of everything it is made from (the suite, the mirror,
the packages, the files and units below, the steps that build it, the agent): a second run
finds it and builds nothing, and a change to any of them builds it anew. Checkouts of
several branches share the cache, each with its own recipe: the KEEP images used last are
kept (a use touches the image's info.json), so one checkout's build does not take the image
from under another's next run.

    python -m tests.boot.image      (as root) build it unless cached, and print the figures
"""

from __future__ import annotations

import fcntl
import hashlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from . import gpio_sim
from .gpio_sim import install_module

SUITE = "bookworm"
DEFAULT_MIRROR = "http://deb.debian.org/debian"
# What a Raspberry Pi OS Lite has that the table needs (install.sh installs python3-venv,
# python3-pip and i2c-tools, and finds them here already; the guide's commands run with sudo),
# plus systemd and the kernel.
PACKAGES = (
    "systemd",
    "systemd-sysv",
    "udev",
    "kmod",
    "linux-image-amd64",
    "python3",
    "python3-venv",
    "python3-pip",
    "i2c-tools",
    "iproute2",
    "procps",
    "sudo",
)
DISK_SIZE = "3G"  # sparse: the tree takes about a third, the rest is room for installs
HERE = Path(__file__).resolve().parent
GPIO_SIM = HERE / "gpio_sim.py"
AGENT = HERE / "guest_agent.py"
GUEST_AGENT = "/usr/local/lib/flashtable-vm/agent.py"
CHIPS = HERE / "guest_chips.py"
GUEST_CHIPS = "/usr/local/lib/flashtable-vm/chips.py"
# The chip made at boot: the GPIO controller of a Raspberry Pi 4 (its label, as the Pi's
# kernel names it, and its 58 lines), so that the table installed by the guide finds its pins
# as on a Pi. Line offsets are BCM numbers.
BOOT_CHIP = "pinctrl-bcm2711:58"

# The guest's address on QEMU's user network, and where the host's services appear to it.
GUEST_ADDRESS = "10.0.2.15"
HOST_SERVICES = "10.0.2.100"

# Files written into the tree after debootstrap, each with why it is there.
FILES = {
    "etc/hostname": "flashtable-vm\n",
    "etc/hosts": "127.0.0.1 localhost\n127.0.1.1 flashtable-vm\n",
    "etc/fstab": "/dev/vda / ext4 rw,errors=remount-ro 0 1\n",
    # No mirror is reachable from the guest: with no sources, `apt-get update` has nothing to
    # fetch and succeeds, and `apt-get install` finds the packages the image already holds.
    "etc/apt/sources.list": "# The test machine has no network to a mirror.\n",
    # The Pi's LCD hangs off an I2C bus: here a stub chip answers at the backpack's address.
    # The PC's own SMBus controllers stay unloaded, so the stub is always bus 0.
    "etc/modules-load.d/flashtable-vm.conf": "i2c-dev\ni2c-stub\n",
    "etc/modprobe.d/flashtable-vm.conf": (
        "options i2c-stub chip_addr=0x27\nblacklist i2c_piix4\nblacklist i2c_i801\n"
    ),
    # A fixed address, set once the network card is there: no DHCP round trip and no
    # network manager at every boot (systemd-networkd alone takes 10 s under emulation). The
    # host's services (the broker) are forwarded to HOST_SERVICES on the same network.
    "etc/systemd/system/flashtable-vm-network.service": (
        "[Unit]\nDescription=The test machine's address on QEMU's user network\n"
        "BindsTo=sys-subsystem-net-devices-eth0.device\n"
        "After=sys-subsystem-net-devices-eth0.device\nBefore=network.target\n\n"
        "[Service]\nType=oneshot\nRemainAfterExit=yes\n"
        f"ExecStart=/sbin/ip address add {GUEST_ADDRESS}/24 dev eth0\n"
        "ExecStart=/sbin/ip link set eth0 up\n\n"
        "[Install]\nWantedBy=sys-subsystem-net-devices-eth0.device\n"
    ),
    # The initramfs with the few modules that find the root disk on QEMU's virtio, not the
    # most of every driver: a sixth of the size, and seconds less to unpack at every boot.
    "etc/initramfs-tools/conf.d/flashtable-vm.conf": "MODULES=list\n",
    "etc/initramfs-tools/modules": "virtio_pci\nvirtio_blk\next4\n",
    # The journal in memory: each boot is a test of its own, and the disk stays quiet.
    "etc/systemd/journald.conf.d/flashtable-vm.conf": "[Journal]\nStorage=volatile\n",
    "etc/systemd/system/flashtable-vm-agent.service": (
        "[Unit]\nDescription=The booted tests' agent on the first serial port\n"
        "After=systemd-udevd.service\n\n"
        "[Service]\n"
        f"ExecStart=/usr/bin/python3 {GUEST_AGENT} /dev/ttyS0\n"
        "Restart=always\nRestartSec=1\n\n"
        "[Install]\nWantedBy=multi-user.target\n"
    ),
    # The GPIO chip, made before the table starts, as a Pi's is there from the kernel on.
    "etc/systemd/system/flashtable-vm-gpio.service": (
        "[Unit]\nDescription=The test machine's GPIO chip (gpio-sim)\n"
        "DefaultDependencies=no\n"
        "After=systemd-modules-load.service sys-kernel-config.mount systemd-udevd.service\n"
        "Before=flashtable.service sysinit.target\n\n"
        "[Service]\nType=oneshot\nRemainAfterExit=yes\n"
        f"ExecStart=/usr/bin/python3 {GUEST_CHIPS} {BOOT_CHIP}\n\n"
        "[Install]\nWantedBy=sysinit.target\n"
    ),
    # Raspberry Pi OS's rule: the GPIO chips belong to the group gpio, which the table's user
    # is in (install.sh makes the group where the system lacks it).
    "etc/udev/rules.d/60-flashtable-vm-gpio.rules": (
        'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"\n'
    ),
}
ENABLED = (
    "flashtable-vm-network.service",
    "flashtable-vm-agent.service",
    "flashtable-vm-gpio.service",
)
# Nothing in a test wants them, and under emulation each costs seconds: the consoles' logins
# (the agent has the serial port), and the timers that would run apt, fstrim or e2scrub.
MASKED = (
    "serial-getty@ttyS0.service",
    "getty@tty1.service",
    "apt-daily.timer",
    "apt-daily-upgrade.timer",
    "dpkg-db-backup.timer",
    "e2scrub_all.timer",
    "e2scrub_reap.service",
    "fstrim.timer",
    "systemd-pstore.service",
    # Early boot's extras: mounts, modules and nodes for things the guest never uses.
    "getty-static.service",
    "systemd-binfmt.service",
    "proc-sys-fs-binfmt_misc.automount",
    "dev-hugepages.mount",
    "sys-kernel-debug.mount",
    "sys-kernel-tracing.mount",
    "modprobe@fuse.service",
    "modprobe@dm_mod.service",
    "modprobe@loop.service",
    "modprobe@drm.service",
    "kmod-static-nodes.service",
    "systemd-network-generator.service",
    # The image's users are made when it is built; nobody logs in to be counted.
    "systemd-sysusers.service",
    "systemd-update-utmp.service",
    "systemd-update-utmp-runlevel.service",
)
TOOLS = {
    "debootstrap": "debootstrap",
    "mkfs.ext4": "e2fsprogs",
    "qemu-img": "qemu-utils",
    "qemu-system-x86_64": "qemu-system-x86",
}


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "flashtable" / "vm"


def mirror(sources: Path = Path("/etc/apt/sources.list.d/debian.sources")) -> str:
    """The first URI of this machine's Debian sources for the main archive (not security),
    else Debian's own."""
    if sources.exists():
        for stanza in sources.read_text(encoding="utf-8").split("\n\n"):
            fields = dict(
                line.split(":", 1) for line in stanza.splitlines() if re.match(r"^\w[\w-]*:", line)
            )
            uris = fields.get("URIs", "").split()
            suites = fields.get("Suites", "").split()
            if uris and any(suite in (SUITE, "stable") for suite in suites):
                return uris[0].rstrip("/")
    legacy = Path("/etc/apt/sources.list")
    if legacy.exists():
        for line in legacy.read_text(encoding="utf-8").splitlines():
            found = re.match(rf"^deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+{SUITE}\s", line)
            if found and "security" not in found.group(1):
                return found.group(1).rstrip("/")
    return DEFAULT_MIRROR


def recipe() -> dict[str, object]:
    """Everything the image is made from (the steps as their source); its hash names the
    cache entry."""
    return {
        "suite": SUITE,
        "mirror": mirror(),
        "packages": PACKAGES,
        "disk_size": DISK_SIZE,
        "files": FILES,
        "enabled": ENABLED,
        "masked": MASKED,
        "steps": [inspect.getsource(step) for step in (build, configure, take_kernel)],
        "gpio_sim": GPIO_SIM.read_text(encoding="utf-8"),
        "agent": AGENT.read_text(encoding="utf-8"),
        "chips": CHIPS.read_text(encoding="utf-8"),
    }


def key() -> str:
    text = json.dumps(recipe(), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Image:
    """A built image: the disk (qcow2, never written: each machine gets an overlay), and the
    kernel and initramfs QEMU boots."""

    directory: Path

    @property
    def disk(self) -> Path:
        return self.directory / "disk.qcow2"

    @property
    def kernel(self) -> Path:
        return self.directory / "vmlinuz"

    @property
    def initrd(self) -> Path:
        return self.directory / "initrd.img"

    @property
    def info(self) -> dict:
        return json.loads((self.directory / "info.json").read_text(encoding="utf-8"))


def cannot_build() -> str | None:
    """Why the image cannot be built here, or None."""
    if os.geteuid() != 0:
        return "building the test machine's image needs root (debootstrap)"
    missing = [package for tool, package in TOOLS.items() if not find_tool(tool)]
    if missing:
        return f"needs the Debian package(s) {' '.join(sorted(set(missing)))}"
    return None


def find_tool(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")


KEEP = 3  # images kept in the cache, the ones used last


def cached() -> Image | None:
    """Today's recipe's image, if built; its info.json touched: its last use."""
    info = cache_root() / key() / "info.json"
    try:
        os.utime(info)
    except FileNotFoundError:
        return None
    return Image(info.parent)


def ensure_image(say=print) -> Image:
    """The cached image, built first if there is none for today's recipe. One build at a
    time: a second caller waits for the first and then finds it."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        image = cached()
        if image is not None:
            return image
        reason = cannot_build()
        if reason:
            raise RuntimeError(reason)
        name = key()
        work = root / f"{name}.building"
        remove(work)
        work.mkdir()
        say(f"building the test machine's image in {root / name} (a few minutes, once)")
        started = time.monotonic()
        try:
            kernel_version = build(work, say)
        except BaseException:
            remove(work)
            raise
        seconds = time.monotonic() - started
        info = {"build_seconds": round(seconds, 1), "kernel": kernel_version, **recipe()}
        del info["steps"], info["agent"], info["files"], info["chips"], info["gpio_sim"]
        (work / "info.json").write_text(json.dumps(info, indent=1), encoding="utf-8")
        work.rename(root / name)
        built = [d for d in root.iterdir() if (d / "info.json").exists()]
        built.sort(key=lambda d: (d / "info.json").stat().st_mtime, reverse=True)
        for old in built[KEEP:]:
            remove(old)  # of a recipe no checkout has used for the longest time
        say(f"image built in {seconds:.0f} s")
        return Image(root / name)


def remove(directory: Path) -> None:
    """Delete a build's directory; first unmount what a build cut short left mounted in its
    tree (debootstrap mounts /proc, and may bind /dev), lest the deleting reach the host's."""
    if not directory.exists():
        return
    inside = str(directory.resolve()) + "/"
    with open("/proc/self/mountinfo", encoding="utf-8") as mounts:
        points = [line.split()[4] for line in mounts if line.split()[4].startswith(inside)]
    for point in sorted(points, reverse=True):  # the deepest first
        subprocess.run(["umount", "--lazy", point], check=False)
    with open("/proc/self/mountinfo", encoding="utf-8") as mounts:
        if any(line.split()[4].startswith(inside) for line in mounts):
            raise RuntimeError(f"{directory} still has file systems mounted in it; not deleted")
    shutil.rmtree(directory, ignore_errors=True)


def run(*command: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-20:])
        raise RuntimeError(f"{command[0]} failed (exit {done.returncode}):\n{tail}")


def build(work: Path, say=print) -> str:
    """Make the tree, the disk, the kernel and initramfs in `work`; the kernel's version."""
    tree = work / "tree"
    source = mirror()
    say(f"debootstrap {SUITE} from {source}")
    run(
        find_tool("debootstrap") or "debootstrap",
        "--variant=minbase",
        f"--include={','.join(PACKAGES)}",
        SUITE,
        str(tree),
        source,
    )
    kernel_version = take_kernel(tree, work)
    install_module(
        tree,
        kernel_version,
        gpio_sim.cache_dir(cache_root(), kernel_version),
        lambda: gpio_sim.build_module(tree, kernel_version, source, SUITE, work),
        say,
    )
    configure(tree)
    say("mkfs.ext4 -d: the tree as a disk")
    raw = work / "disk.raw"
    run(
        find_tool("mkfs.ext4") or "mkfs.ext4",
        "-q",
        "-F",
        "-L",
        "root",
        "-d",
        str(tree),
        str(raw),
        DISK_SIZE,
    )
    run("qemu-img", "convert", "-O", "qcow2", str(raw), str(work / "disk.qcow2"))
    raw.unlink()
    shutil.rmtree(tree)
    return kernel_version


def configure(tree: Path) -> None:
    """The tree made into the test machine: the files above, the agent, the units."""
    for name, text in FILES.items():
        path = tree / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for source, guest in ((AGENT, GUEST_AGENT), (CHIPS, GUEST_CHIPS)):
        target = tree / guest.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target)
    for listing in (tree / "etc/apt/sources.list.d").glob("*"):
        listing.unlink()
    # The packages' files, kept by debootstrap: a third of the tree, of no use in the guest.
    for deb in (tree / "var/cache/apt/archives").glob("*.deb"):
        deb.unlink()
    # Raspberry Pi OS's group for the GPIO chips (the udev rule above gives them to it).
    run("chroot", str(tree), "groupadd", "--system", "gpio")
    systemctl = find_tool("systemctl") or "systemctl"
    run(systemctl, f"--root={tree}", "enable", *ENABLED)
    run(systemctl, f"--root={tree}", "mask", *MASKED)
    run("chroot", str(tree), "update-initramfs", "-u", "-k", "all")


def take_kernel(tree: Path, work: Path) -> str:
    """The stock kernel and its initramfs, copied out beside the disk."""
    kernels = sorted((tree / "boot").glob("vmlinuz-*"))
    if len(kernels) != 1:
        raise RuntimeError(f"expected one kernel in the image, found {kernels}")
    version = kernels[0].name.removeprefix("vmlinuz-")
    shutil.copy(kernels[0], work / "vmlinuz")
    shutil.copy(tree / "boot" / f"initrd.img-{version}", work / "initrd.img")
    return version


def main() -> int:
    was_cached = cached() is not None
    reason = None if was_cached else cannot_build()
    if reason:
        print(f"cannot build the image: {reason}", file=sys.stderr)
        return 1
    image = ensure_image()
    print(f"image: {image.directory}")
    print(f"image build: {image.info['build_seconds']:.0f} s (kernel {image.info['kernel']})")
    print("this run found it cached" if was_cached else "this run built it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
