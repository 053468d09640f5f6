"""The game snapshot reaches the disk through one writer thread: the table never waits for
the disk, a disk that falls behind gets the newest snapshot only, a refusal is shown on the
LCD, and a stop leaves the last snapshot on the disk."""

import asyncio
import copy
import errno
import itertools
import json
import logging
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable

import pytest

from controller import __version__
from controller.config import Config
from controller.game import codec
from controller.settings import Settings
from controller.simulation.table import SimTable
from controller.storage import snapshot, snapshot_writer
from controller.storage.snapshot import HEARTBEAT

from .test_launcher_table import start

DISK_FULL = ("Not saving:     ", "disk full       ")
WRITE_ERROR = ("Not saving:     ", "write error     ")


def config(**settings) -> Config:
    return Config(settings=Settings({"turn_timer": 6, "sleep_time": "off", **settings}))


@pytest.fixture
def handed(monkeypatch) -> list[float]:
    """The time of play of each snapshot handed to the writer."""
    times: list[float] = []
    real = snapshot_writer.SnapshotWriter.snapshot

    def counted(writer, line, clock_line, at):
        times.append(at)
        real(writer, line, clock_line, at)

    monkeypatch.setattr(snapshot_writer.SnapshotWriter, "snapshot", counted)
    return times


def waiting(wait: Callable[[], object], then: Callable[[], object] = lambda: None):
    """`wait()` on a thread of its own (one that never returns must not hold the test), then
    `then()`: the thread, and the list that `then()`'s answer lands in once `wait` returned."""
    found: list[object] = []
    thread = threading.Thread(target=lambda: found.append(wait() or then()), daemon=True)
    thread.start()
    return thread, found


def saved(path) -> dict:
    return json.loads(path.read_bytes()[: -snapshot.CLOCK_LINE])


def saved_turn(state_dir) -> int:
    """The seat whose turn the snapshot on the disk holds."""
    return saved(state_dir / snapshot.FILE_NAME)["turn"]["seat"]


async def play_turns(table: SimTable, turns: int, gap: float = 0.5) -> None:
    """`turns` turns, each ended `gap` seconds after the last."""
    for _ in range(turns):
        [lit] = table.lit()
        await table.tap(f"seat{lit}")
        await table.advance(gap)


async def test_a_disk_that_does_not_answer_never_holds_up_the_table(tmp_path, monkeypatch):
    answer = threading.Event()
    writes = []  # (the thread that wrote, the snapshot it wrote)
    real = snapshot_writer.write_atomic

    def slow_disk(path, data):
        writes.append((threading.current_thread(), data))
        answer.wait(timeout=30)  # a write on the loop would hold the whole table this long
        real(path, data)

    monkeypatch.setattr(snapshot_writer, "write_atomic", slow_disk)
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3, 5)
        await play_turns(table, 6)
        taken = len(table.daemon.snapshots.recent)
        assert taken >= 8  # seats, the start, six turns: each a snapshot handed over
        assert len(table.events_of("turn_started")) == 7  # play went on meanwhile
        assert not (tmp_path / snapshot.FILE_NAME).exists()  # the disk has taken nothing
        last_turn = table.daemon.table.turn.seat
        # A wait for the writer (a simulation's, before it reads the disk) lasts until the
        # disk has taken the newest snapshot.
        waiter, found = waiting(table.daemon.snapshots.wait, lambda: saved_turn(tmp_path))
        waiter.join(timeout=0.5)
        assert found == []
        answer.set()
        waiter.join(timeout=30)
        assert found == [last_turn]
    # The stop waited for the writer: the newest snapshot is on the disk, and the ones the
    # disk fell behind on were never written at all.
    assert all(thread is not threading.main_thread() for thread, _ in writes)
    assert len(writes) <= 3 < taken
    assert saved_turn(tmp_path) == last_turn


@pytest.mark.parametrize(
    ("refusal", "shown", "logged"),
    [
        (OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), DISK_FULL, "no space left on device"),
        # Refusals a family cannot act on by name: the system's words are in the log.
        (OSError(errno.EIO, os.strerror(errno.EIO)), WRITE_ERROR, "input/output error"),
        (OSError("the disk went away"), WRITE_ERROR, "the disk went away"),
    ],
    ids=["disk full", "an input/output error", "no error number"],
)
async def test_a_snapshot_the_disk_refuses_shows_not_saving_and_play_goes_on(
    tmp_path, monkeypatch, caplog, refusal, shown, logged
):
    def refusing_disk(path, data):
        raise refusal

    monkeypatch.setattr(snapshot_writer, "write_atomic", refusing_disk)
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        await asyncio.to_thread(table.daemon.snapshots.wait)
        await table.settle()  # the writer's refusal reaches the loop
        assert table.lcd == shown
        await play_turns(table, 12)  # 6 s: the notice is over, a snapshot refused each turn
        assert len(table.events_of("turn_started")) == 13
        assert table.lcd != shown  # told once, not at every snapshot
    said = f"cannot save the game to {tmp_path / snapshot.FILE_NAME}: {logged}"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == [said]
    assert not (tmp_path / snapshot.FILE_NAME).exists()


async def test_a_disk_that_refuses_mid_turn_and_comes_back_has_the_game_and_its_time_again(
    tmp_path, monkeypatch, caplog
):
    """The time left, written in place, is refused: the file is let go, the LCD says so once,
    and the time left waits for the next whole snapshot, which the disk, back, takes. A
    refusal after that is told again."""
    refusing = threading.Event()
    real_write, real_pwrite = snapshot_writer.write_atomic, os.pwrite

    def refused() -> OSError:
        return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def write(path, data):
        if refusing.is_set():
            raise refused()
        real_write(path, data)

    def pwrite(fd, data, offset):
        if refusing.is_set():
            raise refused()
        return real_pwrite(fd, data, offset)

    monkeypatch.setattr(snapshot_writer, "write_atomic", write)
    monkeypatch.setattr(snapshot_writer.os, "pwrite", pwrite)
    settings = Config(settings=Settings({"turn_timer": 30, "sleep_time": "off"}))
    async with SimTable(settings, seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        await table.advance(1.0)
        refusing.set()
        await table.advance(1.0)
        await asyncio.to_thread(table.daemon.snapshots.wait)
        await table.settle()
        assert table.lcd == DISK_FULL
        refusing.clear()
        await play_turns(table, 1)
        await table.advance(2.0)
        await asyncio.to_thread(table.daemon.snapshots.wait)
        turn = table.daemon.table.turn
        left = turn.deadline - table.now
        data = (tmp_path / snapshot.FILE_NAME).read_bytes()
        assert saved_turn(tmp_path) == turn.seat
        assert json.loads(data[-snapshot.CLOCK_LINE :])["left"] == pytest.approx(left, abs=0.15)
        await table.advance(6.0)  # the notice is over
        refusing.set()  # refused again, after a write that succeeded: told again
        await play_turns(table, 1)
        await asyncio.to_thread(table.daemon.snapshots.wait)
        await table.settle()
        assert table.lcd == DISK_FULL
        refusing.clear()
    path = tmp_path / snapshot.FILE_NAME
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [f"cannot save the game to {path}: no space left on device"] * 2


async def test_the_snapshot_is_a_line_of_json_in_key_order_naming_the_program_that_wrote_it(
    tmp_path,
):
    """docs/state.md: a person reads it, and two of one game compare line by line."""
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        await play_turns(table, 2)
    data = (tmp_path / snapshot.FILE_NAME).read_bytes()
    line, time_line = data[: -snapshot.CLOCK_LINE], data[-snapshot.CLOCK_LINE :]
    value = json.loads(line)
    assert json.dumps(value, sort_keys=True, separators=(",", ":")).encode() + b"\n" == line
    assert value["flashtable"] == __version__
    assert time_line.endswith(b"\n") and b"\n" not in time_line[:-1]


def what_a_resume_needs(snapshot_value: dict) -> dict:
    """A snapshot less what other records keep: the time a running turn has played (the
    time line), and the cards counted out of the launcher (the cards-owed file)."""
    needed = copy.deepcopy(snapshot_value)
    needed.pop("flashtable", None)
    if needed["turn"] is not None and needed["phase"] != "paused":
        needed["turn"] = {"seat": needed["turn"]["seat"]}
    launcher = needed["launcher"]
    del launcher["cards_out"]
    launcher["queue"] = [[seat, reason] for seat, _, reason in launcher["queue"]]
    needed["stats"] = {seat: s[:3] + s[4:] for seat, s in needed["stats"].items()}
    return needed


async def test_the_disk_holds_what_a_resumed_game_needs_after_every_step_and_no_more_writes(
    tmp_path, handed
):
    """docs/state.md: a snapshot is written at each moment that matters to a resumed game,
    and not for a card counted. Turns until a seat is picked twice running, a timeout's
    penalty dealt, another caught in a jam and cleared, a pause: after each step the disk
    holds all a resumed game needs, and no snapshot is written while cards are only
    counted."""
    settings = Config(settings=Settings({"turn_timer": 4, "timeout_penalty": 4}))
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        cards: list[float] = []  # when each card was counted
        table.daemon.publisher.listen(
            lambda event: event.type == "card_out" and cards.append(table.now)
        )

        async def step(action) -> None:
            await action
            await asyncio.to_thread(table.daemon.snapshots.wait)
            on_disk = saved(tmp_path / snapshot.FILE_NAME)
            now = codec.encode(table.daemon.table, table.now)
            assert what_a_resume_needs(on_disk) == what_a_resume_needs(now)

        await step(start(table, 1, 2))
        for _ in range(40):  # the classic picker repeats a seat soon
            [before] = table.lit()
            await step(table.tap(f"seat{before}"))
            await step(table.advance(0.6))
            if table.lit() == [before]:
                break
        else:
            raise AssertionError("no seat was picked twice running")
        await step(table.advance(4.0))  # a timeout: four cards owed
        await step(table.advance(2.0))  # dealt
        assert len(cards) == 4
        assert not [at for at in handed if cards[0] < at < cards[-1]]
        await step(table.advance(4.0))  # another timeout
        while len(cards) < 5:
            await step(table.advance(0.01))
        table.jam()
        await step(table.advance(2.0))
        table.clear_jam()
        await step(table.tap("encoder.push"))
        await step(table.advance(3.0))
        await step(table.tap("play_pause"))
        await step(table.advance(1.0))
        await step(table.tap("play_pause"))


async def test_a_stop_leaves_the_time_left_on_the_disk(tmp_path, monkeypatch):
    flushed = []
    real = os.fdatasync
    monkeypatch.setattr(snapshot_writer.os, "fdatasync", lambda fd: flushed.append(fd) or real(fd))
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        await table.advance(2.37)  # under SYNC_EVERY: only the page cache has the time left
        await asyncio.to_thread(table.daemon.snapshots.wait)
        assert flushed == []
        left = table.daemon.table.turn.deadline - table.now
    assert len(flushed) == 1
    data = (tmp_path / snapshot.FILE_NAME).read_bytes()
    assert json.loads(data[-snapshot.CLOCK_LINE :])["left"] == round(left, 3)


async def test_during_a_turn_the_time_left_reaches_the_disk_every_five_seconds(
    tmp_path, monkeypatch, caplog
):
    """A power cut costs a turn at most SYNC_EVERY of its time (storage/snapshot.py): the
    time left, written in place every beat, is flushed to the disk each time that much time
    of play has passed since the last flush. Time is virtual: the test waits for the disk
    each half second, so a flush comes up to a beat and a half second after it is due."""
    flushes: list[float] = []
    real = os.fdatasync
    clock: list[SimTable] = []

    def flush(fd: int) -> None:
        flushes.append(clock[0].now)
        real(fd)

    monkeypatch.setattr(snapshot_writer.os, "fdatasync", flush)
    settings = Config(settings=Settings({"turn_timer": 30, "sleep_time": "off"}))
    async with SimTable(settings, seed=3, state_dir=tmp_path) as table:
        clock.append(table)
        await start(table, 1, 3)
        for _ in range(50):  # 25 s of the turn's 30
            await table.advance(0.5)
            await asyncio.to_thread(table.daemon.snapshots.wait)
        assert len(flushes) >= 4
        gaps = [later - earlier for earlier, later in itertools.pairwise(flushes)]
        every = snapshot_writer.SYNC_EVERY
        assert all(every - HEARTBEAT < gap <= every + HEARTBEAT + 0.5 for gap in gaps), gaps
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_past_120_snapshots_a_minute_the_newest_waits_for_room_and_reaches_the_disk(
    tmp_path, handed
):
    """docs/state.md: game.json is never written more than 120 times a minute; past that,
    the game as it stands waits for the next second, until the minute has room, and then
    the newest is written. Here 150 quick turns with no timer, then the table is left alone:
    no step comes to take a snapshot, and the disk must still hold the last turn."""
    async with SimTable(config(turn_timer="off"), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        await play_turns(table, 150, gap=0.2)
        assert len(handed) == snapshot.MAX_WRITES_PER_MINUTE  # the bound is met
        await table.advance(60.0)
        await asyncio.to_thread(table.daemon.snapshots.wait)
        # Taken again in the second after the first of the minute's writes left its window.
        assert 60.0 < handed[snapshot.MAX_WRITES_PER_MINUTE] - handed[0] <= 61.0
        on_disk = saved(tmp_path / snapshot.FILE_NAME)
        assert on_disk["stats"] == codec.encode(table.daemon.table, table.now)["stats"]
        assert all(
            sum(start <= at < start + 60.0 for at in handed) <= snapshot.MAX_WRITES_PER_MINUTE
            for start in handed
        )


async def test_a_stop_past_120_snapshots_a_minute_still_leaves_the_newest_game_on_the_disk(
    tmp_path, handed
):
    async with SimTable(config(turn_timer="off"), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        await play_turns(table, 130, gap=0.2)
        assert len(handed) == snapshot.MAX_WRITES_PER_MINUTE  # the bound is met
        last = codec.encode(table.daemon.table, table.now)["stats"]
    assert saved(tmp_path / snapshot.FILE_NAME)["stats"] == last


def test_a_wait_returns_only_once_the_write_under_way_is_on_the_disk(tmp_path, monkeypatch):
    """A simulation waits for the writer before it reads the disk: nothing left to hand over
    is not enough, the write the thread has taken must be done too."""
    taken, go_on = threading.Event(), threading.Event()
    real = snapshot_writer.write_atomic

    def slow_disk(path, data):
        taken.set()
        go_on.wait(timeout=30)
        real(path, data)

    monkeypatch.setattr(snapshot_writer, "write_atomic", slow_disk)
    path = tmp_path / snapshot.FILE_NAME
    writer = snapshot_writer.SnapshotWriter(path, on_refused=lambda err: None)
    writer.snapshot(b'{"seat":1}\n', b"clock\n", 0.0)
    assert taken.wait(timeout=30)  # nothing is left to hand over: the write is under way
    waiter, found = waiting(writer.wait, path.exists)
    waiter.join(timeout=0.5)
    assert found == []  # still waiting
    go_on.set()
    waiter.join(timeout=30)
    assert found == [True]
    assert path.read_bytes() == b'{"seat":1}\nclock\n'
    writer.close()


def test_a_refusal_whose_telling_fails_leaves_the_writer_writing(tmp_path, monkeypatch, caplog):
    """Whatever fails in the writer thread, the next snapshot is still written, and a wait
    for the writer ends."""
    refusing = [True]
    real = snapshot_writer.write_atomic

    def disk(path, data):
        if refusing[0]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data)

    def on_refused(err):
        raise RuntimeError("the table is gone")

    monkeypatch.setattr(snapshot_writer, "write_atomic", disk)
    path = tmp_path / snapshot.FILE_NAME
    writer = snapshot_writer.SnapshotWriter(path, on_refused=on_refused)
    writer.snapshot(b'{"seat":1}\n', b"clock\n", 0.0)
    waiter, _ = waiting(writer.wait)
    waiter.join(timeout=30)
    assert not waiter.is_alive()
    refusing[0] = False
    writer.snapshot(b'{"seat":2}\n', b"clock\n", 1.0)
    writer.close()
    assert path.read_bytes() == b'{"seat":2}\nclock\n'
    assert f"writing the snapshot {path} failed" in caplog.messages


def test_a_wait_with_nothing_handed_over_returns_at_once(tmp_path):
    writer = snapshot_writer.SnapshotWriter(tmp_path / snapshot.FILE_NAME, on_refused=print)
    waiter, _ = waiting(writer.wait)
    waiter.join(timeout=30)
    assert not waiter.is_alive()
    writer.close()
    assert not (tmp_path / snapshot.FILE_NAME).exists()


def test_a_writer_left_running_keeps_no_process_from_ending(tmp_path):
    """A daemon that ends without closing the writer (a crash) is not held by its thread."""
    ends = (
        "import pathlib, sys; from controller.storage.snapshot_writer import SnapshotWriter; "
        "SnapshotWriter(pathlib.Path(sys.argv[1]), on_refused=print)"
    )
    subprocess.run(
        [sys.executable, "-c", ends, str(tmp_path / "game.json")], check=True, timeout=60
    )


def test_a_stop_whose_last_flush_fails_says_so_and_keeps_what_was_written(
    tmp_path, monkeypatch, caplog
):
    path = tmp_path / snapshot.FILE_NAME
    writer = snapshot_writer.SnapshotWriter(path, on_refused=print)
    writer.snapshot(b'{"seat":1}\n', b"clock\n", 0.0)
    writer.wait()

    def failing(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(snapshot_writer.os, "fdatasync", failing)
    writer.close()
    assert caplog.messages == [f"cannot save the time left to {path}: input/output error"]
    assert path.read_bytes() == b'{"seat":1}\nclock\n'


def test_the_time_left_is_never_written_through_a_link_put_in_the_snapshots_place(
    tmp_path, monkeypatch
):
    """The file kept open for the time left is the snapshot just written: a link put in its
    place in the moment between is refused, as any refusal of the disk, and nothing goes
    through it."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(b"not the table's file\n")
    real = snapshot_writer.write_atomic

    def swapped(path, data):
        real(path, data)
        path.unlink()
        path.symlink_to(elsewhere)

    monkeypatch.setattr(snapshot_writer, "write_atomic", swapped)
    refused: list[OSError] = []
    writer = snapshot_writer.SnapshotWriter(
        tmp_path / snapshot.FILE_NAME, on_refused=refused.append
    )
    writer.snapshot(b'{"seat":1}\n', b"clock\n", 0.0)
    writer.wait()
    writer.time_left(b"later\n", 6.0)
    writer.close()
    assert elsewhere.read_bytes() == b"not the table's file\n"
    assert [err.errno for err in refused] == [errno.ELOOP]


async def test_a_state_directory_put_out_of_the_way_mid_game_shows_not_a_folder(tmp_path):
    state_dir = tmp_path / "state"
    async with SimTable(config(), seed=3, state_dir=state_dir) as table:
        await start(table, 1, 3)
        await asyncio.to_thread(table.daemon.snapshots.wait)
        shutil.rmtree(state_dir)
        state_dir.write_text("in the way")
        await play_turns(table, 1)
        await asyncio.to_thread(table.daemon.snapshots.wait)
        await table.settle()  # the writer's refusal reaches the loop
        assert table.lcd == ("Not saving:     ", "not a folder    ")
