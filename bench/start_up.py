"""Start-up: `import controller.shell.daemon` beside `import gpiozero`, and the time to READY.

Each import runs in a fresh interpreter, alternating, so both see the same machine; the
figure is the median. Time to READY is from starting `flashtable run --sim` to its
sd_notify READY=1 on a socket of our own, beside a bare interpreter's start and exit.
Usage: python bench/start_up.py [runs]
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_time(*args: str, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, env=env)
    return time.perf_counter() - start


def to_ready(state: Path) -> float:
    """Seconds from starting the simulated daemon to its READY=1."""
    path = state / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(30)
        env = {**os.environ, "NOTIFY_SOCKET": str(path)}
        command = [sys.executable, "-m", "controller", "run", "--sim", "--seed", "1"]
        command += ["--state-dir", str(state), "--log-level", "warning"]
        start = time.perf_counter()
        daemon = subprocess.Popen(command, env=env)
        try:
            while b"READY=1" not in sock.recv(4096):
                pass
            return time.perf_counter() - start
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)
            path.unlink()


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    ours, theirs, bare = [], [], []
    for _ in range(runs):
        ours.append(run_time("-c", "import controller.shell.daemon"))
        theirs.append(run_time("-c", "import gpiozero"))
        bare.append(run_time("-c", "pass"))
    daemon, gpiozero, python = (statistics.median(x) for x in (ours, theirs, bare))
    print(
        f"import controller.shell.daemon: median {daemon * 1000:.0f} ms"
        f" (n={runs}, interpreter included)"
    )
    print(f"import gpiozero: median {gpiozero * 1000:.0f} ms")
    print(f"bare interpreter: median {python * 1000:.0f} ms")
    print(f"ratio controller.shell.daemon / gpiozero: {daemon / gpiozero:.2f}x")
    print(
        "imports alone (less the bare interpreter): "
        f"controller.shell.daemon {(daemon - python) * 1000:.0f} ms, "
        f"gpiozero {(gpiozero - python) * 1000:.0f} ms"
    )
    with tempfile.TemporaryDirectory() as state:
        ready = [to_ready(Path(state)) for _ in range(max(3, runs // 2))]
    print(
        f"time to READY (flashtable run --sim): median {statistics.median(ready) * 1000:.0f} ms "
        f"(n={len(ready)}), beside the bare interpreter's {python * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
