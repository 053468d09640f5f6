"""How much CPU the daemon uses while the table waits: `flashtable run --sim`, idle.

Prints the CPU share over a few windows after start-up and their median.
Usage: python bench/idle_cpu.py [seconds per window] [windows]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    window = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    windows = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with tempfile.TemporaryDirectory() as state:
        daemon = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "controller",
                "run",
                "--sim",
                "--seed",
                "1",
                "--state-dir",
                state,
                "--log-level",
                "warning",
            ],
        )
        try:
            time.sleep(2.0)  # start-up imports are not idling
            shares = []
            for _ in range(windows):
                before, start = cpu_seconds(daemon.pid), time.monotonic()
                time.sleep(window)
                used = cpu_seconds(daemon.pid) - before
                shares.append(100 * used / (time.monotonic() - start))
            print("idle CPU per window: " + ", ".join(f"{s:.2f}%" for s in shares))
            print(f"median idle CPU: {statistics.median(shares):.2f}%")
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)


if __name__ == "__main__":
    main()
