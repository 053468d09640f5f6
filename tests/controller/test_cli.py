"""`flashtable --help` and its commands explain themselves; usage errors exit 2."""

import os
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


def run_sim(*options: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "controller", "run", "--sim", "--seed", "1", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_run_sim_starts_and_stops_cleanly_on_sigterm(tmp_path):
    """The real daemon on simulated pins, as a process: up, then SIGTERM, exit 0."""
    process = run_sim("--state-dir", str(tmp_path))
    try:
        first = process.stdout.readline()
        assert "table table1: 6 seats, mock pins, seed 1" in first  # the launcher table
        process.terminate()
        out, _ = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0
    assert "stopped" in out


def test_settings_are_shown_set_and_reset_from_the_shell(tmp_path, capsys):
    state = ["--state-dir", str(tmp_path)]
    assert main(["settings", "set", "turn_timer=8s", "picker=fair", *state]) == 0
    out = capsys.readouterr().out
    assert "* turn_timer         8 s" in out
    assert "* picker             fair" in out
    assert str(tmp_path / "settings.json") in out

    assert main(["settings", "set", "turn_timer=99", *state]) == 1
    assert "turn_timer cannot be '99'; allowed: off, 2-30 s" in capsys.readouterr().err
    assert main(["settings", "set", "turn_timer", *state]) == 1
    assert "'turn_timer' is not KEY=VALUE" in capsys.readouterr().err

    assert main(["settings", *state]) == 0
    assert "* turn_timer         8 s" in capsys.readouterr().out
    assert main(["settings", "reset", *state]) == 0
    assert "  turn_timer         6 s" in capsys.readouterr().out


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can write a file for another user")
def test_settings_set_as_root_leave_a_file_the_daemons_user_owns(tmp_path, capsys):
    daemon_user, daemon_group = 4242, 4243  # the owner of an installed table's state directory
    os.chown(tmp_path, daemon_user, daemon_group)
    for action in (["set", "turn_timer=8"], ["reset"]):
        assert main(["settings", *action, "--state-dir", str(tmp_path)]) == 0
        written = (tmp_path / "settings.json").stat()
        assert (written.st_uid, written.st_gid) == (daemon_user, daemon_group)
        assert written.st_mode & 0o777 == 0o640
