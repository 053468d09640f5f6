"""A restart resumes the game paused: the same seats, the same turn with the time it had
left, the round's statistics and the cards still owed; a snapshot it cannot trust is set
aside and the table starts fresh, saying so."""

import json
import logging

import pytest

from controller.config import Config
from controller.game import codec, replay
from controller.settings import Settings
from controller.shell.renderer import Renderer
from controller.simulation.table import SimTable
from controller.storage import snapshot
from controller.storage.owed import OwedFile

from .test_launcher_table import jam_after_the_first_penalty_card, start

RESUMED = ("Resumed         ", "press Play      ")


def config(**settings) -> Config:
    return Config(settings=Settings({"turn_timer": 6, "sleep_time": "off", **settings}))


async def test_a_restart_resumes_the_turn_paused_with_the_time_it_had_left(tmp_path, caplog):
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3, 5)
        for _ in range(3):  # a few turns, for the statistics
            [lit] = table.lit()
            await table.tap(f"seat{lit}")
            await table.advance(0.5)
        [lit] = table.lit()
        await table.advance(2.33)
        turn = table.daemon.table.turn
        left = turn.deadline - table.now
        stats = table.daemon.table.stats
    caplog.clear()
    caplog.set_level(logging.INFO)
    async with SimTable(config(), seed=9, state_dir=tmp_path) as table:
        assert table.lcd == RESUMED
        assert f"resumed the game from {tmp_path / 'game.json'}: paused" in caplog.messages
        resumed = table.daemon.table
        assert resumed.phase.value == "paused" and resumed.turn.seat == lit
        assert resumed.seated == {1, 3, 5}
        assert resumed.paused_left == pytest.approx(left, abs=0.1)
        assert resumed.stats == stats
        await table.advance(6.0)
        assert table.lcd[0].startswith("Paused")  # nothing runs until Play
        await table.tap("play_pause")
        await table.advance(left - 0.2)
        assert table.events_of("timeout") == []
        await table.advance(0.3)
        assert [e.data["seat"] for e in table.events_of("timeout")] == [lit]


async def test_a_turn_paused_for_a_while_resumes_with_the_time_it_had_at_the_pause(tmp_path):
    """While the table is paused the turn's time stands still, on the disk too."""
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        await table.advance(1.5)
        await table.tap("play_pause")
        left = table.daemon.table.paused_left
        await table.advance(4.0)  # paused: no time of the turn's passes
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        assert table.lcd == RESUMED
        assert table.daemon.table.paused_left == pytest.approx(left, abs=0.001)
        assert 0 < left < 6.0 - 1.0


async def test_cards_owed_at_a_restart_go_to_the_seat_they_were_for(tmp_path):
    settings = config(turn_timer=4, timeout_penalty=4)
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        lit = await start(table, 1, 2)
        await table.advance(4.0)
        while table.cards_out < 2:
            await table.advance(0.001)
        first = table.cards_out + table.launcher.card_in_beam
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await table.advance(3.0)
        assert first + table.cards_out == 4
        assert {e.data["seat"] for e in table.events_of("card_out")} == {lit}
        assert table.daemon.table.stats[lit].launcher_cards == 4


@pytest.mark.parametrize("more", [0, 3], ids=["as the snapshot has them", "3 more"])
async def test_cards_the_owed_file_owes_beyond_the_snapshot_go_to_whoever_is_at_the_slot(
    tmp_path, more
):
    """The cards-owed file is written ahead of the snapshot: a power cut between the two
    leaves it owing cards the snapshot does not know of. They are dealt after the restart,
    to whoever is at the slot, and the game with them resumes again; a file that owes what
    the snapshot has adds nothing."""
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 2)
        await table.advance(1.0)
    kept = OwedFile(tmp_path, on_kept=lambda: None, background=False)
    assert kept.at_start == (0, None)
    kept.save((more, None))
    kept.close()
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        queue = table.daemon.table.launcher.queue
        assert [(d.seat, d.cards, d.reason) for d in queue] == [(None, 3, "restart")] * bool(more)
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        assert table.lcd == RESUMED
        await table.advance(3.0)
        assert table.cards_out == more


async def test_cards_owed_with_no_game_to_resume_are_dealt_to_whoever_is_at_the_slot(tmp_path):
    """A cards-owed file that owes cards beside no snapshot at all (the game's file set
    aside, or never written): the new game owes them, and deals them, at once."""
    kept = OwedFile(tmp_path, on_kept=lambda: None, background=False)
    kept.save((3, None))
    kept.close()
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        queue = table.daemon.table.launcher.queue
        assert [(d.seat, d.cards, d.reason) for d in queue] == [(None, 3, "restart")]
        await table.advance(3.0)
        assert table.cards_out == 3


async def test_cards_dispensed_and_jams_count_from_the_daemons_start(tmp_path):
    # docs/mqtt.md: `cards_dispensed` and `jams` are this daemon's, not a resumed game's.
    settings = config(timeout_penalty=4, sleep_time="off")
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await jam_after_the_first_penalty_card(table)
        assert table.daemon.table.launcher.jams == 1
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        launcher = table.daemon.table.launcher
        # The jam still there at the restart is this daemon's once, not the old one's too.
        assert (launcher.cards_out, launcher.jams) == (0, 1)
        await table.tap("encoder.push")  # OK: the slot is clear
        await table.advance(3.0)
        assert table.cards_out == 3
        assert table.daemon.table.launcher.cards_out == 3


async def test_seating_survives_a_restart_with_no_word_of_a_game_to_resume(tmp_path):
    async with SimTable(config(), seed=1, state_dir=tmp_path) as table:
        await table.tap("seat2")
        await table.tap("seat4")
        seating = table.lcd
    async with SimTable(config(), seed=1, state_dir=tmp_path) as table:
        assert table.lcd == seating  # "press Play" is for a game paused at the cut
        assert table.daemon.table.seated == {2, 4}
        assert table.lights[2] == "on" and table.lights[4] == "on"


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],
        lambda data: data.replace(b'"format":%d' % codec.FORMAT, b'"format":7'),
        lambda data: data.replace(b'"stations":6', b'"stations":4'),
        lambda data: b"[" * 5000 + data,
        lambda data: data.replace(b'"seated":[1,3]', b'"seated":[1,99]'),
    ],
    ids=["cut", "another format", "another table", "deep", "no such seat"],
)
async def test_a_snapshot_it_cannot_trust_is_set_aside_and_play_starts_fresh(tmp_path, damage):
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
    path = tmp_path / snapshot.FILE_NAME
    original = path.read_bytes()
    damaged = damage(original)
    assert damaged != original
    path.write_bytes(damaged)
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        assert table.lcd == ("Saved game bad: ", "new game        ")
        assert table.daemon.table.phase.value == "seating"
    assert (tmp_path / f"{snapshot.FILE_NAME}.bad").read_bytes() == damaged


async def test_a_snapshot_of_another_version_in_the_same_format_resumes_with_its_standings(
    tmp_path,
):
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        [lit] = table.lit()
        await table.hold(f"seat{lit}", 2.5)  # a round won: the evening has standings
        await table.advance(1.0)
        assert table.daemon.table.standings.rounds == 1
    path = tmp_path / snapshot.FILE_NAME
    path.write_bytes(path.read_bytes().replace(b'"flashtable":"', b'"flashtable":"9'))
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        assert table.daemon.snapshots.resumed is not None
        assert table.daemon.table.standings.rounds == 1
    assert not (tmp_path / f"{snapshot.FILE_NAME}.bad").exists()


async def test_a_turn_running_writes_few_snapshots(tmp_path):
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        before = len(table.daemon.snapshots.recent)
        await table.advance(5.0)  # the countdown ticks, the heartbeat beats: no snapshot
        assert len(table.daemon.snapshots.recent) == before
        left = table.daemon.table.turn.deadline - table.now
    data = (tmp_path / snapshot.FILE_NAME).read_bytes()  # the stop wrote the time left
    assert json.loads(data[-snapshot.CLOCK_LINE :])["left"] == pytest.approx(left, abs=0.001)


async def round_over_snapshot(tmp_path) -> bytes:
    """The snapshot of three seats on their round's summary, as the daemon writes it."""
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        lit = await start(table, 1, 2, 3)
        await table.hold(f"seat{lit}", 2.5)
        assert table.daemon.table.phase.value == "round_over"
    return (tmp_path / snapshot.FILE_NAME).read_bytes()


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data.replace(b'"page":0', b'"page":99'),
        lambda data: data.replace(b'"page":0', b'"page":7').replace(b"[1,2,3]", b"[1,2,2]"),
        lambda data: data.replace(b'"winner":', b'"winner":5,"x":'),
    ],
    ids=["a page past the last", "a seat listed twice", "a winner nobody is"],
)
async def test_a_snapshot_no_game_can_reach_is_set_aside_and_play_starts_fresh(tmp_path, damage):
    """Values each fine alone, impossible together: the summary's screens would fail to draw
    at every start."""
    original = await round_over_snapshot(tmp_path)
    damaged = damage(original)
    assert damaged != original
    (tmp_path / snapshot.FILE_NAME).write_bytes(damaged)
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        assert table.lcd == ("Saved game bad: ", "new game        ")
        assert table.daemon.table.phase.value == "seating"
        await table.advance(30.0)  # ten summary pages' time: nothing fails
    assert (tmp_path / f"{snapshot.FILE_NAME}.bad").read_bytes() == damaged


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda data: data[-snapshot.CLOCK_LINE :], "too short to be a snapshot"),
        (lambda data: b"[1, 2, 3]\n" + data[-snapshot.CLOCK_LINE :], "not a snapshot"),
    ],
    ids=["its time line alone", "a list"],
)
async def test_a_file_that_is_no_snapshot_is_set_aside_and_named_for_what_it_is(
    tmp_path, caplog, damage, said
):
    damaged = damage(await round_over_snapshot(tmp_path))
    path = tmp_path / snapshot.FILE_NAME
    path.write_bytes(damaged)
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        assert table.lcd == ("Saved game bad: ", "new game        ")
    assert f"{path}: {said}; kept as {path.name}.bad" in caplog.messages
    assert (tmp_path / f"{snapshot.FILE_NAME}.bad").read_bytes() == damaged


async def test_a_time_line_that_holds_no_time_leaves_the_snapshots_own(tmp_path):
    """The heartbeat's line is JSON, but not its object: the turn resumes with the time the
    snapshot itself gives."""
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        await table.advance(1.0)
    path = tmp_path / snapshot.FILE_NAME
    data = path.read_bytes()
    path.write_bytes(data[: -snapshot.CLOCK_LINE] + b"[1]".ljust(snapshot.CLOCK_LINE - 1) + b"\n")
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        assert table.lcd == RESUMED
        assert 0 < table.daemon.table.paused_left <= 6.0


async def test_a_resumed_game_that_fails_to_draw_is_set_aside_and_the_table_starts(
    tmp_path, monkeypatch, caplog
):
    """Whatever a snapshot that passed every check still gets wrong, the first step or draw
    of the resumed game is where it shows: the table sets it aside and starts a new game,
    with the cards still owed, rather than fail at every start."""
    settings = config(turn_timer=4, timeout_penalty=4)
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await start(table, 1, 2)
        await table.advance(4.0)  # a timeout: four cards owed
        while table.cards_out < 1:
            await table.advance(0.001)
        first = table.cards_out + table.launcher.card_in_beam
    saved = (tmp_path / snapshot.FILE_NAME).read_bytes()
    draw = Renderer.draw

    def failing_draw(renderer, table, panel):
        if table.phase.value == "paused":
            raise IndexError("a screen that is not there")
        draw(renderer, table, panel)

    monkeypatch.setattr(Renderer, "draw", failing_draw)
    caplog.clear()
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        assert table.lcd == ("Saved game bad: ", "new game        ")
        assert table.daemon.table.phase.value == "seating"
        await table.advance(3.0)
        assert first + table.cards_out == 4
        log = table.daemon.game_log  # the new game's, from its own start
        assert replay(log, log.start, log.start_rng())[0] == table.daemon.table
    assert (tmp_path / f"{snapshot.FILE_NAME}.bad").read_bytes() == saved
    failed = [r for r in caplog.records if r.getMessage().startswith("the resumed game")]
    assert [r.getMessage() for r in failed] == ["the resumed game failed on its first step"]
    assert failed[0].exc_info is not None and failed[0].exc_info[0] is IndexError


@pytest.mark.parametrize("owing", [True, False], ids=["cards owed", "none owed"])
async def test_the_new_game_that_replaces_a_resumed_one_that_failed_resumes_itself(
    tmp_path, monkeypatch, caplog, owing
):
    """The resumed game that fails to draw is set aside with the error that failed it, in
    one line of at most 200 characters, and nothing is left resumed. The new game owes the
    cards the old one still owed (none if it owed none), and its own snapshot resumes at the
    next start, where the cards still owed are dealt: four in all."""
    settings = config(turn_timer=4, timeout_penalty=4)
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await start(table, 1, 2)
        if owing:
            await table.advance(4.0)  # a timeout: four cards owed
            while table.cards_out < 1:
                await table.advance(0.001)
        out = table.cards_out + table.launcher.card_in_beam
    why = "a screen that is not there; " * 10
    draw = Renderer.draw

    def failing_draw(renderer, table, panel):
        if table.phase.value == "paused":
            raise IndexError(why)
        draw(renderer, table, panel)

    monkeypatch.setattr(Renderer, "draw", failing_draw)
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        assert table.lcd == ("Saved game bad: ", "new game        ")
        assert table.daemon.snapshots.resumed is None
        owed = table.daemon.table.launcher.queue
        assert [(d.seat, d.cards, d.reason) for d in owed] == ([(None, 3, "restart")] * owing)
        out += table.cards_out + table.launcher.card_in_beam
    reason = f"the game failed to resume: IndexError: {why}"[:200]
    path = tmp_path / snapshot.FILE_NAME
    assert f"{path}: {reason}; kept as {path.name}.bad" in caplog.messages
    monkeypatch.undo()
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        assert table.lcd != ("Saved game bad: ", "new game        ")
        await table.advance(3.0)
        assert out + table.cards_out == 4 * owing


async def test_once_play_goes_on_the_resumed_notice_is_gone_and_never_hides_a_later_screen(
    tmp_path,
):
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        await start(table, 1, 3)
        await table.advance(1.0)
    async with SimTable(config(), seed=3, state_dir=tmp_path) as table:
        assert table.lcd == RESUMED
        await table.tap("play_pause")
        [lit] = table.lit()
        assert table.lcd[1].startswith(f"Seat {lit} turn")
        await table.hold(f"seat{lit}", 2.5)  # goes out: the round is over
        assert table.lcd == ("Round over!     ", f"Seat {lit} wins!    ")
