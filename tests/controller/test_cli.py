"""`flashtable --help` and its commands explain themselves; usage errors exit 2."""

import subprocess
import sys

import pytest

from controller.cli import main


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], ["run", "sim", "check-config"]),
        (["run"], ["--sim", "--config", "--state-dir", "--seed", "SIGTERM"]),
        (["check-config"], ["--config", "exits 1"]),
        (["sim"], ["--seed", "--seats", "--time-scale", "--headless", "--script"]),
    ],
)
def test_help_is_useful(capsys, argv, words):
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for word in words:
        assert word in out


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as done:
        main(["dance"])
    assert done.value.code == 2
    with pytest.raises(SystemExit) as done:
        main(["sim", "--headless"])
    assert done.value.code == 2
    assert "--headless and --script go together" in capsys.readouterr().err


def test_run_sim_starts_and_stops_cleanly_on_sigterm(tmp_path):
    """The real daemon on simulated pins, as a process: up, then SIGTERM, exit 0."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "controller",
            "run",
            "--sim",
            "--seed",
            "1",
            "--config",
            str(tmp_path / "none.toml"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 1
    assert "no such file" in out

    process = subprocess.Popen(
        [sys.executable, "-m", "controller", "run", "--sim", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        first = process.stdout.readline()
        assert "table table1: 8 seats, mock pins, seed 1" in first
        process.terminate()
        out, _ = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0
    assert "stopped" in out
