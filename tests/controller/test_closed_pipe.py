"""A command whose output goes into a pipe that its reader has closed (`| head -1`) stops
quietly, as Unix tools do: no traceback, the status a shell shows for a closed pipe."""

import os
import subprocess
import sys

import pytest

from controller.commands.closed_pipe import PIPE_CLOSED


@pytest.mark.parametrize(
    ("argv", "status"),
    [
        (["settings", "--sim", "--state-dir", "STATE"], PIPE_CLOSED),
        (["check-config"], PIPE_CLOSED),
        (["sim", "--headless", "--seed", "1", "--script", "SCRIPT"], PIPE_CLOSED),
        # argparse drops a help text it cannot write by itself, and exits as for any help.
        (["--help"], 0),
    ],
    ids=["settings", "check-config", "headless-sim", "help"],
)
def test_output_into_a_closed_pipe_stops_quietly(tmp_path, argv, status):
    script = tmp_path / "round.txt"
    script.write_text("tap seat1 seat2 play_pause\nwait 1\ntap lit\n")
    places = {"SCRIPT": str(script), "STATE": str(tmp_path)}
    argv = [places.get(a, a) for a in argv]
    reader, writer = os.pipe()
    os.close(reader)  # the reader has gone before a line is written: every write fails
    try:
        done = subprocess.run(
            [sys.executable, "-m", "controller", *argv],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(writer)
    assert done.stderr == ""
    assert done.returncode == status
