"""Files the daemon reads never stop it: a damaged, hostile or impossible settings file, cards-
owed file or config gets a one-line message, is set aside as NAME.bad where it can be, shows on
the LCD, and the table starts on defaults."""

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.commands.cli import CONFIG_BAD, config_or_defaults, main
from controller.config import Config
from controller.settings import Settings
from controller.simulation.table import SimTable
from controller.storage import owed
from controller.storage.owed import OWED_DAMAGED
from controller.storage.settings_store import SettingsStore
from controller.storage.statefile import MAX_BYTES

# Its tests take long in all: the file starts first (tests/conftest.py).
pytestmark = pytest.mark.long

DEEP = b"[" * 50_000 + b"]" * 50_000
LONG_NUMBER = b"9" * 5_000

# settings.json as the issue found it stopping the daemon, and its relatives.
BAD_SETTINGS = {
    "two minus signs": b'{"turn_timer": "--3"}',
    "a superscript digit": '{"turn_timer": "²"}'.encode(),
    "deep nesting": DEEP,
    "a 5000-digit number": b'{"turn_timer": ' + LONG_NUMBER + b"}",
    "a huge number in a value": b'{"turn_timer": [' + LONG_NUMBER + b"]}",
    "a boolean": b'{"turn_timer": true}',
    "a float": b'{"turn_timer": 6.0}',
    "NaN": b'{"turn_timer": NaN}',
    "not UTF-8": b'{"turn_timer": "\xff"}',
    "a list": b"[1, 2]",
    "truncated": b'{"turn_timer": 9, "pick',
    "too large": b'{"picker": "' + b"x" * 300_000 + b'"}',
}
# What the log and the shell say is wrong with each.
ALLOWED = "allowed: off, 2-30 s, surprise"
SAID = {
    "two minus signs": f"turn_timer cannot be '--3'; {ALLOWED}",
    "a superscript digit": f"turn_timer cannot be '²'; {ALLOWED}",
    "deep nesting": "nested deeper than 16",
    "a 5000-digit number": "a number longer than 20 characters",
    "a huge number in a value": "a number longer than 20 characters",
    "a boolean": f"turn_timer cannot be true; {ALLOWED}",
    "a float": f"turn_timer cannot be 6.0; {ALLOWED}",
    "NaN": "NaN is not a number JSON allows",
    "not UTF-8": "not UTF-8 text",
    "a list": "not a table of settings",
    "truncated": "not valid JSON (Unterminated string starting at, line 1)",
    "too large": f"larger than {MAX_BYTES} bytes",
}
# What is wrong with the whole file (it is set aside), or only with one value (it is not).
WHOLE_FILE = {
    "deep nesting",
    "a 5000-digit number",
    "a huge number in a value",
    "NaN",
    "not UTF-8",
    "a list",
    "truncated",
    "too large",
}


def owed_file(*slots: bytes) -> bytes:
    """A cards-owed file with these two slots, as the daemon lays it out."""
    data = bytearray(b" " * (owed.FILE_SIZE - 1) + b"\n")
    for offset, slot in zip(owed.SLOT_OFFSETS, slots, strict=True):
        data[offset : offset + len(slot)] = slot
    return bytes(data)


def slot_of(seq: object, cards: object, fault: object = None) -> bytes:
    """A slot with a right checksum for whatever values it is given."""
    body = f'"seq": {json.dumps(seq)}, "owed": {json.dumps(cards)}, "fault": {json.dumps(fault)}'
    return ("{" + body + f', "check": {zlib.crc32(body.encode())}' + "}").encode()


GOOD_OWED = owed_file(slot_of(1, 3, "jam"), slot_of(2, 2, "jam"))
BAD_OWED = {
    "deep nesting": DEEP,
    "a 5000-digit number": b'{"owed": ' + LONG_NUMBER + b"}",
    "a million cards": owed_file(slot_of(1, 1_000_000), slot_of(2, 1_000_000)),
    "true for a count": owed_file(slot_of(1, True), slot_of(2, True)),
    "a negative count": owed_file(slot_of(1, -3), slot_of(2, -3)),
    "an unknown fault": owed_file(slot_of(1, 2, "fire"), slot_of(2, 2, "fire")),
    "text for a sequence": owed_file(slot_of("1", 3), slot_of("2", 2)),
    "both slots torn": owed_file(slot_of(1, 3)[:20], slot_of(2, 2)[:30]),
    "checksums wrong": owed_file(slot_of(1, 3).replace(b"3", b"4"), slot_of(2, 2)[::-1]),
    "the old JSON file": b'{"owed": 3, "fault": null}',
    "a fault with a long name": owed_file(slot_of(1, 2, "f" * 60), slot_of(2, 2, "f" * 60)),
}
NO_RECORD = "a whole record no table writes: "
OWED_SAID = {
    "deep nesting": f"larger than {owed.FILE_SIZE} bytes",
    "a 5000-digit number": f"larger than {owed.FILE_SIZE} bytes",
    "a million cards": NO_RECORD + '"seq": 1, "owed": 1000000, "fault": null',
    "true for a count": NO_RECORD + '"seq": 1, "owed": true, "fault": null',
    "a negative count": NO_RECORD + '"seq": 1, "owed": -3, "fault": null',
    "an unknown fault": NO_RECORD + '"seq": 1, "owed": 2, "fault": "fire"',
    "text for a sequence": NO_RECORD + '"seq": "1", "owed": 3, "fault": null',
    "both slots torn": "no whole record of 0 to 108 cards",
    "checksums wrong": "no whole record of 0 to 108 cards",
    "the old JSON file": f"not {owed.FILE_SIZE} bytes long",
    # The record in the log is cut at 80 characters.
    "a fault with a long name": NO_RECORD + '"seq": 1, "owed": 2, "fault": "' + "f" * 49,
}

BAD_CONFIGS = {
    "deep nesting": "[settings]\nturn_timer = " + "[" * 5_000 + "]" * 5_000,
    "a 5000-digit integer": "[table]\nseats = " + "9" * 5_000,
    "two minus signs": '[settings]\nturn_timer = "--3"',
    "a superscript digit": '[settings]\nturn_timer = "²"',
    "an I2C address below 0x03": "[lcd]\ni2c_address = -5",
    "an I2C address above 0x77": "[lcd]\ni2c_address = 300",
    "an I2C port out of range": "[lcd]\ni2c_port = 1000",
    "a gpio chip out of range": "[gpio]\nchip = -1",
    "a huge pin number": "[pins]\nslap = " + "9" * 40,
}


START_LIMIT = 60.0  # seconds: far more than a start takes on a loaded machine
RUN_SIM = (sys.executable, "-m", "controller", "run", "--sim", "--seed", "1")


def run_sim(state_dir: Path, *options: str) -> tuple[int, str]:
    """`flashtable run --sim` as a process, until it is up, then SIGTERM: (status, output)."""
    process = subprocess.Popen(
        [*RUN_SIM, "--state-dir", str(state_dir), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # A table that hangs before it is up is killed, and fails below for want of its lines.
    hung = threading.Timer(START_LIMIT, process.kill)
    hung.start()
    try:
        lines = []
        for line in process.stdout:
            lines.append(line)
            if "mock pins, seed 1" in line:
                break
        process.send_signal(signal.SIGTERM)
        rest, _ = process.communicate(timeout=30)
    finally:
        hung.cancel()
        process.kill()
    return process.returncode, "".join(lines) + rest


def assert_started(status: int, out: str) -> None:
    assert "Traceback" not in out
    assert "mock pins, seed 1" in out and "stopped" in out
    assert status == 0


async def lcd_after_start(state_dir: Path, config: Config | None = None) -> tuple[str, str]:
    async with SimTable(config, seed=1, state_dir=state_dir) as table:
        return table.lcd


def on_lcd(lines: tuple[str, str]) -> tuple[str, str]:
    """Two lines as the 16-column LCD holds them."""
    first, second = lines
    return first.ljust(16), second.ljust(16)


@pytest.mark.parametrize("case", BAD_SETTINGS)
def test_a_bad_settings_file_never_stops_the_daemon(tmp_path, case):
    path = tmp_path / "settings.json"
    path.write_bytes(BAD_SETTINGS[case])
    status, out = run_sim(tmp_path)
    assert_started(status, out)
    assert "settings.json" in out  # the log says what was wrong with it
    assert (tmp_path / "settings.json.bad").exists() == (case in WHOLE_FILE)


@pytest.mark.parametrize("case", BAD_SETTINGS)
def test_a_bad_settings_file_is_named_with_what_is_wrong_with_it_in_one_line(tmp_path, case):
    path = tmp_path / "settings.json"
    path.write_bytes(BAD_SETTINGS[case])
    [problem] = SettingsStore(tmp_path, Settings()).load().problems
    if case in WHOLE_FILE:
        assert problem == f"{path}: {SAID[case]}; kept as settings.json.bad; defaults used"
    else:
        assert problem == SAID[case]


@pytest.mark.parametrize("case", BAD_SETTINGS)
async def test_a_bad_settings_file_is_shown_on_the_lcd(tmp_path, case):
    (tmp_path / "settings.json").write_bytes(BAD_SETTINGS[case])
    expected = (
        ("Settings damaged", "defaults in use")
        if case in WHOLE_FILE
        else ("Bad setting kept", "at its old value")
    )
    assert await lcd_after_start(tmp_path) == on_lcd(expected)


def _symlink_loop(path: Path) -> None:
    path.symlink_to(path.name)


ODD_FILES = {
    "a directory": lambda path: path.mkdir(),
    "a symbolic link loop": _symlink_loop,
    "a FIFO": lambda path: os.mkfifo(path),
    "a link to /dev/zero": lambda path: path.symlink_to("/dev/zero"),
}


@pytest.mark.parametrize("case", ODD_FILES)
@pytest.mark.parametrize("name", ["settings.json", owed.FILE_NAME])
def test_a_state_file_that_is_not_a_file_is_set_aside_and_never_hangs(tmp_path, case, name):
    ODD_FILES[case](tmp_path / name)
    status, out = run_sim(tmp_path)
    assert_started(status, out)
    assert f"{name}: " in out
    assert os.path.lexists(tmp_path / f"{name}.bad")
    path = tmp_path / name  # gone, or made anew as the daemon's own file
    assert not os.path.lexists(path) or (path.is_file() and not path.is_symlink())


@pytest.mark.parametrize("case", BAD_OWED)
def test_a_bad_cards_owed_file_is_named_with_what_is_wrong_with_it(tmp_path, case):
    path = tmp_path / owed.FILE_NAME
    path.write_bytes(BAD_OWED[case])
    kept = owed.OwedFile(tmp_path, on_kept=lambda: None, background=False)
    assert str(kept.problem) == f"{path}: {OWED_SAID[case]}; kept as {path.name}.bad"
    kept.close()


def test_a_fault_kept_with_no_card_owed_is_no_fault(tmp_path):
    """A jam or an empty hopper holds the launcher only while cards are owed."""
    (tmp_path / owed.FILE_NAME).write_bytes(owed_file(slot_of(1, 0, "jam"), slot_of(2, 0, "jam")))
    kept = owed.OwedFile(tmp_path, on_kept=lambda: None, background=False)
    assert (kept.at_start, kept.problem) == ((0, None), None)
    kept.close()


@pytest.mark.parametrize("case", BAD_OWED)
async def test_a_bad_cards_owed_file_deals_nothing_and_says_so(tmp_path, case):
    (tmp_path / owed.FILE_NAME).write_bytes(BAD_OWED[case])
    async with SimTable(seed=1, state_dir=tmp_path) as table:
        assert table.lcd == on_lcd(OWED_DAMAGED)
        await table.advance(10.0)
        assert table.cards_out == 0
    assert (tmp_path / f"{owed.FILE_NAME}.bad").read_bytes() == BAD_OWED[case]


async def test_a_state_directory_that_cannot_be_made_is_shown_and_play_goes_on(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    async with SimTable(seed=1, state_dir=blocker / "state") as table:
        assert table.lcd == on_lcd(("Not saving:", "not a folder"))
        await table.tap("seat1")
        await table.tap("seat2")
        await table.tap("play_pause")
        assert len(table.lit()) == 1


def test_settings_save_on_a_file_for_a_state_directory_fails_in_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    assert main(["settings", "set", "turn_timer=4", "--state-dir", str(blocker)]) == 1
    err = capsys.readouterr().err
    assert err.endswith(f"flashtable: cannot save {blocker}/settings.json: not a directory\n")
    assert "Traceback" not in err


@pytest.mark.parametrize("case", BAD_CONFIGS)
def test_a_bad_config_is_one_line_for_the_shell_and_the_defaults_for_the_daemon(
    tmp_path, capsys, case
):
    path = tmp_path / "flashtable.toml"
    path.write_text(BAD_CONFIGS[case], encoding="utf-8")
    assert main(["check-config", "--config", str(path)]) == 1
    assert main(["settings", "--config", str(path), "--state-dir", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 2 and err.startswith(f"flashtable: {path}: ")
    assert len(err) < 400
    assert config_or_defaults(path) == (Config(), [CONFIG_BAD])


@pytest.mark.parametrize("case", ["a FIFO", "a link to /dev/zero", "a directory"])
def test_a_config_that_is_not_a_file_never_hangs(tmp_path, capsys, case):
    path = tmp_path / "flashtable.toml"
    ODD_FILES[case](path)
    assert main(["check-config", "--config", str(path)]) == 1
    assert "not a regular file" in capsys.readouterr().err
    status, out = run_sim(tmp_path, "--config", str(path))
    assert_started(status, out)
    assert "not a regular file" in out and "the defaults are used" in out


def test_the_daemon_starts_on_defaults_with_a_config_it_cannot_use(tmp_path):
    path = tmp_path / "flashtable.toml"
    path.write_text(BAD_CONFIGS["deep nesting"], encoding="utf-8")
    status, out = run_sim(tmp_path / "state", "--config", str(path))
    assert_started(status, out)
    assert f"{path}: nested deeper than 16; the defaults are used" in out


# -- generated damage ------------------------------------------------------------------

GOOD_SETTINGS = json.dumps({"turn_timer": 8, "picker": "fair", "volume": "low"}).encode()
GOOD_CONFIG = Path(__file__).parents[2].joinpath("docs", "config.md").read_text(encoding="utf-8")
GOOD_CONFIG = GOOD_CONFIG.split("```toml\n", 1)[1].split("```", 1)[0]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)


def damaged(good: bytes) -> st.SearchStrategy[bytes]:
    """A good file cut short, with bytes flipped or inserted, or random bytes altogether."""
    cut = st.integers(0, len(good)).map(lambda n: good[:n])
    flipped = st.tuples(st.integers(0, len(good) - 1), st.integers(0, 255)).map(
        lambda f: good[: f[0]] + bytes([f[1]]) + good[f[0] + 1 :]
    )
    inserted = st.tuples(st.integers(0, len(good)), st.binary(min_size=1, max_size=8)).map(
        lambda f: good[: f[0]] + f[1] + good[f[0] :]
    )
    return cut | flipped | inserted | st.binary(max_size=64)


state_files = (
    damaged(GOOD_SETTINGS)
    | damaged(GOOD_OWED)
    | json_values.map(lambda v: json.dumps(v).encode())
    | st.dictionaries(st.sampled_from(["owed", "fault", "turn_timer", "mode"]), json_values).map(
        lambda v: json.dumps(v).encode()
    )
)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_bytes=state_files, owed_bytes=state_files)
def test_generated_damaged_state_files_never_stop_the_table(settings_bytes, owed_bytes):
    with tempfile.TemporaryDirectory() as name:
        state_dir = Path(name)
        (state_dir / "settings.json").write_bytes(settings_bytes)
        (state_dir / owed.FILE_NAME).write_bytes(owed_bytes)
        lines = asyncio.run(lcd_after_start(state_dir))
        assert all(len(line) == 16 for line in lines)
        for path in state_dir.glob("*.bad"):  # whatever was set aside is what was there
            original = settings_bytes if path.name == "settings.json.bad" else owed_bytes
            assert path.read_bytes() == original


toml_values = st.recursive(
    st.booleans().map(lambda b: str(b).lower())
    | st.integers().map(str)
    | st.floats(allow_nan=False).map(repr)
    | st.text(max_size=8).map(json.dumps),
    lambda inner: st.lists(inner, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
    max_leaves=8,
)

configs = damaged(GOOD_CONFIG.encode()) | st.tuples(
    st.sampled_from(["table", "gpio", "lcd", "pins", "settings", "mqtt"]),
    st.sampled_from(["id", "seats", "chip", "i2c_address", "i2c_port", "slap", "turn_timer"]),
    toml_values,
).map(lambda t: f"[{t[0]}]\n{t[1]} = {t[2]}\n".encode())


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=configs)
def test_generated_bad_configs_get_one_line_and_the_daemon_its_defaults(text):
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "flashtable.toml"
        path.write_bytes(text)
        out, err = _run_main(["check-config", "--config", str(path)])
        if err:
            assert err.count("\n") == 1 and err.startswith("flashtable: ")
        else:
            assert ": ok, table" in out
        out, err = _run_main(["settings", "--config", str(path), "--state-dir", name])
        assert not err or (err.count("\n") == 1 and err.startswith("flashtable: "))
        config, notices = config_or_defaults(path)
        assert notices in ([], [CONFIG_BAD])
        asyncio.run(lcd_after_start(Path(name), config))


def _run_main(argv: list[str]) -> tuple[str, str]:
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    assert status == (1 if err.getvalue() else 0)
    return out.getvalue(), err.getvalue()
