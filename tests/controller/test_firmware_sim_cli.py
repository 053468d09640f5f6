"""`flashtable firmware-sim`: the firmware on a fresh pseudo-terminal, as a host sees it."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

import serial

from firmware import protocol as p
from firmware.frame import Decoder, encode


def test_firmware_sim_prints_its_port_first_and_answers_hello_there():
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", "firmware-sim", "--seed", "3", "--corrupt", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert re.fullmatch(r"port: /dev/pts/\d+\n", first), first
        with serial.Serial(first.split()[1], 115200, timeout=0.2) as line:
            decoder, frames = Decoder(), []
            deadline = time.monotonic() + 30  # only a bound: the answer comes in milliseconds
            while not any(kind == p.INFO for _, kind, _ in frames):
                assert time.monotonic() < deadline, frames
                line.write(encode(1, p.HELLO, bytes((p.PROTOCOL_VERSION,))))
                for seq, kind, payload in decoder.feed(line.read(64)):
                    frames.append((seq, kind, payload))
                    if kind != p.ACK:  # the firmware sends its next frame once this one is
                        line.write(encode(0, p.ACK, bytes((seq,))))
        info = next(payload for _, kind, payload in frames if kind == p.INFO)
        version, major, _minor, _patch, _board = p.unpack(p.INFO_FORMAT, info)
        assert (version, major) == (p.PROTOCOL_VERSION, 2)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "cards out: 0, left in the hopper: 54" in err


def test_firmware_sim_refuses_a_rate_above_one():
    out = subprocess.run(
        [sys.executable, "-m", "controller", "firmware-sim", "--drop", "1.5"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert "--drop must be 0 to 1, not 1.5" in out.stderr
