"""Runs the firmware's own main.py under MicroPython's unix port with the board double:
`micropython run_main.py PORT CAUSE BOARD_ID W0 W1 W2 W3 ROOT` (machine.py says which)."""

import sys

sys.path.insert(0, sys.argv[8])  # the repository: firmware/
sys.path.insert(0, sys.argv[0].rsplit("/", 1)[0])  # this directory: machine, ticks

import machine
import ticks

sys.modules["time"] = ticks
with open(sys.argv[8] + "/firmware/main.py") as f:
    source = f.read()
exec(compile(source, "main.py", "exec"), {"__name__": "__main__", "machine": machine})
