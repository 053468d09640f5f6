"""The table on a booted Debian machine, installed by systemd/install.sh, run by systemd as on
the Pi: it is READY at boot, comes back after a kill or a hang, drives its outputs off after
any end, and keeps its settings and the cards it owes through a power cut."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import Installed, Ready
from .guest_table import TABLE, install_command, mount_share
from .machine import Machine
from .watch import TableWatch

# A cold first run builds the image and installs the table in the first test's set-up.
pytestmark = pytest.mark.timeout(1800)

ACTIVE = "systemctl is-active -q flashtable"
MAIN_PID = "$(systemctl show -P MainPID flashtable)"
# What outputs-off says on the mock pins this machine has for the Pi's: nothing keeps a level
# when the daemon's process is gone. On a Pi it names the outputs it drove low.
OUTPUTS_OFF = "outputs off: the pins are simulated (mock), nothing to drive"


def restarts(machine: Machine) -> int:
    return int(machine.run("systemctl show -P NRestarts flashtable").out)


def restarted(before: int) -> str:
    """The shell condition: systemd has restarted the table once more than `before` times,
    and the new one is READY."""
    return f'[ "$(systemctl show -P NRestarts flashtable)" -gt {before} ] && {ACTIVE}'


def start_table(machine: Machine) -> None:
    """Start returns once the daemon has told systemd READY (Type=notify)."""
    machine.run("systemctl start flashtable")


def assert_outputs_driven_off(journal: str) -> None:
    """ExecStopPost ran `flashtable outputs-off` after the end in `journal`, and it worked."""
    assert OUTPUTS_OFF in journal, journal
    assert "Control process exited" not in journal, journal


def test_the_installer_starts_the_table_and_it_is_ready_at_boot(
    installed: Installed, ready: Ready, figure
):
    assert "created the system user flashtable" in installed.output
    assert "the table is running" in installed.output, installed.output
    # What the installed machine's next boot showed (the `ready` fixture booted it, and saw
    # the table come online on the host's broker).
    assert f"table {TABLE}: 6 seats, mock pins" in ready.journal, ready.journal
    assert "Started flashtable.service" in ready.journal
    assert ready.facts["user"] == "flashtable"
    assert ready.facts["restarts"] == "0"
    # The LCD's bus is the stub chip's, opened through the sandbox's list of devices.
    assert "/dev/i2c-0" in ready.facts["files"]
    # The table's state stays the table's: systemd keeps the modes install.sh gave.
    assert ready.facts["modes"].split() == ["750", "750"]
    assert "already exists but the mode is different" not in ready.journal
    figure(
        f"install.sh in a fresh machine, wheels from the host: {installed.install_seconds:.0f} s"
    )
    figure(f"boot to shell: {ready.boot_seconds:.1f} s (QEMU started to the agent's answer)")
    figure(f"boot to READY: {ready.ready_seconds:.1f} s after the guest's kernel started")


def test_a_daemon_killed_mid_dispense_is_restarted_with_its_outputs_off_and_cards_owed(
    machine: Machine, broker, figure
):
    with TableWatch(broker, TABLE) as watch:
        start_table(machine)
        watch.online()
        # No launcher behind the mock pins: the motor runs until the jam time says jam. The
        # longest jam time keeps the kill inside the dispense.
        mark = watch.mark()
        watch.set_settings(jam_time=3000)
        watch.event("settings_changed", after=mark)
        before = restarts(machine)
        mark = watch.mark()
        watch.command(action="dispense", cards=4)
        assert watch.event("dispense", after=mark)["cards"] == 4
        cursor = machine.cursor()
        machine.run(f"kill -KILL {MAIN_PID}")
        mark = watch.mark()
        took = machine.wait_until(restarted(before))
        journal = machine.journal(after=cursor)
        assert "Main process exited, code=killed, status=9/KILL" in journal, journal
        # The new daemon owes what the kill left: the card on its way out when the kill came
        # counts as dealt (docs/state.md), so at most one fewer, and never one more.
        state = watch.wait_for("state", lambda m: "owed" in m.json, after=mark).json
        assert state["owed"] in (3, 4), state
    figure(f"SIGKILL to READY again: {took:.1f} s (RestartSec=2 included)")
    assert_outputs_driven_off(journal)


def test_a_hung_daemon_is_restarted_by_the_watchdog(machine: Machine, figure):
    start_table(machine)
    before = restarts(machine)
    cursor = machine.cursor()
    machine.run(f"kill -STOP {MAIN_PID}")
    took = machine.wait_until(restarted(before), timeout=180)
    journal = machine.journal(after=cursor)
    assert re.search(r"flashtable.service: Watchdog timeout \(limit 10s\)", journal), journal
    figure(f"hung (SIGSTOP) to READY again: {took:.1f} s (WatchdogSec=10, RestartSec=2)")
    assert_outputs_driven_off(journal)


def test_settings_changed_before_a_power_cut_are_there_after_it(machine: Machine, broker):
    with TableWatch(broker, TABLE) as watch:
        start_table(machine)
        watch.online()
        # From the shell, as docs/deploy.md shows, and from the broker: the daemon's own write.
        machine.run("flashtable settings set turn_timer=8 picker=fair")
        mark = watch.mark()
        machine.run("systemctl reload flashtable")
        changes = watch.event("settings_changed", after=mark)["changes"]
        assert changes == {"turn_timer": 8, "picker": "fair"}
        mark = watch.mark()
        watch.set_settings(volume="low")
        watch.event("settings_changed", after=mark)
        machine.power_cut()  # at once: nothing gets the time to reach the disk by luck

        mark = watch.mark()
        machine.boot()
        machine.wait_until(ACTIVE)
        kept = json.loads(machine.run("cat /var/lib/flashtable/settings.json").out)
        assert kept == {"turn_timer": 8, "picker": "fair", "volume": "low"}
        settings = watch.wait_for("settings", lambda m: True, after=mark).json
        assert (settings["turn_timer"], settings["picker"], settings["volume"]) == (
            8,
            "fair",
            "low",
        )


SERIAL_LAUNCHER = """
[launcher]
link = "serial"
port = "/dev/ttyS1"
"""


def test_a_power_cut_mid_dispense_on_the_serial_launcher_deals_no_card_more_than_asked(
    launcher_machine: Machine, firmware, broker
):
    machine = launcher_machine
    # The launcher on a controller (the firmware on the host) at the Pi's own UART. Synced:
    # the power cut below is for the table's files, not for an edit of the config in flight.
    config = "/etc/flashtable/flashtable.toml"
    machine.run(f"cat >> {config} && sync {config}", stdin=SERIAL_LAUNCHER.encode())
    with TableWatch(broker, TABLE) as watch:
        start_table(machine)
        watch.online()
        mark = watch.mark()
        watch.command(action="dispense", cards=6)
        # The first card is out: the power goes while the launcher deals (or, on a slow
        # host, the moment after).
        watch.event("card_out", after=mark)
        machine.power_cut()

        mark = watch.mark()
        machine.boot()
        machine.wait_until(ACTIVE)
        watch.wait_for(
            "state",
            lambda m: (m.json.get("owed"), m.json.get("launcher")) == (0, "idle"),
            after=mark,
        )
    # Counted by the launcher itself: a power cut costs a dispense at most the card that was
    # on its way (docs/state.md), and never deals one twice.
    assert firmware.stop() in (5, 6)


def test_an_upgrade_that_never_reaches_ready_is_rolled_back(machine: Machine, share):
    mount_share(machine)
    start_table(machine)
    done = machine.run(install_command(share.never_ready_wheel, "--upgrade"), check=False)
    assert done.rc == 1, done.out
    assert (
        f"the new version did not reach READY; rolled back to flashtable {share.version}"
        in done.out
    )
    assert machine.run("flashtable --version").out == f"flashtable {share.version}\n"
    machine.run(ACTIVE)
    assert "this version dies before READY" in machine.journal(lines=200)
    # Only the release that runs is left.
    assert machine.run("ls /opt/flashtable/releases").out.split() == ["1"]


def test_uninstall_removes_the_table_and_keeps_its_config_and_state(machine: Machine):
    start_table(machine)
    done = machine.run("cd /root/flashtable && systemd/install.sh --uninstall 2>&1")
    assert "removed Flash Table" in done.out
    gone = [
        "/opt/flashtable",
        "/usr/local/bin/flashtable",
        "/etc/systemd/system/flashtable.service",
    ]
    for path in gone:
        assert machine.run(f"test -e {path}", check=False).rc == 1, path
    assert machine.run("id flashtable", check=False).rc != 0
    assert machine.run("systemctl is-active flashtable", check=False).out.strip() == "inactive"
    assert machine.run("pgrep -f '^/opt/flashtable/'", check=False).rc == 1  # nothing runs
    machine.run("test -s /etc/flashtable/flashtable.toml && test -d /var/lib/flashtable")
