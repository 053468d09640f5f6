"""Thousands of generated damaged state files and configs, through the parsers the daemon reads
them with: each gives a usable value or the one error its reader turns into a message, never
another exception. What is read is what the spec promises: a resumed game is paused, with its
seats, its turn and time left and the cards owed, and Play goes on with it; a setting is always
one of its allowed values, and what the file held intact survives. (test_damaged_files.py runs
fewer of them through the daemon and the commands themselves.) The counts are chosen so that
the file runs in a few seconds."""

import asyncio
import contextlib
import dataclasses
import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from controller import config
from controller.errors import DamagedFile, SettingError, UndecodableSnapshot
from controller.game import Phase, Press, Table, codec, render, step
from controller.game.state import MAX_OWED
from controller.settings import SETTINGS, Settings, setting
from controller.storage import owed, snapshot
from controller.storage.safe_read import parse_json
from controller.storage.settings_store import SettingsStore

from .test_damaged_files import (
    GOOD_CONFIG,
    GOOD_OWED,
    GOOD_SETTINGS,
    damaged,
    json_values,
    lcd_after_start,
)


def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, suppress_health_check=list(HealthCheck))


# A snapshot of a game in play, as the daemon writes it: four seats in a round for places,
# seat 4 out with 1st place, a turn running, cards owed to a seat, SLAP times, and the
# evening's standings after two rounds.
GOOD_SNAPSHOT = (
    (
        b'{"finish":"places","flashtable":"0.1.0","format":2,"launcher":{"cards_out":2,'
        b'"jams":0,"misses":0,"queue":[[3,2,"timeout"]]},"mode":"table","phase":"turn",'
        b'"picks":[1,3],"places":[4],"seated":[1,3,4,5],"stations":6,'
        b'"standings":{"rounds":2,"seats":{"1":[2,1,1,1,0,1,300,300],'
        b'"3":[2,1,1,3,2,2,900,400],"5":[1,0,0,0,0,0,0,null]}},'
        b'"stats":{"1":[2,0,0,0,7.5,1,250,250],"3":[1,1,0,2,6.0,0,0,null],'
        b'"4":[1,0,0,0,1.0,0,0,null],"5":[1,0,1,0,2.25,2,700,300]},'
        b'"summary":null,"turn":{"left":3.2,"played":2.8,"seat":5}}\n'
    )
    + json.dumps({"left": 3.1}).ljust(snapshot.CLOCK_LINE - 1).encode()
    + b"\n"
)


def resume(data: bytes) -> object:
    """What the daemon makes of snapshot bytes: a table, or the error that sets them aside."""
    fields, left = snapshot._split(data)
    return codec.decode(
        fields,
        settings=Settings({}),
        stations=6,
        has_launcher=True,
        now=NOW,
        rng=random.Random(1),
        left=left,
    )


NOW = 100.0
STATIONS = 6


def assert_resumed_playable(table: Table) -> None:
    """A table resumed from a snapshot is one the table can show and play on: a game in play
    comes back paused, lit for a seated player still in the round, with no negative time left
    and no more cards owed than a deck; Play continues that very turn with that time."""
    assert table.seated <= set(range(1, STATIONS + 1))
    assert all(len(line) <= 16 for line in render(table).lines)
    owed = table.launcher.queue
    assert sum(d.cards for d in owed) <= MAX_OWED
    assert all(d.cards > 0 and 1 <= d.seat <= STATIONS for d in owed)
    assert table.phase in (Phase.SEATING, Phase.PAUSED, Phase.EXTREME, Phase.ROUND_OVER)
    if table.phase is not Phase.PAUSED or table.turn is None:
        return
    seat, left = table.turn.seat, table.paused_left
    assert seat in table.seated and seat not in table.places
    assert left is None or left >= 0
    played, effects = step(table, Press("play_pause", NOW + 1), NOW + 1, random.Random(0))
    if left == 0:  # no time left: that very turn runs out at once
        timeouts = [e.data["seat"] for e in effects if getattr(e, "type", None) == "timeout"]
        assert timeouts == [seat]
        return
    assert played.phase is Phase.TURN and played.turn is not None
    assert played.turn.seat == seat
    if left is None:
        assert played.turn.deadline is None
    else:
        assert played.turn.deadline == pytest.approx(NOW + 1 + left)


def test_the_good_samples_are_good():
    """The damage below starts from files the readers take as they are."""
    good = resume(GOOD_SNAPSHOT)
    assert good.turn.seat == 5 and good.places == (4,) and good.standings.rounds == 2
    # Paused, with the seats, the turn and its time left (the clock line's, the newer), and
    # the cards owed.
    assert good.phase is Phase.PAUSED and good.seated == {1, 3, 4, 5}
    assert good.paused_left == pytest.approx(3.1)
    assert [(d.seat, d.cards) for d in good.launcher.queue] == [(3, 2)]
    assert_resumed_playable(good)
    assert owed._newest(GOOD_OWED)[1] == ((2, "jam"), None)
    assert isinstance(parse_json(GOOD_SETTINGS), dict)
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "flashtable.toml"
        path.write_text(GOOD_CONFIG, encoding="utf-8")
        assert config.load(path).seats == 6


@pytest.mark.parametrize("left", [-5.0, 0.0, 1.5, 3.2, 99.0])
def test_the_time_left_is_the_clock_lines_within_what_the_turn_had(left):
    """The clock line is newer than the turn's own figure, but never gives the turn more time
    than it had, nor less than none."""
    clock = json.dumps({"left": left}).ljust(snapshot.CLOCK_LINE - 1).encode() + b"\n"
    table = resume(GOOD_SNAPSHOT.split(b"\n")[0] + b"\n" + clock)
    assert table.paused_left == pytest.approx(max(0.0, min(left, 3.2)))
    assert_resumed_playable(table)


@examples(1000)
@given(st.binary(max_size=200) | damaged(GOOD_SETTINGS) | damaged(GOOD_SNAPSHOT))
def test_json_from_the_disk_is_a_value_or_damaged(data):
    try:
        value = parse_json(data)
    except DamagedFile as err:
        assert str(err) and "\n" not in str(err)
        return
    # The value is the file's own: what any JSON reader makes of those bytes.
    assert value == json.loads(data)


@examples(1000)
@given(damaged(GOOD_OWED) | st.binary(min_size=owed.FILE_SIZE, max_size=owed.FILE_SIZE))
def test_a_damaged_cards_owed_record_is_a_possible_count_or_damaged(data):
    try:
        _, ((cards, fault), _) = owed._newest(data)
    except DamagedFile:
        return
    assert 0 <= cards <= owed.MAX_OWED and fault in (None, "jam", "empty")
    assert fault is None or cards > 0


@examples(500)
@given(st.integers(0, owed.MAX_OWED), st.integers(0, owed.MAX_OWED), st.data())
def test_a_write_torn_anywhere_leaves_the_count_before_or_after_it(before, after, data):
    """A power cut in the middle of a slot's write: the record reads as either count."""
    seq = data.draw(st.integers(1, 10**18))
    file = bytearray(b" " * (owed.FILE_SIZE - 1) + b"\n")
    for n in (seq - 1, seq):
        offset = owed.SLOT_OFFSETS[n % 2]
        file[offset : offset + owed.SLOT_SIZE] = owed._slot(n, (before, None))
    new = owed._slot(seq + 1, (after, None))
    torn_at = data.draw(st.integers(0, owed.SLOT_SIZE))
    offset = owed.SLOT_OFFSETS[(seq + 1) % 2]
    file[offset : offset + torn_at] = new[:torn_at]
    _, ((cards, _), _) = owed._newest(bytes(file))
    assert cards in (before, after)
    if torn_at == owed.SLOT_SIZE:
        assert cards == after


@examples(1000)
@given(damaged(GOOD_SNAPSHOT))
def test_a_damaged_snapshot_resumes_a_game_or_is_set_aside(data):
    try:
        table = resume(data)
    except (DamagedFile, UndecodableSnapshot) as err:
        assert str(err) and "\n" not in str(err)
        return
    assert_resumed_playable(table)


snapshot_fields = st.sampled_from(sorted(json.loads(GOOD_SNAPSHOT.split(b"\n")[0])))


@examples(300)
@given(snapshot_fields, json_values)
@example("stations", "\n")  # once said in two lines: "a table of \n seats"
def test_a_snapshot_with_any_value_in_any_field_resumes_or_is_set_aside(field, value):
    fields = json.loads(GOOD_SNAPSHOT.split(b"\n")[0])
    fields[field] = value
    line = json.dumps(fields).encode() + b"\n"
    try:
        table = resume(line + GOOD_SNAPSHOT[-snapshot.CLOCK_LINE :])
    except (DamagedFile, UndecodableSnapshot) as err:
        assert str(err) and "\n" not in str(err)
        return
    assert_resumed_playable(table)
    # One damaged field loses nothing the others hold.
    good = resume(GOOD_SNAPSHOT)
    if field != "seated":
        assert table.seated == good.seated
    if field != "launcher":
        assert table.launcher.queue == good.launcher.queue
    if field not in ("phase", "turn"):
        assert table.phase is Phase.PAUSED
        assert table.turn.seat == good.turn.seat
        assert table.paused_left == good.paused_left


@examples(300)
@given(st.sampled_from([s.key for s in SETTINGS]) | st.text(max_size=12), json_values)
def test_any_saved_value_of_any_setting_parses_or_is_refused(key, value):
    try:
        parsed = setting(key).parse(value)
    except SettingError as err:
        assert str(err) and "\n" not in str(err)
        return
    # Always one of the setting's allowed values, and the same one when saved again.
    assert parsed in setting(key).options
    assert setting(key).parse(parsed) == parsed
    if value in setting(key).options and not isinstance(value, bool):
        assert parsed == value


@examples(60)
@given(data=damaged(GOOD_SNAPSHOT))
def test_a_damaged_snapshot_never_stops_the_table(data):
    """Through the daemon itself: it starts, and whatever it set aside is what was there."""
    with tempfile.TemporaryDirectory() as name:
        state_dir = Path(name)
        (state_dir / snapshot.FILE_NAME).write_bytes(data)
        lines = asyncio.run(lcd_after_start(state_dir))
        assert all(len(line) == 16 for line in lines)
        kept = state_dir / f"{snapshot.FILE_NAME}.bad"
        assert not kept.exists() or kept.read_bytes() == data


@pytest.fixture(scope="module")
def scratch():
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


@examples(200)
@given(data=damaged(GOOD_SETTINGS) | json_values.map(lambda v: json.dumps(v).encode()))
def test_a_damaged_settings_file_loads_as_settings(scratch, data):
    for old in scratch.glob("*"):
        old.unlink()
    (scratch / "settings.json").write_bytes(data)
    loaded = SettingsStore(scratch, Settings({})).load()
    assert isinstance(loaded.settings, Settings)
    # Every setting has one of its allowed values ...
    for entry in SETTINGS:
        assert loaded.settings[entry.key] in entry.options
    # ... and a file that reads holds its values: each one that parses is kept, unless it
    # crossed its pair's other bound (then both keep theirs).
    try:
        held = parse_json(data)
    except DamagedFile:
        assert loaded.settings == Settings({})
        return
    if not isinstance(held, dict):
        assert loaded.settings == Settings({})
        return
    crossed = " ".join(loaded.problems)
    for key, value in held.items():
        with contextlib.suppress(SettingError):
            parsed = setting(key).parse(value)
            if key not in crossed:
                assert loaded.settings[key] == parsed


@examples(500)
@given(data=damaged(GOOD_CONFIG.encode()))
def test_a_damaged_config_loads_or_says_why_in_one_line(scratch, data):
    path = scratch / "flashtable.toml"
    path.write_bytes(data)
    try:
        config.load(path)
    except config.ConfigError as err:
        assert str(err).startswith(f"{path}: ") and "\n" not in str(err)


def test_a_snapshot_of_times_a_float_cannot_write_short_is_read_back():
    """A time played of a float's rounding residue, or a tiny total, reads back: the
    snapshot writes seconds to the millisecond, within the reader's length of a number."""
    table = resume(GOOD_SNAPSHOT)
    now = 100.1
    turn = dataclasses.replace(table.turn, started=now - 2.220446049250313e-16)
    stats = {
        seat: dataclasses.replace(s, turn_time=1.2345678901234567e-05)
        for seat, s in table.stats.items()
    }
    encoded = codec.encode(dataclasses.replace(table, turn=turn, stats=stats), now)
    read = parse_json(json.dumps(encoded).encode())
    assert read["turn"]["played"] == 0.0
    assert [s[4] for s in read["stats"].values()] == [0.0, 0.0, 0.0, 0.0]
