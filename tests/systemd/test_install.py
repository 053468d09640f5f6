"""systemd/install.sh, run for real against a temporary root: the shadow tools make the
user, `systemctl --root` enables the unit, pip installs wheels into a virtual environment,
and the daemon starts as the service's user until it reports READY. Only apt-get and a
running systemd are stood in for (tests/systemd/stub_systemctl.py)."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from .wheelhouse import CHECKOUT, build_table_wheel, python_markers, repack, runtime_distributions

INSTALL = CHECKOUT / "systemd" / "install.sh"
STUB = Path(__file__).with_name("stub_systemctl.py")
# The service's user must be able to run the interpreter: not one under /root.
SYSTEM_PYTHON = Path("/usr/bin/python3")

pytestmark = [
    pytest.mark.long,  # its tests take long in all: the file starts first (tests/conftest.py)
    pytest.mark.skipif(os.geteuid() != 0, reason="the installer runs as root"),
    pytest.mark.skipif(
        not SYSTEM_PYTHON.exists() or not all(map(shutil.which, ("useradd", "systemctl"))),
        reason="needs Debian's python3, the shadow tools and systemctl",
    ),
]

REJECTS_CONFIG = {
    "controller/commands/check_config.py": (
        "    config = load(path)\n    pinmap",
        "    from ..errors import ConfigError\n\n"
        '    raise ConfigError("this version rejects every config")\n    pinmap',
    )
}
NEVER_READY = {
    "controller/commands/run.py": (
        "    loop = asyncio.get_running_loop()\n",
        '    raise RuntimeError("this version dies before READY")\n',
    )
}


@pytest.fixture(scope="session")
def wheels(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("wheels")
    markers = python_markers(SYSTEM_PYTHON)
    suite = f"{sys.version_info[0]}.{sys.version_info[1]}"
    if markers["python_version"] != suite:
        # The same run on every suite's Python would repeat it: the installed table, and the
        # installer's pip, run on the system's Python whichever one runs pytest.
        pytest.skip(
            f"the installer runs the system's Python {markers['python_version']}, not this "
            f"suite's {suite}: the suite on {markers['python_version']} runs these"
        )
    for dist in runtime_distributions(markers=markers):
        repack(dist, out)
    return {
        "1.0.0": build_table_wheel(out, "1.0.0", {}),
        "2.0.0": build_table_wheel(out, "2.0.0", REJECTS_CONFIG),
        "3.0.0": build_table_wheel(out, "3.0.0", NEVER_READY),
        "4.0.0": build_table_wheel(out, "4.0.0", {}),
    }


@dataclass
class Table:
    """A temporary root with what a fresh Raspberry Pi OS has where the installer writes."""

    base: Path
    wheels: dict[str, Path]

    @property
    def root(self) -> Path:
        return self.base / "root"

    def path(self, name: str) -> Path:
        return self.root / name.lstrip("/")

    def run(
        self,
        *args: str,
        version: str = "1.0.0",
        kernel: str | None = None,
        userland: str | None = None,
    ) -> subprocess.CompletedProcess:
        """The installer run; with `kernel` and `userland`, on a system whose `uname -m` and
        `dpkg --print-architecture` say those."""
        bin_dir = self.base / "bin"
        env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
        if kernel is not None and userland is not None:
            arch_dir = self.base / f"{kernel}-{userland}"
            arch_dir.mkdir(exist_ok=True)
            for command, says in (("uname", kernel), ("dpkg", userland)):
                (arch_dir / command).write_text(f"#!/bin/sh\necho {says}\n")
                (arch_dir / command).chmod(0o755)
            env["PATH"] = f"{arch_dir}:{env['PATH']}"
        env.update(
            FLASHTABLE_ROOT=str(self.root),
            FLASHTABLE_FROM=str(self.wheels[version]),
            PYTHON=str(SYSTEM_PYTHON),
            APT_GET=str(bin_dir / "apt-get"),
            SYSTEMCTL=str(bin_dir / "systemctl"),
            STUB_LOG=str(self.base / "systemctl.log"),
            PIP_CONFIG_FILE=os.devnull,
            PIP_NO_INDEX="1",
            PIP_FIND_LINKS=str(self.wheels[version].parent),
        )
        return subprocess.run(
            ["bash", str(INSTALL), *args], env=env, capture_output=True, text=True, timeout=600
        )

    def flashtable(self, *args: str) -> subprocess.CompletedProcess:
        state = ["--state-dir", str(self.path("/var/lib/flashtable"))]
        command = [str(self.path("/usr/local/bin/flashtable")), *args, *state]
        return subprocess.run(command, capture_output=True, text=True, check=True)

    def systemctl_calls(self) -> list[list[str]]:
        log = self.base / "systemctl.log"
        return [json.loads(line) for line in log.read_text().splitlines()]

    def systemctl(self, *args: str) -> int:
        env = {
            **os.environ,
            "FLASHTABLE_ROOT": str(self.root),
            "STUB_LOG": str(self.base / "systemctl.log"),
        }
        return subprocess.run(
            [self.base / "bin/systemctl", *args, "flashtable"], env=env
        ).returncode

    def active(self) -> bool:
        return (self.base / "active").exists()

    def version(self) -> str:
        current = self.path("/opt/flashtable/current/bin/flashtable")
        return subprocess.run([current, "--version"], capture_output=True, text=True).stdout

    def ids(self) -> tuple[int, int]:
        for line in self.path("/etc/passwd").read_text().splitlines():
            name, _, uid, gid, *_ = line.split(":")
            if name == "flashtable":
                return int(uid), int(gid)
        raise AssertionError("no user flashtable")

    def tree(self) -> dict[str, tuple]:
        """Every path under the root: its type, mode, owner, and content or link target."""
        found = {}
        for path in sorted(self.root.rglob("*")):
            if "__pycache__" in path.parts:
                continue
            info = path.lstat()
            if path.is_symlink():
                what = ("link", os.readlink(path))
            elif path.is_dir():
                what = ("dir",)
            else:
                what = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
            found[str(path.relative_to(self.root))] = (info.st_mode, info.st_uid, info.st_gid, what)
        return found


@pytest.fixture
def table(wheels):
    base = Path(tempfile.mkdtemp(prefix="flashtable-install-"))
    base.chmod(0o755)  # the service's user must reach its files below
    root = base / "root"
    for name in ("etc/systemd/system", "etc/modules-load.d", "usr/local/bin", "opt", "var/lib"):
        (root / name).mkdir(parents=True)
    accounts = {
        "passwd": "root:x:0:0:root:/root:/bin/bash\n",
        "group": "root:x:0:\n",
        "shadow": "root:*:19000:0:99999:7:::\n",
        "gshadow": "root:*::\n",
    }
    for name, text in accounts.items():
        for suffix in ("", "-"):  # the shadow tools keep a backup beside each file
            (root / "etc" / (name + suffix)).write_text(text)
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text("[all]\n#dtparam=i2c_arm=on\n")
    bin_dir = base / "bin"
    bin_dir.mkdir()
    (bin_dir / "apt-get").write_text(f'#!/bin/sh\necho "$@" >> {base}/apt-get.log\n')
    (bin_dir / "systemctl").write_text(f'#!/bin/sh\nexec {sys.executable} {STUB} "$@"\n')
    for stub in bin_dir.iterdir():
        stub.chmod(0o755)
    yield Table(base, wheels)
    shutil.rmtree(base)


def installed(table: Table) -> None:
    result = table.run()
    assert result.returncode == 0, result.stderr
    assert table.active()


def test_install_starts_a_table_as_its_own_user_and_a_second_run_changes_nothing(table):
    fresh = table.tree()
    result = table.run()
    assert result.returncode == 0, result.stderr
    assert "created the system user flashtable" in result.stdout
    assert "the table is running" in result.stdout

    uid, gid = table.ids()
    assert uid != 0 and gid != 0
    passwd = table.path("/etc/passwd").read_text()
    assert (
        f"flashtable:x:{uid}:{gid}:Flash Table daemon:/var/lib/flashtable:/usr/sbin/nologin"
        in passwd
    )
    assert "gpio:" in table.path("/etc/group").read_text()
    assert "i2c:" in table.path("/etc/group").read_text()

    unit = table.path("/etc/systemd/system/flashtable.service").read_text()
    assert "User=flashtable\n" in unit
    assert "ExecStart=/opt/flashtable/current/bin/flashtable run\n" in unit
    assert table.path("/etc/systemd/system/multi-user.target.wants/flashtable.service").is_symlink()
    assert table.version() == "flashtable 1.0.0\n"
    assert os.readlink(table.path("/opt/flashtable/current")) == "releases/1"

    config = table.path("/etc/flashtable/flashtable.toml")
    assert config.read_text() == (CHECKOUT / "systemd/flashtable.toml").read_text()
    info = config.stat()
    assert (info.st_uid, info.st_gid, info.st_mode & 0o777) == (0, gid, 0o640)
    state = table.path("/var/lib/flashtable").stat()
    assert (state.st_uid, state.st_gid) == (uid, gid)

    boot = table.path("/boot/firmware/config.txt").read_text()
    assert "\ndtparam=i2c_arm=on\n" in boot
    assert table.path("/etc/modules-load.d/flashtable.conf").read_text() == "i2c-dev\n"
    apt = (table.base / "apt-get.log").read_text()
    assert "install -y -qq python3-venv python3-pip i2c-tools" in apt
    assert ["enable", "--quiet", "flashtable"] in table.systemctl_calls()
    assert table.active()  # the daemon, as flashtable, sent READY=1

    before = table.tree()
    result = table.run()
    assert result.returncode == 0, result.stderr
    assert "flashtable 1.0.0 is installed already" in result.stdout
    assert table.tree() == before
    assert table.systemctl_calls().count(["start", "flashtable"]) == 2  # the second: no-op

    # Uninstalled, only the operator's config and the table's state are left.
    table.flashtable("settings", "set", "turn_timer=9")
    config = table.path("/etc/flashtable/flashtable.toml")
    config.write_text(config.read_text() + "# the operator's own line\n")

    result = table.run("--uninstall")
    assert result.returncode == 0, result.stderr
    kept = "kept the config in {0}/etc/flashtable and the table's state in {0}/var/lib/flashtable"
    assert kept.format(table.root) in result.stdout

    left = table.tree()
    backups = {name for name in fresh if name.endswith("-")}
    new = sorted(set(left) - set(fresh))
    assert all(name.startswith(("etc/flashtable", "var/lib/flashtable")) for name in new), new
    assert "var/lib/flashtable/settings.json" in new
    assert config.read_text().endswith("# the operator's own line\n")
    changed = [n for n in fresh if n not in backups and fresh[n] != left.get(n)]
    assert changed == []  # passwd, group, the boot config: as before the install
    assert not table.active()


def test_on_a_32_bit_pi_the_installer_adds_what_pip_builds_the_pins_backend_with(table):
    """PyPI has gpiod's wheels for 64-bit Arm and x86 alone: on a 32-bit Raspberry Pi OS
    (a Pi Zero 2 W's, a Zero W's; on a Pi 4 or 5 it boots a 64-bit kernel, which `uname -m`
    reports) pip builds it from its source, with a C compiler and Python's headers, which the
    installer installs there first (docs/deploy.md)."""
    for kernel, userland, extra in (
        ("armv7l", "armhf", True),
        ("armv6l", "armhf", True),
        ("aarch64", "armhf", True),  # a 32-bit Raspberry Pi OS on a Pi 4 or 5
        ("aarch64", "arm64", False),
        ("x86_64", "amd64", False),
    ):
        log = table.base / "apt-get.log"
        log.unlink(missing_ok=True)
        result = table.run(kernel=kernel, userland=userland)
        assert result.returncode == 0, result.stderr
        installs = [line for line in log.read_text().splitlines() if line.startswith("install ")]
        assert installs == [
            "install -y -qq python3-venv python3-pip i2c-tools"
            + (" python3-dev gcc" if extra else "")
        ], (kernel, userland, installs)


def test_upgrade_keeps_settings_and_rolls_back_a_version_that_fails(table):
    installed(table)
    table.flashtable("settings", "set", "turn_timer=9")  # as root
    settings = table.path("/var/lib/flashtable/settings.json")
    releases = table.path("/opt/flashtable/releases")

    result = table.run("--upgrade", version="2.0.0")
    assert result.returncode == 1
    assert "flashtable: this version rejects every config" in result.stderr
    assert "the new version rejects" in result.stderr and "nothing changed" in result.stderr
    assert table.version() == "flashtable 1.0.0\n"
    assert sorted(p.name for p in releases.iterdir()) == ["1"]

    result = table.run("--upgrade", version="3.0.0")
    assert result.returncode == 1
    assert "did not reach READY; rolled back to flashtable 1.0.0" in result.stderr
    assert table.version() == "flashtable 1.0.0\n"
    assert sorted(p.name for p in releases.iterdir()) == ["1"]
    assert table.active()  # the old version is running again

    result = table.run("--upgrade", version="4.0.0")
    assert result.returncode == 0, result.stderr
    assert "upgraded flashtable 1.0.0 to 4.0.0; settings and state kept" in result.stdout
    assert table.version() == "flashtable 4.0.0\n"
    assert os.readlink(table.path("/opt/flashtable/previous")) == "releases/1"
    assert json.loads(settings.read_text()) == {"turn_timer": 9}
    state = table.path("/var/lib/flashtable")
    assert {(p.stat().st_uid, p.stat().st_gid) for p in state.rglob("*")} == {table.ids()}
    assert "* turn_timer         9 s" in table.flashtable("settings").stdout
    assert table.systemctl_calls().count(["restart", "flashtable"]) == 3
    assert table.active()

    # Settings changed as root while it runs: the daemon, as its user, reads them on restart.
    table.flashtable("settings", "set", "turn_timer=10")
    assert table.systemctl("restart") == 0

    result = table.run("--upgrade", version="4.0.0")  # the same version again
    assert result.returncode == 0, result.stderr
    assert "reinstalled flashtable 4.0.0 (the same version); settings and state kept" in (
        result.stdout
    )
    assert "upgraded" not in result.stdout


def test_usage_errors_exit_2_and_an_upgrade_needs_an_install(table):
    for args in (["--bogus"], ["--upgrade", "--uninstall"]):
        result = table.run(*args)
        assert (result.returncode, result.stderr) == (
            2,
            "usage: install.sh [--upgrade | --uninstall]\n",
        )
    result = table.run("--upgrade")
    assert result.returncode == 1
    assert result.stderr == "install.sh: not installed yet: run install.sh without --upgrade\n"


def test_a_run_again_repairs_what_a_power_cut_left_empty(table):
    # Written in place, a file the power took before it reached the disk is left empty: a
    # unit of 0 bytes is masked to systemd, and the table would stay dark.
    installed(table)
    unit = table.path("/etc/systemd/system/flashtable.service")
    config = table.path("/etc/flashtable/flashtable.toml")
    whole = unit.read_text()
    unit.write_text("")
    config.write_text("")
    table.path("/usr/local/bin/flashtable").unlink()
    result = table.run()
    assert result.returncode == 0, result.stderr
    assert "repaired" in result.stdout
    assert unit.read_text() == whole
    assert config.read_text() == (CHECKOUT / "systemd/flashtable.toml").read_text()
    assert table.flashtable("settings").returncode == 0
    assert table.active()


def test_uninstall_names_the_operators_drop_ins_it_keeps(table):
    installed(table)
    drop_in = table.path("/etc/systemd/system/flashtable.service.d/broker.conf")
    drop_in.parent.mkdir()
    drop_in.write_text("[Service]\nIPAddressAllow=192.168.1.20\n")
    result = table.run("--uninstall")
    assert result.returncode == 0, result.stderr
    assert f"your drop-ins in {drop_in.parent}" in result.stdout
    assert drop_in.exists()
