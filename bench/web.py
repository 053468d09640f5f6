"""The web page's cost to the table: `flashtable run --sim` with `[web]` in a process of its
own (tests/controller/web/table_process.py, whose driver thread presses the simulated
buttons as a GPIO backend's thread would), watched by Debian's chromium and by more open
streams in a process of their own (bench/web_readers.py).

For none, 1 and 50 open streams (the browser is one of them), with each press of a seat
button (claiming the seat, then letting it go: its light changes each time):
- press -> page update: from the press to the moment the browser's DOM changed (a
  MutationObserver on the seats), both on the machine's wall clock;
- press -> light: from the press to the first light pin that moved for a new pattern, as a
  player sees it; with 50 streams against none, in the same run;
- the table process's CPU per open stream: its CPU time while idle and while pressed, with
  the streams open, less the same without them.
The configurations take turns, in rounds, so that each sees the same moments of a shared
machine.
Usage: python bench/web.py [presses per run] [seconds of idle CPU]
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from figures import ms_line  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from tests.controller.web.browser import chromium  # noqa: E402
from tests.controller.web.running_table import RunningTable  # noqa: E402

PRESSES = 200
ROUNDS = 5  # each configuration's presses come in this many turns, the others' between
STREAMS = (0, 1, 50)
IDLE = 5.0  # seconds of idle CPU measured
GAP = (0.05, 0.15)  # seconds between presses, at random: a busy table
WATCH = """
window.changedAt = null;
new MutationObserver(() => {
  if (window.changedAt === null) window.changedAt = performance.timeOrigin + performance.now();
}).observe(document.getElementById('seats'), {subtree: true, attributes: true, childList: true,
                                                 characterData: true});
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks


class Watchers:
    """None, 1 or 50 open streams on the table's page: the browser, and the readers."""

    def __init__(self, table: RunningTable) -> None:
        self.table = table
        self.browser = chromium()
        self.readers: subprocess.Popen | None = None

    def open(self, streams: int) -> None:
        self._stop_readers()
        if streams == 0:
            self.browser.get("about:blank")  # its stream closes with the page
            return
        self.browser.get(self.table.url)
        WebDriverWait(self.browser, 30).until(
            lambda b: b.find_element(By.ID, "link").text == "live", "the page's stream"
        )
        self.browser.execute_script(WATCH)
        if streams > 1:
            reader = str(ROOT / "bench" / "web_readers.py")
            self.readers = subprocess.Popen(
                [sys.executable, reader, self.table.url, str(streams - 1)],
                stdout=subprocess.PIPE,
                text=True,
            )
            assert self.readers.stdout is not None
            self.readers.stdout.readline()  # "open N": every stream has its first message

    def _stop_readers(self) -> None:
        if self.readers is not None:
            self.readers.kill()
            self.readers.wait()
            self.readers = None

    def close(self) -> None:
        self._stop_readers()
        self.browser.quit()


class Figures:
    """One configuration's samples, gathered over the rounds."""

    def __init__(self) -> None:
        self.lights: list[float] = []
        self.pages: list[float] = []
        self.cpu = 0.0  # seconds of the table's CPU while pressed
        self.time = 0.0  # seconds pressed
        self.idle = 0.0  # share of a core while idle


def press(table: RunningTable, browser, count: int, figures: Figures) -> None:
    """`count` presses: press -> light, and press -> page update when `browser` watches."""
    began, cpu = time.monotonic(), cpu_seconds(table.process.pid)
    for _ in range(count):
        if browser is not None:
            browser.execute_script("window.changedAt = null")
        pressed, lit = (float(x) for x in table.do("timed seat1").split())
        if lit:
            figures.lights.append(lit - pressed)
        if browser is not None:
            deadline = time.monotonic() + 5
            while (changed := browser.execute_script("return window.changedAt")) is None:
                if time.monotonic() > deadline:
                    raise SystemExit("the page never changed")
            figures.pages.append(changed / 1000 - pressed)
        time.sleep(random.uniform(*GAP))
    figures.cpu += cpu_seconds(table.process.pid) - cpu
    figures.time += time.monotonic() - began


def idle_cpu(table: RunningTable, seconds: float) -> float:
    cpu = cpu_seconds(table.process.pid)
    time.sleep(seconds)
    return (cpu_seconds(table.process.pid) - cpu) / seconds


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else PRESSES
    idle = float(sys.argv[2]) if len(sys.argv) > 2 else IDLE
    with tempfile.TemporaryDirectory() as folder:
        table = RunningTable(Path(folder), settings='sleep_time = "off"\n', seats=6)
        watchers = None
        try:
            print(f"{count} presses each, in {ROUNDS} rounds, Python {sys.version.split()[0]}")
            watchers = Watchers(table)
            runs = {streams: Figures() for streams in STREAMS}
            # In turns, so that each sees the same moments of a shared machine.
            for _ in range(ROUNDS):
                for streams, figures in runs.items():
                    watchers.open(streams)
                    press(table, watchers.browser if streams else None, count // ROUNDS, figures)
            for streams, figures in runs.items():
                watchers.open(streams)
                figures.idle = idle_cpu(table, idle)
            base = runs[0]
            for streams, figures in runs.items():
                name = f"{streams} streams" if streams else "no stream"
                if figures.pages:
                    print(ms_line(f"{name}: press -> page update", figures.pages))
                print(ms_line(f"{name}: press -> light", figures.lights))
                cpu = figures.cpu / figures.time
                line = f"{name}: CPU {cpu * 100:.2f} % pressed, {figures.idle * 100:.3f} % idle"
                if streams:
                    per = (cpu - base.cpu / base.time) * 100 / streams
                    line += f"; per stream {per:.3f} % pressed, "
                    line += f"{(figures.idle - base.idle) * 100 / streams:.4f} % idle"
                print(line)
        finally:
            if watchers is not None:
                watchers.close()
            table.stop()


if __name__ == "__main__":
    main()
