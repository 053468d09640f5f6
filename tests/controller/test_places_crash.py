"""A round for places killed (SIGKILL, a process of its own) in the middle, again and again,
and restarted on the same state directory each time: it resumes paused with the places
already taken, in their order, and no turn of a player who is out; the round then plays on
to its end with those places first."""

import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

DRIVER = Path(__file__).with_name("places_crash_table.py")
KILLS = 6


def places_of(line: str) -> list[int]:
    found = re.search(r"places=(\S+)", line)
    assert found is not None, line
    return [] if found.group(1) == "-" else [int(seat) for seat in found.group(1).split(",")]


def play(state_dir: Path, seed: int, kill_after: int | None) -> list[str]:
    """Run one game; with `kill_after`, SIGKILL it once it has printed that many lines. Every
    line it printed counts, also those printed after the one that decided the kill."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    finish = ["finish"] if kill_after is None else []
    process = subprocess.Popen(
        [sys.executable, str(DRIVER), str(state_dir), str(seed), *finish],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    lines: list[str] = []
    with process.stdout:
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if kill_after is not None and len(lines) == kill_after:
                process.send_signal(signal.SIGKILL)
    process.wait(timeout=120)
    if kill_after is None:
        assert process.returncode == 0, lines[-3:]
    return lines


def test_a_round_for_places_killed_mid_round_resumes_with_the_places_taken(tmp_path):
    rng = random.Random(5)
    taken: list[int] = []  # the places as the killed games printed them
    holding: int | None = None  # a hold under way at the kill: its place may be on the disk
    lit: str | None = None  # whose turn the last state line named, if no press followed it
    resumed_with_places = 0
    for kill in range(KILLS):
        lines = play(tmp_path, seed=kill, kill_after=rng.randint(3, 25))
        start = lines[0]
        assert start.startswith("start phase=")
        if kill:
            # Resumed paused, with the places the last game had taken on the disk.
            assert "phase=paused" in start, start
            resumed = places_of(start)
            if holding is not None and resumed == [*taken, holding]:
                taken.append(holding)
            assert resumed == taken, (start, taken)
            resumed_lit = start.rsplit("lit=", 1)[1]
            assert int(resumed_lit) not in taken
            if lit is not None:
                assert resumed_lit == lit, (start, lit)  # the same turn, resumed
            resumed_with_places += bool(taken)
        holding, lit = None, None
        for line in lines[1:]:
            if line.startswith("holding "):
                holding, lit = int(line.split()[1]), None  # the lit player may go out
            elif line.startswith("placed "):
                taken.append(int(line.split()[1]))
                holding = None
            elif line.startswith("press "):
                lit = None
            elif line.startswith("state "):
                assert places_of(line) == taken, (line, taken)
                lit = line.rsplit("lit=", 1)[1]
    assert resumed_with_places >= 2  # the kills did land in a round with places taken
    lines = play(tmp_path, seed=99, kill_after=None)
    resumed = places_of(lines[0])
    assert resumed in (taken, [*taken, holding])
    [over] = [line for line in lines if line.startswith("over ")]
    final = places_of(over)  # the kept round played on to its end, its places first
    assert final[: len(resumed)] == resumed and sorted(final) == [1, 2, 3, 4]
