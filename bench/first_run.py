"""How long a newcomer waits for the table: `./dev sim` in a fresh clone until the view shows.

Clones this checkout's HEAD into a temporary folder, runs `./dev sim` there in an 80x24 tmux
terminal, and prints each line `./dev` says with the moment it showed, then the seconds until
the simulated table was on the screen. Needs git and tmux; the package caches decide the time.
Usage: python bench/first_run.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 600.0
TITLE = "Flash Table sim"


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def main() -> int:
    if shutil.which("tmux") is None:
        print("first_run: needs tmux", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        clone = Path(folder) / "flashtable"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        session = f"first-run-{uuid.uuid4().hex[:8]}"
        start = time.monotonic()
        tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", f"cd {clone} && ./dev sim")
        said: list[str] = []
        try:
            while time.monotonic() - start < TIMEOUT:
                pane = tmux("capture-pane", "-p", "-t", session)
                for line in pane.splitlines():
                    if line.startswith("dev: ") and line not in said:
                        said.append(line)
                        print(f"{time.monotonic() - start:6.1f} s  {line}")
                if TITLE in pane:
                    print(f"{time.monotonic() - start:6.1f} s  the table is on the screen")
                    tmux("send-keys", "-t", session, "q")
                    return 0
                time.sleep(0.2)
            print(f"first_run: no table after {TIMEOUT:.0f} s; the screen was:\n{pane}")
            return 1
        finally:
            subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


if __name__ == "__main__":
    sys.exit(main())
