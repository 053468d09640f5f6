"""A Pi installs the daemon without the simulated table's view (Textual and Rich, the `sim`
extra): everything but the interactive view runs without them, and the view says how to add
them.

Each command runs in a fresh interpreter where importing those packages fails, as on a Pi.
"""

import re
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VIEW_PACKAGES = ("textual", "rich")

# Runs `flashtable ARGS...` in an interpreter that behaves as if the view's packages were
# not installed: importing any of them raises ModuleNotFoundError, as it would on a Pi.
WITHOUT_VIEW = f"""
import sys
from importlib.abc import MetaPathFinder

class NotInstalled(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {VIEW_PACKAGES!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
from controller.commands.cli import main
sys.exit(main(sys.argv[1:]))
"""


def flashtable(*args: str) -> list[str]:
    return [sys.executable, "-c", WITHOUT_VIEW, *args]


def test_importing_the_daemon_and_the_cli_imports_no_view_package():
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, controller.commands.cli, controller.shell.daemon, controller.tui.script\n"
            "print(sorted({name.partition('.')[0] for name in sys.modules}"
            f" & set({VIEW_PACKAGES!r})))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert imported.stdout.strip() == "[]"


def test_check_config_settings_and_the_headless_player_run_without_the_view(tmp_path):
    checked = subprocess.run(
        flashtable("check-config"), capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert checked.returncode == 0, checked.stderr
    assert re.search(r": ok, table 'table1', \d seats", checked.stdout), checked.stdout

    state = ["--state-dir", str(tmp_path)]
    changed = subprocess.run(
        flashtable("settings", "set", "turn_timer=8", *state),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert changed.returncode == 0, changed.stderr
    assert "* turn_timer         8 s" in changed.stdout

    script = ROOT / "docs" / "examples" / "full-round.txt"
    played = subprocess.run(
        flashtable("sim", "--headless", "--script", str(script), "--seed", "1"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    assert "round_over" in played.stdout


def test_run_sim_runs_the_daemon_without_the_view(tmp_path):
    process = subprocess.Popen(
        flashtable("run", "--sim", "--seed", "1", "--state-dir", str(tmp_path)),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        first = process.stdout.readline()
        assert re.search(r"table table1: \d seats, mock pins, seed 1", first), first
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, out
    assert "stopped" in out


def test_the_view_says_in_one_line_how_to_add_its_packages():
    started = subprocess.run(
        flashtable("sim", "--seed", "1"), capture_output=True, text=True, timeout=60
    )
    assert started.returncode == 1
    assert started.stdout == ""
    [line] = started.stderr.splitlines()
    assert line.startswith("flashtable: the interactive view needs Textual")
    assert "pip install 'flashtable[sim]'" in line
