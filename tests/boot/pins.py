"""The host's hand on the guest's GPIO chip: each input of the table's pin map driven through
the kernel (the line's simulated pull, written in sysfs) and each output read back, by role
name; timed sequences and the launcher's model run by the guest's pin tool
(tests/boot/guest_pins.py, copied into the guest), on the guest's side of the agent's line;
other boards' chips made by the image's chip maker (tests/boot/guest_chips.py)."""

from __future__ import annotations

import json
import shlex
import time
import tomllib
from collections.abc import Iterable
from pathlib import Path

from controller.config import parse

from .guest_table import CONFIG
from .image import GUEST_CHIPS
from .machine import Machine

TOOL = Path(__file__).with_name("guest_pins.py")
GUEST_TOOL = "/run/flashtable-pins.py"


def copy_tool(machine: Machine) -> None:
    """The pin tool into the guest (a machine restored from the saved one lacks it)."""
    machine.write(GUEST_TOOL, TOOL.read_text(encoding="utf-8"))


PIN_MAP = parse(tomllib.loads(CONFIG)).pinmap(simulated=False)
PRESSED, RELEASED = "pull-down", "pull-up"  # a switch to ground; the line's pull-up
BEAM_CLEAR, BEAM_BLOCKED = PRESSED, RELEASED  # the beam's receiver pulls low while lit


def role(name: str) -> str:
    """A role of the pin map by the game's name: "seat3" is "seat3.button"."""
    return f"{name}.button" if name.startswith("seat") and "." not in name else name


def line(name: str) -> int:
    return PIN_MAP[role(name)]


class Pins:
    """The table's lines on the guest's chip `chip` (gpiochipN)."""

    def __init__(self, machine: Machine, chip: str = "gpiochip0") -> None:
        self.machine = machine
        self.chip = chip
        copy_tool(machine)

    def tool(
        self, *args: str, stdin: bytes = b"", timeout: float = 300.0, realtime: bool = False
    ) -> dict:
        first = "chrt -f 1 python3" if realtime else "python3"
        done = self.machine.run(
            f"{first} {GUEST_TOOL} {shlex.join(args)}", stdin=stdin, timeout=timeout
        )
        return dict(json.loads(done.out.strip().splitlines()[-1]))

    def make_chips(self, *specs: str) -> list[dict]:
        """The guest's chips made anew, each "LABEL:LINES"; what the kernel named them."""
        done = self.machine.run(f"python3 {GUEST_CHIPS} {shlex.join(specs)}")
        return list(json.loads(done.out.strip().splitlines()[-1])["chips"])

    def _file(self, name: str, attribute: str) -> str:
        return f"/sys/bus/platform/devices/gpio-sim.*/{self.chip}/sim_gpio{line(name)}/{attribute}"

    def set(self, levels: dict[str, str]) -> None:
        """Each input's line pulled as given, at once, in one command."""
        script = "; ".join(f"echo {level} > {self._file(n, 'pull')}" for n, level in levels.items())
        self.machine.run(script)

    def press(self, *names: str) -> None:
        self.set(dict.fromkeys(names, PRESSED))

    def release(self, *names: str) -> None:
        self.set(dict.fromkeys(names, RELEASED))

    def tap(self, name: str, held_ms: float = 60) -> None:
        """Pressed and released, held long enough for the table's debounce."""
        self.drive([(0, name, PRESSED), (held_ms * 1000, name, RELEASED)])

    def drive(self, steps: Iterable[tuple[float, str, str]]) -> list[tuple[int, int]]:
        """Timed steps (µs after the one before was due, or returned if it came late; role;
        pull), run by the guest; for each write, the guest's monotonic ns before it and after
        it: its edge in between."""
        request = {"chip": self.chip, "steps": [[us, line(n), level] for us, n, level in steps]}
        # At the lowest real-time priority: the table's wakeups at each edge do not hold the
        # next one, and the kernel's interrupt threads (priority 50), which turn each edge into
        # an event, still come first.
        done = self.tool("drive", stdin=json.dumps(request).encode(), realtime=True)["at"]
        return [(before, after) for before, after in done]

    def read(self, *names: str) -> dict[str, int]:
        """Each line's value now, as the kernel has it (an output: as the table drives it)."""
        out = self.machine.run("cat " + " ".join(self._file(n, "value") for n in names)).out
        return dict(zip(names, map(int, out.split()), strict=True))

    def level(self, name: str, samples: int = 200) -> float:
        """The share of `samples` reads, a millisecond apart, that found the output high: 0 or 1
        for a steady line, in between for one that PWM drives."""
        found = self.tool("sample", self.chip, str(line(name)), str(samples))
        return float(found["high"])

    def wait_level(
        self, name: str, check, what: str, timeout: float = 120.0, samples: int = 50
    ) -> float:
        """Sample `name` until `check(level)` holds; the level."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.level(name, samples)
            if check(found):
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"{name}: {what} not seen in {timeout:.0f} s (level {found})")
