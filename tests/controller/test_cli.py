"""`flashtable --help` and its commands explain themselves; usage errors exit 2."""

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from controller import catalogs
from controller.commands.cli import main
from controller.commands.run import CANNOT_START, run_daemon
from controller.config import Config
from controller.storage.statefile import MAX_BYTES


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], ["run", "sim", "check-config"]),
        (["run"], ["--sim", "--config", "--state-dir", "--seed", "SIGTERM"]),
        (["check-config"], ["--config", "exits 1"]),
        (["sim"], ["--seed", "--seats", "--time-scale", "--headless", "--script", "--launcher"]),
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
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        main(["sim", "--headless"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    # The sim command's own usage, not the top level's, and what is missing.
    assert err.startswith("usage: flashtable sim ")
    assert err.endswith("flashtable sim: error: --headless needs a --script FILE to play\n")


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
    assert "turn_timer cannot be '99'; allowed: off, 2-30 s, surprise" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:  # a malformed command line is a usage error
        main(["settings", "set", "turn_timer", *state])
    assert done.value.code == 2
    assert "'turn_timer' is not KEY=VALUE: write turn_timer=VALUE" in capsys.readouterr().err

    assert main(["settings", *state]) == 0
    assert "* turn_timer         8 s" in capsys.readouterr().out
    assert main(["settings", "reset", *state]) == 0
    assert "  turn_timer         6 s" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("damaged", "said"),
    [
        (b'{"turn_timer": ', "not valid JSON"),
        (b"[6]", "not a table of settings"),
        (b" " * (MAX_BYTES + 1), f"larger than {MAX_BYTES} bytes"),
    ],
    ids=["truncated", "a list", "too large"],
)
def test_showing_damaged_settings_changes_nothing_and_a_change_sets_the_file_aside(
    tmp_path, capsys, damaged, said
):
    state = ["--state-dir", str(tmp_path)]
    (tmp_path / "settings.json").write_bytes(damaged)
    assert main(["settings", "show", *state]) == 0
    err = capsys.readouterr().err
    assert f"settings.json: {said}" in err and "left in place; defaults used" in err
    assert (tmp_path / "settings.json").read_bytes() == damaged
    assert not (tmp_path / "settings.json.bad").exists()

    assert main(["settings", "set", "turn_timer=8", *state]) == 0
    assert "kept as settings.json.bad; defaults used" in capsys.readouterr().err
    assert (tmp_path / "settings.json.bad").read_bytes() == damaged
    assert json.loads((tmp_path / "settings.json").read_text()) == {"turn_timer": 8}


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can write a file for another user")
def test_settings_set_as_root_leave_a_file_the_daemons_user_owns(tmp_path, capsys):
    daemon_user, daemon_group = 4242, 4243  # the owner of an installed table's state directory
    os.chown(tmp_path, daemon_user, daemon_group)
    for action in (["set", "turn_timer=8"], ["reset"]):
        assert main(["settings", *action, "--state-dir", str(tmp_path)]) == 0
        written = (tmp_path / "settings.json").stat()
        assert (written.st_uid, written.st_gid) == (daemon_user, daemon_group)
        assert written.st_mode & 0o777 == 0o640


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (
            ["settings", "set", "turn_timer", "5"],
            "'turn_timer' is not KEY=VALUE: write turn_timer=5",
        ),
        (
            ["settings", "set", "jump_in=on", "turn_timer", "5"],
            "'turn_timer' is not KEY=VALUE: write turn_timer=5",
        ),
        (
            ["settings", "set", "turn_timer", "jump_in=on"],
            "'turn_timer' is not KEY=VALUE: write turn_timer=VALUE",
        ),
        (["settings", "set"], "nothing to set: give KEY=VALUE, e.g. turn_timer=6"),
        (["settings", "set", "=5"], "'=5' is not KEY=VALUE: write KEY=VALUE"),
        (["settings", "reset", "picker=fair"], "'reset' takes no KEY=VALUE"),
        (["fleet", "set", "mode", "flash", "--all"], "'mode' is not KEY=VALUE: write mode=flash"),
    ],
)
def test_a_malformed_change_exits_2_showing_the_right_form(tmp_path, capsys, argv, error):
    """Before any file or broker is touched: the words, not the table, are wrong."""
    where = ["--config", str(tmp_path / "absent.toml")]  # no broker: fleet would exit 1
    if argv[0] == "settings":
        where = ["--state-dir", str(tmp_path)]
    with pytest.raises(SystemExit) as done:
        main([*argv, *where])
    assert done.value.code == 2
    err = capsys.readouterr().err
    command = " ".join(argv[: 2 if argv[0] == "fleet" else 1])
    assert err.startswith(f"usage: flashtable {command} ")
    assert err.splitlines()[-1] == f"flashtable {command}: error: {error}"
    assert list(tmp_path.iterdir()) == []


def test_every_min_max_pair_is_refused_the_wrong_way_round(tmp_path, capsys):
    state = ["--state-dir", str(tmp_path)]
    for low, high in (("custom_min", "custom_max"), ("surprise_min", "surprise_max")):
        assert main(["settings", "set", f"{low}=10", f"{high}=2", *state]) == 1
        out, err = capsys.readouterr()
        assert out == ""
        assert err == f"flashtable: {low} (10) cannot be above {high} (2)\n"
    assert not (tmp_path / "settings.json").exists()  # nothing was kept
    # One bound past the other's value is refused too, naming both: a change never moves a
    # setting it does not name.
    assert main(["settings", "set", "custom_min=10", *state]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "flashtable: custom_min (10) cannot be above custom_max (8)\n"
    assert not (tmp_path / "settings.json").exists()
    assert main(["settings", "set", "custom_min=10", "custom_max=10", *state]) == 0
    out = capsys.readouterr().out
    assert "* custom_min         10 cards" in out and "* custom_max         10 cards" in out


def test_check_config_refuses_crossed_bounds_and_an_impossible_i2c_address(tmp_path, capsys):
    for text, reason in (
        ("[settings]\ncustom_min = 10\ncustom_max = 2\n", "custom_min (10) cannot be above"),
        ("[lcd]\ni2c_address = 300\n", "lcd.i2c_address must be 0x03 to 0x77, not 300"),
    ):
        path = tmp_path / "flashtable.toml"
        path.write_text(text)
        assert main(["check-config", "--config", str(path)]) == 1
        out, err = capsys.readouterr()
        assert out == "" and reason in err and err.count("\n") == 1


def test_settings_say_which_table_and_file_they_change(tmp_path, capsys, monkeypatch):
    import controller.commands.cli

    sim_dir = tmp_path / "sim"
    monkeypatch.setattr(controller.commands.cli, "SIM_STATE_DIR", sim_dir)
    assert main(["settings", "--sim", "set", "picker=fair"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"Settings of the simulated table, kept in {sim_dir / 'settings.json'}"
    assert main(["settings", "--state-dir", str(tmp_path), "show"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"Settings of the table, kept in {tmp_path / 'settings.json'}"


def test_settings_on_a_machine_without_a_table_say_so_and_create_nothing(
    tmp_path, capsys, monkeypatch
):
    import controller.commands.cli
    import controller.commands.settings_command

    missing = tmp_path / "var-lib-flashtable"
    monkeypatch.setattr(controller.commands.cli, "DEFAULT_STATE_DIR", missing)
    monkeypatch.setattr(controller.commands.settings_command, "DEFAULT_STATE_DIR", missing)
    for words in (["set", "picker=fair"], ["reset"], []):
        assert main(["settings", *words]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err == (
            f"flashtable: {missing} does not exist: no table is installed here "
            "(for the simulated table: --sim)\n"
        )
    assert not missing.exists()


async def test_the_simulated_table_reads_what_settings_sim_set(tmp_path, capsys, monkeypatch):
    import controller.commands.cli
    from controller.config import Config
    from controller.simulation.table import SimTable

    monkeypatch.setattr(controller.commands.cli, "SIM_STATE_DIR", tmp_path)
    assert main(["settings", "--sim", "set", "turn_timer=12"]) == 0
    async with SimTable(Config(), state_dir=tmp_path) as table:
        assert table.lcd[0] == "Table  timer 12s"


def test_the_interactive_sim_keeps_its_settings_where_run_sim_does(monkeypatch):
    import controller.commands.cli
    import controller.tui

    seen = {}
    monkeypatch.setattr(controller.tui, "run_view", lambda config, **kw: seen.update(kw) or 0)
    assert main(["sim", "--seed", "1"]) == 0
    assert seen["state_dir"] == controller.commands.cli.SIM_STATE_DIR
    assert main(["sim", "--seed", "1", "--state-dir", "/tmp/elsewhere"]) == 0
    assert str(seen["state_dir"]) == "/tmp/elsewhere"


def test_help_says_how_a_round_ends_how_a_seat_is_left_what_slap_is_and_long_presses_do(capsys):
    for argv in (["--help"], ["sim", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        out = capsys.readouterr().out
        assert "hold it 2 s    hand empty: round over (finish = places: you are out)" in out
        assert "before a round: join; press again to leave" in out
        assert "hold it 0.6 s  not your turn: jump in" in out
        assert "push held 1 s  in the menu: back" in out
        assert "SLAP           played SLAP? press it; others race, the slowest draws" in out


COMMANDS = [
    [],
    ["run"],
    ["sim"],
    ["settings"],
    ["check-config"],
    ["outputs-off"],
    ["fleet", "set"],
    ["firmware-sim"],
]


@pytest.mark.parametrize("width", [50, 64, 80, 100, 132])
def test_help_never_breaks_a_word_at_its_hyphen(capsys, monkeypatch, width):
    monkeypatch.setenv("COLUMNS", str(width))
    for command in COMMANDS:
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        out = capsys.readouterr().out
        assert not re.search(r"[a-z]-\n", out), (command, out)
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    assert "docs/sim-script.md" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("command", "stream"), [("run", "standard output"), ("firmware-sim", "standard error")]
)
def test_log_level_help_names_where_the_log_goes(capsys, monkeypatch, command, stream):
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert f"how much to log to {stream} (default: info)" in capsys.readouterr().out


def without_gpiod(monkeypatch) -> None:
    """As on a machine where libgpiod's bindings are not installed."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.delitem(sys.modules, "hardware.gpiod_pins", raising=False)
    monkeypatch.setitem(sys.modules, "gpiod", None)


def test_a_daemon_whose_install_lacks_a_catalog_says_so_at_its_start(caplog, monkeypatch, tmp_path):
    without_gpiod(monkeypatch)  # a start that goes no further: no pins here
    monkeypatch.setattr(catalogs, "missing", lambda: [tmp_path / "de/LC_MESSAGES/web.mo"])
    assert asyncio.run(run_daemon(Config(), tmp_path, simulated=False, seed=1)) == CANNOT_START
    notes = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert notes == [
        f"{tmp_path}/de/LC_MESSAGES/web.mo is missing (the install compiles it): its texts "
        "show in English"
    ]


def test_run_on_a_former_pin_factory_logs_that_it_plays_on_the_chip(caplog, monkeypatch, tmp_path):
    without_gpiod(monkeypatch)
    config = Config(pin_factory="lgpio")
    assert asyncio.run(run_daemon(config, tmp_path, simulated=False, seed=1)) == CANNOT_START
    notes = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert notes == [
        "pin factory 'lgpio' is now the table's own gpiod pins, on the same GPIO chip:"
        ' write factory = "gpiod" in [gpio], or leave it out'
    ]


def test_run_without_the_pins_backend_says_that_sim_runs_here(capsys, monkeypatch, tmp_path):
    without_gpiod(monkeypatch)
    # Its own exit status, which the unit's RestartPreventExitStatus= names: no restarts.
    assert asyncio.run(run_daemon(Config(), tmp_path, simulated=False, seed=1)) == CANNOT_START
    err = capsys.readouterr().err
    assert err.startswith("flashtable: pin factory 'gpiod' is not installed (gpiod)")
    assert err.endswith(
        "pip install gpiod (on a Pi; elsewhere, --sim runs the table on simulated pins)\n"
    )
    assert err.count("\n") == 1


def test_a_table_that_cannot_start_leaves_the_reason_on_its_i2c_lcd(monkeypatch, tmp_path):
    import smbus2

    from tests.hardware.test_lcd import ADDRESS, Backpack

    backpack = Backpack()
    monkeypatch.setattr(smbus2, "SMBus", lambda port: backpack)
    without_gpiod(monkeypatch)
    config = Config(i2c_address=ADDRESS)
    assert asyncio.run(run_daemon(config, tmp_path, simulated=False, seed=1)) == CANNOT_START
    assert backpack.model.lines == ("Cannot start:   ", "GPIO missing    ")


def test_a_checkouts_simulated_table_keeps_its_state_in_that_checkout(tmp_path, monkeypatch):
    from controller.commands.cli import SIM_STATE_DIR, sim_state_dir

    root = Path(__file__).parents[2]
    assert root / ".sim-state" == SIM_STATE_DIR
    assert ".sim-state/" in (root / ".gitignore").read_text().splitlines()
    # installed from a package, it keeps the user's place
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    installed = tmp_path / "site-packages"
    (installed / "controller").mkdir(parents=True)
    assert sim_state_dir(installed) == tmp_path / "state" / "flashtable-sim"


async def test_a_fresh_checkout_opens_at_seating_whatever_another_table_kept(tmp_path, monkeypatch):
    from controller.commands.cli import sim_state_dir
    from controller.game.view import IDLE_JOIN
    from controller.simulation.table import SimTable

    # a game paused in the user's place, by another copy of the program
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    elsewhere = tmp_path / "state" / "flashtable-sim"
    async with SimTable(seed=1, state_dir=elsewhere) as table:
        for seat in ("seat1", "seat2", "play_pause"):
            await table.tap(seat)
        await table.tap("play_pause")
        assert table.daemon.table.phase.value == "paused"
    clone = tmp_path / "clone"
    (clone / "controller").mkdir(parents=True)
    (clone / "pyproject.toml").write_text('[project]\nname = "flashtable"\n')
    async with SimTable(seed=1, state_dir=sim_state_dir(clone)) as table:
        assert table.daemon.snapshots.resumed is None
        assert table.lcd[1].rstrip() == IDLE_JOIN


def test_settings_take_their_key_value_words_before_and_after_an_option(
    tmp_path, capsys, monkeypatch
):
    import controller.commands.cli

    monkeypatch.setattr(controller.commands.cli, "SIM_STATE_DIR", tmp_path)
    assert main(["settings", "set", "--sim", "turn_timer=8"]) == 0
    assert main(["settings", "set", "volume=low", "--sim", "picker=fair"]) == 0
    kept = json.loads((tmp_path / "settings.json").read_text())
    assert {key: kept[key] for key in ("turn_timer", "volume", "picker")} == {
        "turn_timer": 8,
        "volume": "low",
        "picker": "fair",
    }
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["settings", "set", "--sim", "turn_timer=7", "--bogus"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "usage: flashtable settings" in err and "unrecognized arguments: --bogus" in err


def test_a_busy_line_stops_the_table_naming_its_role_and_holder(monkeypatch, tmp_path, capsys):
    """w1-gpio's overlay holds GPIO4 by default, seat 1's button: the table says so and exits
    78, not restarted (docs/deploy.md, "When it does not play"). The chip's requests are a
    stand-in's: no kernel GPIO chip here."""
    import threading

    import smbus2

    from tests.hardware.gpiod_standin import Kernel
    from tests.hardware.test_lcd import ADDRESS, Backpack

    backpack = Backpack()
    monkeypatch.setattr(smbus2, "SMBus", lambda port: backpack)
    kernel = Kernel(monkeypatch)
    kernel.held[4] = "onewire@0"
    threads = threading.active_count()
    config = Config(i2c_address=ADDRESS)
    assert asyncio.run(run_daemon(config, tmp_path, simulated=False, seed=1)) == CANNOT_START
    assert capsys.readouterr().err == (
        "flashtable: cannot drive the table's pins: GPIO4 (seat1.button) on gpiochip0 is busy:"
        " 'onewire@0' holds it\n"
    )
    assert backpack.model.lines == ("Cannot start:   ", "pins fail       ")
    assert threading.active_count() == threads


def test_the_shell_keeps_a_change_in_a_state_directory_it_makes_with_its_parents(tmp_path, capsys):
    state_dir = tmp_path / "var" / "lib" / "flashtable"
    assert main(["settings", "set", "turn_timer=8", "--state-dir", str(state_dir)]) == 0
    assert json.loads((state_dir / "settings.json").read_text()) == {"turn_timer": 8}
