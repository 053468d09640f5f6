"""Every benchmark in one run, and docs/performance.md written from what they printed.

Usage, from the repository root of a fresh clone: `./dev sim` (or `./dev test`) once to make
`.venv`, then `.venv/bin/python bench/all.py`. About 10 minutes; let the machine be quiet.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Each script with the arguments that fit the whole run in under 10 minutes here.
RUNS = [
    ("Press → light", "press_light.py", ["10000", "12", "10000"]),
    ("SLAP ordering under load", "slap_order.py", ["10000"]),
    ("CPU: idle and in a game", "cpu_use.py", ["3", "3"]),
    ("Memory over one long round", "rss_round.py", ["100000"]),
    ("Start-up", "start_up.py", ["10"]),
    ("Engine step cost, early and late in one game", "engine_step.py", ["101000", "3"]),
    ("Loop timers: select, epoll and both", "loop_timers.py", ["3000", "5"]),
]


def machine() -> str:
    model = "unknown CPU"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{platform.node()}: {model}, {os.cpu_count()} CPUs, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}; load average at the "
        f"start {load} (the machine is shared: quote medians and ratios from one run)"
    )


def kept_sections(page: str) -> list[str]:
    """The page's sections that no script here writes, as they are: the booted machine's
    (`bench/boot.py` needs root and QEMU, and its figures are written in by hand)."""
    ours = {title for title, _, _ in RUNS}
    sections = re.split(r"(?m)^(?=## )", page)[1:]
    return [section for section in sections if section.splitlines()[0][3:] not in ours]


def main() -> None:
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    sections = []
    for title, script, args in RUNS:
        command = ["python", f"bench/{script}", *args]
        print("$", " ".join(command), flush=True)
        start = time.monotonic()
        done = subprocess.run(
            [sys.executable, str(ROOT / "bench" / script), *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        seconds = time.monotonic() - start
        output = done.stdout + (
            f"\n(exit {done.returncode})\n{done.stderr}" if done.returncode else ""
        )
        print(output, flush=True)
        sections.append(
            f"## {title}\n\n`{' '.join(command)}` ({seconds:.0f} s)\n\n```\n{output.strip()}\n```\n"
        )
    page = [
        "# Performance",
        "",
        f"Written by `python bench/all.py` on {started}.",
        "",
        f"Machine: {machine()}.",
        "",
        "Each script prints its figures beside a baseline measured in the same run; the",
        "docstring at the top of each script says what it measures and how.",
        "",
        *sections,
    ]
    path = ROOT / "docs" / "performance.md"
    kept = kept_sections(path.read_text(encoding="utf-8")) if path.exists() else []
    path.write_text("\n".join(page) + "".join(f"\n{section.rstrip()}\n" for section in kept))
    print("wrote docs/performance.md")


if __name__ == "__main__":
    main()
