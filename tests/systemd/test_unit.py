"""The service unit passes systemd's own checks, and the daemon speaks sd_notify to it."""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).parents[2] / "systemd" / "flashtable.service"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def installed_unit(tmp_path: Path) -> Path:
    """The unit as installed here: ExecStart names this environment's flashtable."""
    script = Path(sys.executable).parent / "flashtable"
    text = UNIT.read_text(encoding="utf-8")
    assert "ExecStart=/opt/flashtable/current/bin/flashtable run\n" in text
    unit = tmp_path / "flashtable.service"
    unit.write_text(text.replace("/opt/flashtable/current/bin/flashtable", str(script)))
    return unit


@needs_analyze
def test_systemd_analyze_verify_finds_nothing_wrong(tmp_path):
    result = subprocess.run(
        [ANALYZE, "verify", str(installed_unit(tmp_path))], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "flashtable.service" not in result.stderr


def test_the_outputs_are_driven_off_after_any_end_of_the_daemon():
    text = UNIT.read_text(encoding="utf-8")
    assert "ExecStopPost=/opt/flashtable/current/bin/flashtable outputs-off\n" in text


def test_the_open_files_limit_leaves_the_web_page_its_whole_bound(monkeypatch):
    from controller.web import connections

    [limit] = re.findall(r"^LimitNOFILE=(\d+)$", UNIT.read_text(encoding="utf-8"), re.M)
    monkeypatch.setattr(connections.resource, "getrlimit", lambda _: (int(limit), int(limit)))
    assert connections.connection_bound() == connections.MAX_CONNECTIONS


@needs_analyze
def test_the_sandbox_is_tight(tmp_path):
    result = subprocess.run(
        [ANALYZE, "security", "--offline=true", str(installed_unit(tmp_path))],
        capture_output=True,
        text=True,
    )
    level = re.search(r"Overall exposure level for flashtable.service: ([\d.]+)", result.stdout)
    assert level is not None, result.stdout + result.stderr
    assert float(level.group(1)) <= 2.0  # systemd calls up to 3.9 "OK"


def test_the_daemon_tells_systemd_it_is_ready_alive_and_stopping(tmp_path):
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        sock.settimeout(30)
        env = {**os.environ, "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "200000"}
        process = subprocess.Popen(
            [sys.executable, "-m", "controller", "run", "--sim", "--state-dir", str(tmp_path)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            messages = [sock.recv(100).decode() for _ in range(4)]
            assert messages[0] == "READY=1"
            assert set(messages[1:]) == {"WATCHDOG=1"}  # every 0.1 s while the loop runs
            process.send_signal(signal.SIGTERM)
            while (message := sock.recv(100).decode()) == "WATCHDOG=1":
                pass
            assert message == "STOPPING=1"
            assert process.wait(timeout=30) == 0
        finally:
            process.kill()


def _web_drop_in(text: str, heading: str) -> str:
    section = text.split(heading, 1)[1]
    return section.split("```ini\n", 1)[1].split("```", 1)[0]


@needs_analyze
def test_the_web_pages_drop_in_lets_the_home_network_in_and_nothing_more(tmp_path):
    root = UNIT.parents[1]
    drop_in = _web_drop_in((root / "systemd" / "README.md").read_text(), "### The web page")
    assert drop_in == "[Service]\nIPAddressAllow=192.168.1.0/24\n"
    assert drop_in == _web_drop_in((root / "docs" / "web.md").read_text(), "## Setting it up")
    text = UNIT.read_text(encoding="utf-8")
    assert "IPAddressDeny=any\nIPAddressAllow=localhost\n" in text  # without it: this machine
    unit = installed_unit(tmp_path)
    (tmp_path / "flashtable.service.d").mkdir()
    (tmp_path / "flashtable.service.d" / "web.conf").write_text(drop_in)
    result = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "web.conf" not in result.stderr  # systemd read it, and took every line
