"""The serial launcher in the booted tests and their bench: the firmware on the host, at the
guest's second serial port, counting the cards on its side of the line; dispenses commanded
over MQTT as an operator's phone does, and cut short at a random card."""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

from .machine import Machine, die_with_parent
from .watch import TableWatch

CONFIG = "/etc/flashtable/flashtable.toml"
SERIAL_LAUNCHER = """
[launcher]
link = "serial"
port = "/dev/ttyS1"
"""
DEAL = 6  # cards in each dispense: the most one command deals (docs/mqtt.md)


def use_serial_launcher(machine: Machine) -> None:
    """The launcher on a controller at the guest's second serial port, in the config.
    Synced: a power cut after it is for the table's files, not for this edit."""
    machine.run(f"cat >> {CONFIG} && sync {CONFIG}", stdin=SERIAL_LAUNCHER.encode())


class Firmware:
    """`flashtable firmware-sim` on the host: the launcher's firmware on a simulated launcher,
    on a pseudo-terminal that the guest has as its second serial port. It counts the cards
    on the host's side of the line, whatever the guest does."""

    COUNT = re.compile(r"cards out: (\d+)")

    def __init__(self, cards: int) -> None:
        command = [
            str(Path(sys.executable).with_name("flashtable")),
            "firmware-sim",
            "--seed",
            "1",
            "--cards",
            str(cards),
        ]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        self._counts: list[int] = []
        self._said = threading.Condition()
        self._log: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        assert line.startswith("port: "), line + "".join(self._log)
        self.port = line.removeprefix("port: ").strip()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            with self._said:
                self._log.append(line)
                found = self.COUNT.search(line)
                if found is not None:
                    self._counts.append(int(found.group(1)))
                self._said.notify_all()

    def cards_out(self, timeout: float = 60.0) -> int:
        """The cards that have come out of its launcher so far (it logs them on SIGUSR1)."""
        with self._said:
            before = len(self._counts)
            self.process.send_signal(signal.SIGUSR1)
            if not self._said.wait_for(lambda: len(self._counts) > before, timeout):
                raise TimeoutError("firmware-sim did not say its count\n" + "".join(self._log))
            return self._counts[-1]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def finished(watch: TableWatch, after: int) -> dict:
    """The table's state once it owes nothing and its launcher is idle, from `after` on."""
    return watch.wait_for(
        "state",
        lambda m: (m.json.get("owed"), m.json.get("launcher")) == (0, "idle"),
        after=after,
    ).json


def dealt(watch: TableWatch, online: int) -> dict:
    """`finished`, for a daemon that came online at index `online` (`came_online`): its
    count of cards dispensed is its own, the `card_out` events it published since."""
    state = finished(watch, online)
    # The retained state leaves before the events of the same moment (docs/mqtt.md).
    watch.until(
        lambda: len(watch.events("card_out", online)) >= state["cards_dispensed"],
        f"{state['cards_dispensed']} card_out events, as the state counts",
    )
    assert state["cards_dispensed"] == len(watch.events("card_out", online)), state
    return state


def deal_then(watch: TableWatch, rng: random.Random) -> int:
    """A dispense of DEAL commanded over MQTT, as an operator's phone does; returns once a
    random card of it (not the last) is out. The card it returns after."""
    at = rng.randint(1, DEAL - 1)
    mark = watch.mark()
    watch.command(action="dispense", cards=DEAL)
    watch.until(lambda: len(watch.events("card_out", mark)) >= at, f"card {at} out")
    return at
