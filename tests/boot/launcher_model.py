"""The launcher's mechanics on the guest's chip, on the test side: the guest's pin tool runs
its model (tests/boot/guest_pins.py `launcher`) in the background, turning the motor's line
into beam edges through the kernel; the host reads its count and clears its jams."""

from __future__ import annotations

import json
import shlex
import time
from pathlib import Path

from .guest_pins import CPU
from .machine import Machine
from .pins import GUEST_TOOL, copy_tool, line

RUN = "/run/flashtable-launcher"
SAME_CPU = "/etc/systemd/system/flashtable.service.d/beside-the-launcher.conf"


class LauncherModel:
    """A hopper of `cards` behind the table's motor and beam on `chip`; a card every
    `card_ms` of the motor's running, in the beam for `block_ms` of it; with `jam_after`,
    it jams once that many cards have gone, until `clear`.

    A card stays in the beam long past the model's run-on (tests/boot/guest_pins.py): the
    gate's stop at a card's front, beyond the count, has that long to reach the motor's line
    from the pins' thread of a busy guest, tens of milliseconds where a Pi's takes well under
    one (in the beam for 40 ms, the card after the last of six went out as well)."""

    def __init__(
        self,
        machine: Machine,
        *,
        chip: str = "gpiochip0",
        cards: int = 100,
        card_ms: int = 200,
        block_ms: int = 150,
        jam_after: int | None = None,
    ) -> None:
        self.machine = machine
        self.count_file = f"{RUN}.json"  # the model's state, `out` its count of cards
        spec = {
            "chip": chip,
            "motor": line("launcher.motor.forward"),
            "beam": line("launcher.beam"),
            "cards": cards,
            "card_ms": card_ms,
            "block_ms": block_ms,
            "jam_after": jam_after,
            "out": self.count_file,
            "stop": f"{RUN}.stop",
            "clear": f"{RUN}.clear",
        }
        copy_tool(machine)
        # The table's daemon on the model's CPU, from its next start. The guest's two CPUs are
        # host threads that a loaded host stalls one at a time, for a second or more: a model
        # stalled while the table runs on would send no edge for the jam time, a jam no Pi's
        # launcher makes. Stalled together, the model (real-time, above the daemon) moves
        # first when the CPU comes back, and the table waits for an edge on its way before it
        # looks at the jam time.
        machine.run(
            f"mkdir -p {shlex.quote(str(Path(SAME_CPU).parent))} &&"
            f" printf '[Service]\\nCPUAffinity={CPU}\\n' > {SAME_CPU} && systemctl daemon-reload"
        )
        machine.run(
            f"rm -f {RUN}.*; nohup python3 {GUEST_TOOL} launcher {shlex.quote(json.dumps(spec))}"
            f" >{RUN}.log 2>&1 &"
        )
        # Running once it has written its first count: the beam is clear from then on.
        machine.wait_until(f"test -e {RUN}.json")

    def state(self) -> dict:
        """`out` (cards through the beam), `jammed`, `motor`: the motor line's last changes,
        [guest monotonic ns, level], and `runs`: the motor's last runs, [guest monotonic ns,
        cards out by then]."""
        return dict(json.loads(self.machine.run(f"cat {RUN}.json").out))

    def cards_out(self) -> int:
        return int(self.state()["out"])

    def wait(self, check, what: str, timeout: float = 300.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if check(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"the launcher model: {what} not in {timeout:.0f} s: {state}")
            time.sleep(0.2)

    def clear(self) -> None:
        """The jam cleared by hand: cards pass again."""
        self.machine.run(f"touch {RUN}.clear")

    def stop(self) -> None:
        self.machine.run(f"touch {RUN}.stop", check=False)
