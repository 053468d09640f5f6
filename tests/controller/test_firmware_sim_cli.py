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
from firmware.launcher import banner


def firmware_sim(*options: str) -> subprocess.Popen[str]:
    """`flashtable firmware-sim OPTIONS`, its output and log read by the test."""
    return subprocess.Popen(
        [sys.executable, "-m", "controller", "firmware-sim", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_firmware_sim_prints_its_port_first_and_answers_hello_there():
    proc = firmware_sim("--seed", "3", "--corrupt", "0")
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


def test_firmware_sim_prints_the_launchers_banner_second():
    """After the port, the line the firmware writes as it starts (firmware/PROTOCOL.md): the
    board in it is the one INFO names."""
    proc = firmware_sim("--seed", "4")
    try:
        assert proc.stdout is not None
        first, second = proc.stdout.readline(), proc.stdout.readline()
        assert re.fullmatch(r"port: /dev/pts/\d+\n", first), first
        shown = re.fullmatch(
            r"flashtable-launcher 2\.0\.0 protocol 2 board ([0-9a-f]{16})\n", second
        )
        assert shown, second
        with serial.Serial(first.split()[1], 115200, timeout=0.2) as line:
            decoder, info = Decoder(), None
            deadline = time.monotonic() + 30  # only a bound: the answer comes in milliseconds
            while info is None:
                assert time.monotonic() < deadline
                line.write(encode(1, p.HELLO, bytes((p.PROTOCOL_VERSION,))))
                for seq, kind, payload in decoder.feed(line.read(64)):
                    if kind == p.INFO:
                        info = payload
                    elif kind != p.ACK:
                        line.write(encode(0, p.ACK, bytes((seq,))))
        board = p.unpack(p.INFO_FORMAT, info)[4]
        assert second == banner(board).replace("\r\n", "\n")
        assert shown.group(1) == board.hex()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
    assert proc.returncode == 0


def test_firmware_sim_refuses_a_rate_above_one():
    out = subprocess.run(
        [sys.executable, "-m", "controller", "firmware-sim", "--drop", "1.5"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert "--drop must be 0 to 1, not 1.5" in out.stderr


def test_firmware_sim_logs_its_counts_on_sigusr1_and_runs_on():
    proc = firmware_sim("--seed", "5", "--cards", "9")
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().startswith("port: ")
        proc.stdout.readline()  # the banner
        proc.send_signal(signal.SIGUSR1)
        assert "cards out: 0, left in the hopper: 9" in proc.stderr.readline()
        assert proc.poll() is None
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "cards out: 0, left in the hopper: 9" in err
