"""The tests that need real time, and the serial headless script, on a loaded machine.

Starts BUSY busy loops (one process each), then runs, ROUNDS times in a row: the targeted
tests (each its own pytest run, one worker) and `flashtable sim --launcher serial --headless`
on docs/examples/full-round.txt, whose events (without their times) must be the same every
time and the same as the script on the GPIO launcher, played quietly before the load starts.
Prints one line per round and the machine's load; stops the busy loops however it ends.
Usage: python bench/loaded.py [rounds] [busy loops] [test ...]
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ("--headless", "--script", "docs/examples/full-round.txt", "--seed", "1")
EVENT = re.compile(r"^ {0,3}\d+ +\d+\.\d{3} (?P<event>[a-z_]+.*)$")
# The serial script's own test (test_the_full_round_deals_the_same_cards_through_the_firmware_
# as_on_gpio) is what each round's script run checks, against the GPIO run made quietly.
TESTS = (
    "tests/controller/test_sim_firmware.py::test_the_firmware_ends_with_the_table_also_on_an_error",
)


def events(*launcher: str) -> tuple[int, str]:
    """The script's exit status, and a digest of its events without their times."""
    command = [sys.executable, "-m", "controller", "sim", *launcher, *SCRIPT]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    found = [EVENT.match(line) for line in done.stdout.splitlines()]
    played = "\n".join(m["event"] for m in found if m)
    return done.returncode, hashlib.sha256(played.encode()).hexdigest()[:12]


def passes(test: str) -> bool:
    command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", test]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    return done.returncode == 0


def main(rounds: int, busy: int, tests: tuple[str, ...]) -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the busy loops end with it
    status, wanted = events("--launcher", "gpio")
    print(f"quiet, the GPIO launcher: exit {status}, events {wanted}")
    loops = [
        subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(busy)
    ]  # each its own process, as a busy neighbour is
    failures = 0
    try:
        time.sleep(2.0)
        for n in range(1, rounds + 1):
            start = time.monotonic()
            results = [passes(test) for test in tests]
            status, got = events("--launcher", "serial")
            same = status == 0 and got == wanted
            failures += results.count(False) + (not same)
            tests_said = " ".join("pass" if ok else "FAIL" for ok in results)
            print(
                f"round {n}: tests {tests_said}; serial script exit {status}, events {got}"
                f" ({'the same' if same else 'OTHER'}); load {os.getloadavg()[0]:.1f};"
                f" {time.monotonic() - start:.0f} s",
                flush=True,
            )
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    print(f"{failures} failure(s) in {rounds} rounds beside {busy} busy loops")
    return 1 if failures else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    rounds = int(args[0]) if args else 5
    busy = int(args[1]) if len(args) > 1 else 16
    sys.exit(main(rounds, busy, tuple(args[2:]) or TESTS))
