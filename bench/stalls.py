"""The launcher firmware stalled at random moments of its dispenses, with power cuts among
them, counted card by card: on `flashtable firmware-sim` (CPython, virtual time) and on the
real firmware through its own main.py under MicroPython's unix port (real time: about a
second a dispense; the board double's mechanics starved now and then, as on a loaded
machine). Prints, for each, the dispenses, the stalls, the cuts, the cards the host counted,
the cards out of the beam, those short by one at a cut and those past the count, and how
often the firmware's gate stopped the motor itself.
Usage: python bench/stalls.py [dispenses] [firmware-sim|micropython]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.firmware.test_micropython_stalls import deal as on_micropython
from tests.hardware.test_firmware_sim_stalls import deal as on_firmware_sim


def main() -> None:
    dispenses = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    which = sys.argv[2:] or ["firmware-sim", "micropython"]
    for name in which:
        start = time.monotonic()
        if name == "firmware-sim":
            lines = on_firmware_sim(dispenses, seed=7)
        else:
            with tempfile.TemporaryDirectory() as folder:
                log = Path(folder) / "firmware.log"
                lines = on_micropython(dispenses, seed=3, log=log, starved=True)
        print(f"{name} ({time.monotonic() - start:.0f} s):")
        for line in lines:
            print(f"  {line}")


if __name__ == "__main__":
    main()
