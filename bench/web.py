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
- the table process's CPU per open stream: its CPU time while idle and while pressed RATE
  times a second, with the streams open, less the same without them.
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


def presses(table: RunningTable, browser, count: int) -> tuple[list[float], list[float], float]:
    """Press → light and press → page update (if `browser`), and the CPU seconds a press
    cost the table process."""
    lights, pages = [], []
    began, cpu = time.monotonic(), cpu_seconds(table.process.pid)
    for _ in range(count):
        if browser is not None:
            browser.execute_script("window.changedAt = null")
        pressed, lit = (float(x) for x in table.do("timed seat1").split())
        if lit:
            lights.append(lit - pressed)
        if browser is not None:
            deadline = time.monotonic() + 5
            while (changed := browser.execute_script("return window.changedAt")) is None:
                if time.monotonic() > deadline:
                    raise SystemExit("the page never changed")
            pages.append(changed / 1000 - pressed)
        time.sleep(random.uniform(*GAP))
    used = (cpu_seconds(table.process.pid) - cpu) / (time.monotonic() - began)
    return lights, pages, used


def idle_cpu(table: RunningTable, seconds: float) -> float:
    cpu = cpu_seconds(table.process.pid)
    time.sleep(seconds)
    return (cpu_seconds(table.process.pid) - cpu) / seconds


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else PRESSES
    idle = float(sys.argv[2]) if len(sys.argv) > 2 else IDLE
    with tempfile.TemporaryDirectory() as folder:
        table = RunningTable(Path(folder), settings='sleep_time = "off"\n', seats=6)
        browser = None
        readers = None
        try:
            print(f"{count} presses per run, Python {sys.version.split()[0]}")
            base_idle = idle_cpu(table, idle)
            base_light, _, base_cpu = presses(table, None, count)
            print(ms_line("no stream: press -> light", base_light))
            browser = chromium()
            browser.get(table.url)
            WebDriverWait(browser, 30).until(
                lambda b: b.find_element(By.ID, "link").text == "live", "the page's stream"
            )
            browser.execute_script(WATCH)
            results = {}
            for streams in (1, 50):
                if streams > 1:
                    readers = subprocess.Popen(
                        [
                            sys.executable,
                            str(ROOT / "bench" / "web_readers.py"),
                            table.url,
                            str(streams - 1),
                        ],
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                    assert readers.stdout is not None
                    readers.stdout.readline()  # "open N"
                lit, page, cpu = presses(table, browser, count)
                results[streams] = (lit, page, cpu, idle_cpu(table, idle))
                print(ms_line(f"{streams} streams: press -> page update", page))
                print(ms_line(f"{streams} streams: press -> light", lit))
            for streams, (_, _, cpu, idle_use) in results.items():
                print(
                    f"{streams} streams: CPU {cpu * 100:.2f} % pressed, "
                    f"{idle_use * 100:.3f} % idle; "
                    f"per stream {(cpu - base_cpu) * 100 / streams:.3f} % pressed, "
                    f"{(idle_use - base_idle) * 100 / streams:.4f} % idle "
                    f"(no stream: {base_cpu * 100:.2f} % pressed, {base_idle * 100:.3f} % idle)"
                )
        finally:
            if readers is not None:
                readers.kill()
                readers.wait()
            if browser is not None:
                browser.quit()
            table.stop()


if __name__ == "__main__":
    main()
