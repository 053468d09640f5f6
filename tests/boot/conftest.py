"""The booted tests: the table installed as an operator installs it, on a Debian machine that
boots under QEMU with systemd as PID 1 (tests/boot/image.py, tests/boot/machine.py).

They run only when named (`pytest tests/boot`): `./dev test` runs them once after the suite,
since each starts a machine and the suite runs on several Pythons. The table is installed
once a session in a fresh machine, which is then saved; each test gets a machine of its own
on a copy-on-write overlay, restored from that save in seconds, and boots it where the test
is about booting (a power cut, then the power back).
FLASHTABLE_BOOT_KEEP=1 keeps the session's directory (the consoles, the disks) afterwards.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.controller.mqtt.broker import Broker

from .dealing import Firmware
from .guest_table import BROKER_PORT, SHARE_TAG, TABLE, Share, install_table, make_share
from .image import Image, cached, cannot_build, ensure_image, find_tool
from .machine import Machine
from .watch import TableWatch

HERE = Path(__file__).resolve().parent


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Collected only when the command line names this directory or something in it."""
    for arg in config.args:
        named = Path(arg.split("::")[0]).resolve()
        if named == HERE or HERE in named.parents:
            return None
    return True


FIGURES: list[str] = []


@pytest.fixture
def figure():
    """Note a measured figure; the session's figures are printed at its end."""
    return FIGURES.append


def pytest_terminal_summary(terminalreporter) -> None:
    if FIGURES:
        terminalreporter.section("booted figures")
        for line in FIGURES:
            terminalreporter.write_line(line)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failed test's report ends with its machine's journal of the table, while the
    machine still runs: what the table did is what a failure is read against."""
    report = yield
    machine = getattr(item, "funcargs", {}).get("machine")
    if report.when == "call" and report.failed and isinstance(machine, Machine):
        try:
            journal = machine.journal(lines=80)
        except Exception as err:  # the machine itself failed: the report says that already
            journal = f"(no journal: {err})"
        report.sections.append(("the table's journal", journal))
    return report


def say(config: pytest.Config, text: str) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"booted tests: {text}")


@pytest.fixture(scope="session")
def image(pytestconfig) -> Image:
    missing = [tool for tool in ("qemu-system-x86_64", "qemu-img") if not find_tool(tool)]
    if missing:
        pytest.skip(f"QEMU is not installed ({', '.join(missing)}): ./dev test installs it as root")
    found = cached()
    if found is not None:
        return found
    reason = cannot_build()
    if reason:
        pytest.skip(reason)
    return ensure_image(lambda text: say(pytestconfig, text))


@pytest.fixture(scope="session")
def workdir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="flashtable-boot-"))
    yield path
    if not os.environ.get("FLASHTABLE_BOOT_KEEP"):
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def share(workdir) -> Share:
    return make_share(workdir / "share")


@pytest.fixture(scope="session")
def broker(workdir) -> Iterator[Broker]:
    directory = workdir / "broker"
    directory.mkdir()
    running = Broker(directory, [TABLE])
    running.start()
    yield running
    running.stop()


def boot_machine(
    image: Image, backing: Path, workdir: Path, name: str, broker: Broker, share: Share, **options
) -> Machine:
    disk = Machine.overlay(backing, workdir / f"{name}.qcow2")
    return Machine(
        image,
        disk,
        workdir / f"{name}.console",
        forwards={BROKER_PORT: broker.port},
        shares={SHARE_TAG: share.directory},
        **options,
    )


@dataclass
class Ready:
    """A fresh machine with the table installed by systemd/install.sh and put on the broker
    as an operator does (docs/deploy.md), what that showed, and the machine saved after its
    table was stopped: a test restores it in seconds where a boot takes most of a minute
    under emulation, and boots it when the test is about booting."""

    disk: Path
    state: Path
    output: str  # what install.sh printed
    install_seconds: float
    boot_seconds: float  # the fresh machine's boot: QEMU started to the agent's first answer
    journal: str
    facts: dict[str, str]


# Shell commands whose output the installed table is checked on (test_boot.py).
FACTS = {
    "user": "ps -o user= -p $(systemctl show -P MainPID flashtable)",
    "restarts": "systemctl show -P NRestarts flashtable",
    "files": "ls -l /proc/$(systemctl show -P MainPID flashtable)/fd/",
    "modes": "stat -c %a /var/lib/flashtable /etc/flashtable",
    "security": "systemd-analyze security --no-pager flashtable | tail -n 1",
    "unit": "systemctl cat flashtable",
    "gpio config": "grep -c '^\\[gpio\\]' /etc/flashtable/flashtable.toml || true",
}


@pytest.fixture(scope="session")
def ready(image, workdir, share, broker, pytestconfig) -> Ready:
    machine = boot_machine(image, image.disk, workdir, "install", broker, share)
    say(pytestconfig, f"installing the table in a fresh machine ({machine.disk})")
    try:
        with TableWatch(broker, TABLE) as watch:
            to_shell = machine.boot()
            output, took = install_table(machine, share)
            # Restarted on the host's broker, through the drop-in's allowed address.
            watch.online()
        facts = {name: machine.run(command).out.strip() for name, command in FACTS.items()}
        journal = machine.journal(lines=200)
        # Stopped: a table connected to the broker holds a connection QEMU cannot save.
        machine.run("systemctl stop flashtable && sync")
        state = workdir / "ready.state"
        machine.save(state)
    finally:
        machine.stop()
    return Ready(machine.disk, state, output, took, to_shell, journal, facts)


@pytest.fixture
def machine(image, ready, workdir, share, broker, request) -> Iterator[Machine]:
    """A machine of the test's own, restored from `ready` on an overlay of its disk: booted,
    the table installed and stopped (`systemctl start flashtable` starts it)."""
    name = request.node.name.replace("/", "_")
    restored = boot_machine(image, ready.disk, workdir, name, broker, share)
    restored.restore(ready.state)
    yield restored
    restored.stop()


@pytest.fixture
def firmware() -> Iterator[Firmware]:
    running = Firmware(cards=500)
    yield running
    running.stop()


@pytest.fixture
def launcher_machine(image, ready, workdir, share, broker, firmware, request) -> Iterator[Machine]:
    """As `machine`, its second serial port (/dev/ttyS1) wired to `firmware`'s."""
    name = request.node.name.replace("/", "_")
    restored = boot_machine(
        image, ready.disk, workdir, name, broker, share, second_serial=firmware.port
    )
    restored.restore(ready.state)
    yield restored
    restored.stop()
