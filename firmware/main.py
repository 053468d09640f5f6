"""The Pico's entry point: copied to the board's root as main.py, it runs at power-on.

The loop sleeps in `poll` until a byte comes or something is due, at most IDLE_MS, and
wakes every millisecond while the motor runs, so a card is counted within a millisecond or
two of leaving the beam (the beam's edges are stamped in the interrupt, to the microsecond).
"""

import os
import select
import sys
import time

import machine
import micropython

from firmware.board import Board
from firmware.dispenser import IDLE
from firmware.launcher import banner

LINK = "usb"  # or "uart": the link on GP0/GP1 through a USB-serial adapter
BAUD = 115200
IDLE_MS = 200
RUNNING_MS = 1
# What mpremote and a terminal's Ctrl-C send; between frames it hands the REPL back.
INTERRUPT = b"\r\x03"


def run():
    # From the RP2040's ring oscillator: another number at each start.
    start = int.from_bytes(os.urandom(4), "big")
    board = Board(machine, time.ticks_us, time.ticks_diff, link=LINK, baud=BAUD, start=start)
    if board.port is None:
        # On USB the REPL's stream is the link: a 0x03 in a frame is data, not Ctrl-C.
        micropython.kbd_intr(-1)
        stream_in, stream_out = sys.stdin.buffer, sys.stdout.buffer
    else:
        stream_in = stream_out = board.port
    poller = select.poll()
    poller.register(stream_in, select.POLLIN)
    # A banner for a person at a terminal; the host skips it as line noise before a frame.
    stream_out.write(banner(board.board_id))
    launcher = board.start(stream_out.write)
    tail = b""
    while True:
        now, due = board.service(launcher)
        wait = IDLE_MS if launcher.dispenser.state == IDLE else RUNNING_MS
        if due is not None:
            wait = max(0, min(wait, (due - now) // 1000))
        while poller.poll(wait):
            byte = stream_in.read(1)
            if tail + byte == INTERRUPT and launcher.link.between_frames:
                board.drive(0)
                micropython.kbd_intr(3)
                raise KeyboardInterrupt
            tail = byte
            launcher.receive(byte, board.now())
            wait = 0


run()
