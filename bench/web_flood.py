"""The table under a flood of its web page: `flashtable run --sim` with `[web]` and a limit
of 8192 open files (tests/controller/web/table_process.py, whose driver thread presses the
simulated buttons as a GPIO backend's thread would), against 5,000 idle connections, 1,000
live views and 300 slow clients (bench/web_flood_clients.py, a process of its own, from
loopback addresses of their own, at the lowest CPU priority; each one closed comes back a
second later).

Quiet and flooded take turns, in rounds, so that each sees the same moments of a shared
machine; in each:
- press -> light: from a press of a seat button to the first light pin that moved;
- a new viewer (127.0.0.1) asks for the page once a second: the time to its whole answer;
and at the end, whether the table still runs, and the lines its log wrote per cause in any
one minute (the page's troubles, and the loop's).
Usage: python bench/web_flood.py [presses per round] [rounds] [IDLE STREAMS SLOW]
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from figures import ms_line  # noqa: E402

from tests.controller.web.running_table import RunningTable  # noqa: E402

PRESSES = 100
ROUNDS = 3
FLOOD = (5000, 1000, 300)  # idle connections, live views, slow clients
OPEN_FILES = 8192
SETTLE = 15.0  # seconds the flood runs before a round's presses: every kind of it under way
VIEWER_WAIT = 10.0  # seconds a new viewer waits for the page at most


class Viewer:
    """A new viewer, once a second: the page's time to answer, or None when it did not."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.times: list[float | None] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._look, daemon=True)
        self._thread.start()

    def _look(self) -> None:
        while not self._stop.wait(1.0):
            began = time.monotonic()
            try:
                with urllib.request.urlopen(self.url, timeout=VIEWER_WAIT) as answer:
                    answer.read()
                    self.times.append(time.monotonic() - began)
            except OSError:
                self.times.append(None)

    def stop(self) -> list[float | None]:
        self._stop.set()
        self._thread.join()
        return self.times


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks


def presses(table: RunningTable, count: int, figures: dict[str, list]) -> None:
    """`count` presses: press -> light, and the table's share of a core meanwhile."""
    began, cpu = time.monotonic(), cpu_seconds(table.process.pid)
    for _ in range(count):
        pressed, lit = (float(x) for x in table.do("timed seat1").split())
        if lit:
            figures["lights"].append(lit - pressed)
        time.sleep(0.05)
    figures["cpu"].append((cpu_seconds(table.process.pid) - cpu) / (time.monotonic() - began))


def flood(port: int, sizes: tuple[int, int, int]) -> subprocess.Popen[str]:
    """The flood's clients, at the lowest CPU priority: at a real table they come from
    another machine and take none of the Pi's CPU; here they take what the table leaves."""
    clients = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "web_flood_clients.py"), str(port)]
        + [str(n) for n in sizes],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.nice(19),
    )
    assert clients.stdout is not None
    clients.stdout.readline()  # "up N"
    time.sleep(SETTLE)
    return clients


def log_lines(table: RunningTable) -> dict[str, list[float]]:
    """When the log wrote each line of trouble (the page's, the loop's), by cause."""
    found: dict[str, list[float]] = {}
    for stamp, line in zip(table.logged_at, table.log, strict=True):
        match = re.match(r"(WARNING|ERROR) (\S+): (.*)", line)
        if match and ("web page" in line or match.group(2) == "asyncio"):
            found.setdefault(match.group(3).split(" (")[0], []).append(stamp)
    return found


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else PRESSES
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else ROUNDS
    sizes = tuple(int(a) for a in sys.argv[3:6]) if len(sys.argv) > 5 else FLOOD
    with tempfile.TemporaryDirectory() as folder:
        table = RunningTable(
            Path(folder), settings='sleep_time = "off"\n', seats=6, open_files=OPEN_FILES
        )
        quiet: dict[str, list] = {"lights": [], "viewer": [], "cpu": []}
        flooded: dict[str, list] = {"lights": [], "viewer": [], "cpu": []}
        alive = True
        try:
            print(
                f"{count} presses a round, {rounds} rounds; flood: {sizes[0]} idle "
                f"connections, {sizes[1]} live views, {sizes[2]} slow clients; "
                f"open files {OPEN_FILES}; Python {sys.version.split()[0]}",
                flush=True,
            )
            for _ in range(rounds):
                viewer = Viewer(table.url)
                presses(table, count, quiet)
                quiet["viewer"] += viewer.stop()
                clients = flood(table.port, sizes)  # type: ignore[arg-type]
                try:
                    viewer = Viewer(table.url)
                    presses(table, count, flooded)
                    flooded["viewer"] += viewer.stop()
                finally:
                    clients.kill()
                    said = clients.communicate()[0].splitlines()
                    print(f"the flood's clients, in their last 5 s: {said[-1] if said else '-'}")
                alive = alive and table.process.poll() is None
        finally:
            table.stop()
        for name, figures in (("quiet", quiet), ("flooded", flooded)):
            print(ms_line(f"{name}: press -> light", figures["lights"]))
            answered = [t for t in figures["viewer"] if t is not None]
            missed = len(figures["viewer"]) - len(answered)
            print(ms_line(f"{name}: a new viewer's page", answered) + f", not answered {missed}")
            cpu = " ".join(f"{share * 100:.1f}" for share in figures["cpu"])
            print(f"{name}: the table's CPU, % of a core, each round: {cpu}")
        p99 = sorted(flooded["lights"])[len(flooded["lights"]) * 99 // 100]
        base = sorted(quiet["lights"])[len(quiet["lights"]) * 99 // 100]
        print(f"press -> light p99, flooded against quiet: {p99 / base:.2f}x")
        print(f"the table ran throughout: {'yes' if alive else 'NO'}")
        for cause, stamps in sorted(log_lines(table).items()):
            gaps = [b - a for a, b in itertools.pairwise(stamps)]
            apart = f", at least {min(gaps):.1f} s apart" if gaps else ""
            print(f"log: {len(stamps)} line(s){apart}: {cause}")


if __name__ == "__main__":
    main()
