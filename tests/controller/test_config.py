"""The operator's config file and `flashtable check-config`."""

import os
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.config import Config, load, parse
from controller.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "flashtable.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_full_config_loads(tmp_path):
    config = load(
        write(
            tmp_path,
            """
[table]
id = "cafe-3"
seats = 6
[gpio]
factory = "gpiod"
chip = 4
[pins]
"play_pause" = 13
[settings]
turn_timer = "8s"
timeout_penalty = 1
""",
        )
    )
    assert (config.table_id, config.seats, config.gpio_chip) == ("cafe-3", 6, 4)
    assert config.settings.turn_timer == 8
    assert config.pinmap(simulated=False)["play_pause"] == 13


@pytest.mark.parametrize("chip", ["pinctrl-rp1", "/dev/gpiochip4", "gpio-sim.0-node0", 4])
def test_a_chip_is_named_by_its_number_path_or_label(tmp_path, chip):
    text = f"[gpio]\nchip = {chip!r}".replace("'", '"')
    assert load(write(tmp_path, text)).gpio_chip == chip


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[table]\nseats = 9", "table.seats must be 2 to 8"),
        ("[table]\nseats = 'six'", "table.seats must be a whole number, not 'six'"),
        ("[table]\nid = 7", "table.id must be text in quotes, not 7"),
        ("[lcd]\ni2c_address = 300", "lcd.i2c_address must be 0x03 to 0x77, not 300"),
        ("[settings]\nturn_timer = true", "turn_timer cannot be true; allowed: off, 2-30 s"),
        (
            "[settings]\ncustom_min = 10\ncustom_max = 2",
            "[settings] custom_min (10) cannot be above custom_max (2)",
        ),
        ("[table]\nid = 'a/b'", "table.id 'a/b'"),
        ("[tabel]\nseats = 4", "unknown section [tabel]"),
        ("[gpio]\nfactory = 'pigpio'", "gpio.factory must be one of"),
        ("[gpio]\nfactory = 'RPi.GPIO'", "gpio.factory must be one of gpiod, mock, not 'RPi"),
        ("[gpio]\nchip = 256", "gpio.chip must be 0 to 255"),
        ("[gpio]\nchip = 'pinctrl rp1; rm'", "gpio.chip 'pinctrl rp1; rm' must be a chip's"),
        ("[gpio]\nchip = true", "gpio.chip must be a number or text in quotes, not true"),
        ("[settings]\nturn_timer = 31", "turn_timer cannot be 31"),
        ("[settings]\ncolour = 'red'", "no setting named 'colour'"),
        ("[table\n", "not valid TOML"),
        ("[lcd]\ninterface = 'gpio'", "lcd.interface 'gpio' needs a pin for 'lcd.rs'"),
        ("[launcher]\nlink = 'usb'", "launcher.link must be gpio or serial, not 'usb'"),
        ("[launcher]\nlink = 'serial'", "launcher.link 'serial' needs launcher.port"),
        ("[launcher]\nport = 'socket://x:1'", "launcher.port must be a device under /dev/"),
        ("[launcher]\nport = '/dev/../etc/passwd'", "launcher.port must be a device under /dev/"),
        ("[launcher]\nbaud = 12345", "launcher.baud must be one of 9600"),
        ("[launcher]\nbaud = '115200'", "launcher.baud must be a whole number"),
        ("[launcher]\nspeed = 1", "unknown key 'speed' in [launcher]"),
    ],
)
def test_bad_configs_say_why(tmp_path, text, reason):
    with pytest.raises(ConfigError) as err:
        load(write(tmp_path, text))
    assert reason in str(err.value)
    assert str(tmp_path) in str(err.value)


@pytest.mark.parametrize(
    ("pins", "reason"),
    [
        ('"slap" = 4', "pin 4 is used twice: 'seat1.button' and 'slap'"),
        ('"seat9.light" = 5', "unknown role 'seat9.light'"),
        ('"slap" = 31', "pin 31 of 'slap' is outside GPIO 2-27"),
    ],
)
def test_check_config_rejects_bad_pin_maps_in_one_line(tmp_path, capsys, pins, reason):
    path = write(tmp_path, f"[pins]\n{pins}\n")
    assert main(["check-config", "--config", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert reason in err
    assert err.count("\n") == 1


def test_pin_roles_may_be_written_as_toml_dotted_keys_or_tables(tmp_path):
    quoted = load(write(tmp_path, '[table]\nseats = 6\n[pins]\n"encoder.push" = 19\n'))
    dotted = load(write(tmp_path, "[table]\nseats = 6\n[pins]\nencoder.push = 19\n"))
    table = load(write(tmp_path, "[table]\nseats = 6\n[pins.encoder]\npush = 19\n"))
    assert quoted.pins == dotted.pins == table.pins == {"encoder.push": 19}
    assert dotted.pinmap(simulated=False)["encoder.push"] == 19


def test_a_pin_role_given_both_quoted_and_dotted_is_refused(tmp_path):
    with pytest.raises(ConfigError, match=r"'seat1\.button' is given twice"):
        load(write(tmp_path, '[pins]\n"seat1.button" = 5\nseat1.button = 6\n'))


def test_check_config_accepts_a_good_file_and_prints_the_map(tmp_path, capsys):
    path = write(tmp_path, "[table]\nseats = 4\n")
    assert main(["check-config", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ok" in out
    assert "seat4.light" in out and "seat5.button" not in out


@pytest.mark.parametrize("former", ["lgpio", "rpigpio"])
def test_a_config_naming_a_former_pin_factory_is_good_and_check_config_says_what_runs(
    tmp_path, capsys, former
):
    path = write(tmp_path, f'[gpio]\nfactory = "{former}"\n')
    assert load(path).pin_factory == former
    assert main(["check-config", "--config", str(path)]) == 0
    note = f"  note: pin factory '{former}' is now the table's own gpiod pins, on the same GPIO"
    assert note in capsys.readouterr().out


def test_check_config_of_a_missing_file_fails(tmp_path, capsys):
    assert main(["check-config", "--config", str(tmp_path / "nope.toml")]) == 1
    assert capsys.readouterr().err == f"flashtable: {tmp_path}/nope.toml: no such file\n"


def test_check_config_without_a_file_checks_the_defaults(capsys, monkeypatch, tmp_path):
    import controller.commands.check_config
    import controller.config

    monkeypatch.setattr(controller.config, "DEFAULT_PATH", tmp_path / "absent.toml")
    monkeypatch.setattr(controller.commands.check_config, "DEFAULT_PATH", tmp_path / "absent.toml")
    assert main(["check-config"]) == 0
    assert "no config file: the defaults: ok" in capsys.readouterr().out


def test_the_documented_example_config_is_valid(tmp_path, capsys):
    doc = (Path(__file__).parents[2] / "docs" / "config.md").read_text(encoding="utf-8")
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    path = write(tmp_path, example)
    assert main(["check-config", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert "launcher.beam" in out and "GPIO26" in out


def test_the_simulated_table_is_by_default_a_table_that_can_be_built():
    simulated = Config().pinmap(simulated=True)
    assert simulated.seats == 6
    extras = ("play_pause", "launcher.motor.forward", "launcher.beam", "launcher.empty")
    assert all(role in simulated for role in extras)
    # The same wiring passes every check for a real Pi: its header, the LCD on I2C.
    on_a_pi = {role: simulated[role] for role in simulated.pins if not role.startswith("seat")}
    real = Config(seats=6, pins=on_a_pi).pinmap(simulated=False)
    assert real.pins == simulated.pins
    assert Config().pinmap(simulated=False).seats == 8  # a real table's default map


def test_a_config_file_without_seats_leaves_the_count_to_the_wiring():
    assert parse({"table": {"id": "t"}}).seats is None
    assert parse({"table": {"seats": 4}}).pinmap(simulated=True).seats == 4


def test_a_serial_launcher_is_configured_and_shown_by_check_config(tmp_path, capsys):
    port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614104032f3a2b-if00"
    path = write(tmp_path, f"[launcher]\nlink = 'serial'\nport = '{port}'\nbaud = 115200\n")
    config = load(path)
    assert (config.launcher.link, config.launcher.port, config.launcher.baud) == (
        "serial",
        port,
        115200,
    )
    assert load(None).launcher.link == "gpio"
    assert main(["check-config", "--config", str(path)]) == 0
    out, err = capsys.readouterr()
    assert f"launcher on a controller at {port}, 115200 baud" in out
    # Not plugged in now: still a usable config, with a warning that names the port.
    assert err == (
        f"flashtable: warning: {port} does not exist (controller unplugged?); "
        "the table opens it once it appears\n"
    )


def test_check_config_is_quiet_about_a_serial_port_that_exists(tmp_path, capsys):
    controller_end, table_end = os.openpty()
    try:
        port = os.ttyname(table_end)
        path = write(tmp_path, f"[launcher]\nlink = 'serial'\nport = '{port}'\n")
        assert main(["check-config", "--config", str(path)]) == 0
    finally:
        os.close(controller_end)
        os.close(table_end)
    out, err = capsys.readouterr()
    assert f"launcher on a controller at {port}, 115200 baud" in out
    assert err == ""


@pytest.mark.parametrize(
    "value",
    [
        "[" * 16 + "]" * 16,
        '"' + "[" * 40 + '"',
        "'" + "{" * 40 + "'",
        '"""\n' + "[" * 40 + '\n"""',
        "'''\n" + "[" * 40 + "\n'''",
        '"\\"' + "[" * 40 + '"',
        "1 # " + "[" * 40,
    ],
)
def test_brackets_in_strings_comments_or_within_the_bound_are_read(tmp_path, value):
    path = tmp_path / "flashtable.toml"
    path.write_text(f"[table]\nid = 'a'\n[lcd]\nnote = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load(path)
    assert "unknown key 'note'" in str(refused.value)  # read as TOML, then refused


@pytest.mark.parametrize("opening", ["[", "{a = "])
def test_nesting_past_the_bound_is_refused_before_tomllib_recurses(tmp_path, opening):
    closing = "]" if opening == "[" else "}"
    path = tmp_path / "flashtable.toml"
    path.write_text(f"[table]\nid = {opening * 17}1{closing * 17}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="nested deeper than 16"):
        load(path)
