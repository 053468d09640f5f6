"""`flashtable sim` in a real terminal: tmux runs it at 80x24, sends keys, reads the pane."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TMUX = shutil.which("tmux")
# A tmux server of this process's own (its socket named after it), apart from the user's and
# from test runs in parallel; it goes with the module's last test, and its socket with it.
SOCKET = f"flashtable-test-{os.getpid()}"
SERVER = ["-L", SOCKET, "-f", os.devnull]

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


@pytest.fixture(scope="module", autouse=True)
def tmux_server() -> Iterator[None]:
    yield
    if TMUX is not None:
        subprocess.run([TMUX, *SERVER, "kill-server"], capture_output=True)
        sockets = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
        (sockets / SOCKET).unlink(missing_ok=True)


def tmux(*args: str) -> str:
    assert TMUX is not None
    result = subprocess.run([TMUX, *SERVER, *args], capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, result.stderr
    return result.stdout


def wait_for(session: str, *patterns: str, timeout: float = 20.0) -> str:
    """The pane's text once every one of `patterns` shows in it; fails with the last pane seen.

    The view draws in frames, so two things that change together may show a frame apart:
    wait for all of them rather than assert on the second after waiting for the first.
    """
    deadline = time.monotonic() + timeout
    pane = ""
    while time.monotonic() < deadline:
        pane = tmux("capture-pane", "-p", "-t", session)
        if all(re.search(pattern, pane) for pattern in patterns):
            return pane
        time.sleep(0.1)
    pytest.fail(f"{patterns!r} never all showed; the pane was:\n{pane}")


@contextmanager
def view(*options: str, after: str = "") -> Iterator[str]:
    """`flashtable sim OPTIONS` in a fresh 80x24 tmux session, whose name it yields; the
    shell runs `after` in the pane once the view has ended. The session goes at the end."""
    session = f"flashtable-test-{uuid.uuid4().hex[:8]}"
    env = f"PYTHONPATH={ROOT} TERM=xterm-256color"
    command = f"cd {ROOT} && env {env} {sys.executable} -m controller sim {' '.join(options)}"
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command + after)
    try:
        yield session
    finally:
        if session_alive(session):
            subprocess.run([TMUX, *SERVER, "kill-session", "-t", session], capture_output=True)


def test_sim_runs_in_a_real_terminal_and_shows_the_lcd_and_a_lit_seat(tmp_path):
    # A state directory of its own: the sim resumes the game its last run left.
    with view("--seed", "1", "--state-dir", str(tmp_path)) as session:
        wait_for(session, r"Press to join")
        for key in ("1", "3", "5"):
            tmux("send-keys", "-t", session, key)
        wait_for(session, r"Seats 1 3 5")
        tmux("send-keys", "-t", session, "p")
        pane = wait_for(
            session, r"Table   timer 6s", r"Seat (\d) turn +\ds", r"round_started +seats=\[1,3,5\]"
        )
        seat = re.search(r"Seat (\d) turn", pane).group(1)
        # The lit seat pulses: its number between < and > (or ! ! in its last 2 seconds).
        pane = wait_for(session, rf"[<!]{seat}[>!]")
        # The launcher panel reads the launcher model: a full hopper, the motor at rest.
        assert re.search(r"hopper ▮{12} +54", pane) and "motor ■ stopped" in pane, pane
        tmux("send-keys", "-t", session, "e")
        # The log draws its new line a frame after the panel on a busy machine: wait for both.
        pane = wait_for(session, r"hopper ▯{12} +0", r"hopper emptied \(54 cards taken out\)")
        lines = pane.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        tmux("send-keys", "-t", session, "q")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and session_alive(session):
            time.sleep(0.1)
        assert not session_alive(session), "q did not quit the view"


def session_alive(session: str) -> bool:
    assert TMUX is not None
    result = subprocess.run([TMUX, *SERVER, "has-session", "-t", session], capture_output=True)
    return result.returncode == 0


def test_sim_with_the_firmware_in_the_loop_stops_cleanly_on_sigint(tmp_path):
    # The pane stays open after the view, to show what it left on the terminal.
    ended = "; echo view-ended-with-$?; sleep 30"
    options = ("--launcher", "serial", "--seed", "1", "--state-dir", str(tmp_path))
    with view(*options, after=ended) as session:
        wait_for(session, r"Press to join")
        for key in ("1", "3", "p"):
            tmux("send-keys", "-t", session, key)
        pane = wait_for(session, r"Seat \d turn", r"round_started")
        # The link's and the firmware's log stay in the view's event log, off the LCD.
        assert "port /dev/pts" not in pane and "Launcher link" not in pane, pane
        [pid] = tmux("list-panes", "-t", session, "-F", "#{pane_pid}").split()
        view_pid = subprocess.run(
            ["pgrep", "-P", pid, "-f", "controller sim"], capture_output=True, text=True
        ).stdout.split()
        assert len(view_pid) == 1, view_pid
        subprocess.run(["kill", "-INT", view_pid[0]], check=True)
        pane = wait_for(session, r"view-ended-with-0")
        assert "Traceback" not in pane and "Error" not in pane, pane
