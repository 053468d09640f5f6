"""Table mode on the simulated table: penalties fly out of the launcher, exactly."""

import errno
import logging
import os
from types import SimpleNamespace

import pytest

from controller.config import Config
from controller.game.effects import Dispense
from controller.game.launch import NO_CARDS
from controller.requests import DealCards
from controller.settings import Settings
from controller.shell.launcher_link import LauncherLink
from controller.simulation.table import SimTable
from controller.storage import owed as owed_module
from controller.storage.owed import FILE_NAME, Owed, OwedFile
from hardware.clock import VirtualClock
from hardware.ejector import CardCounted, Report
from hardware.serial_dispense import Sent


def config(**settings) -> Config:
    return Config(settings=Settings({"turn_timer": 4, **settings}))


async def start(table: SimTable, *seats: int) -> int:
    for seat in seats:
        await table.tap(f"seat{seat}")
    await table.tap("play_pause")
    [lit] = table.lit()
    return lit


async def test_a_timeout_dispenses_exactly_the_timeout_penalty():
    async with SimTable(config(timeout_penalty=3), seed=2) as table:
        lit = await start(table, 1, 2, 3)
        await table.advance(4.0)
        assert table.lcd[1].rstrip() == "Draw 3 cards"
        await table.advance(5.0)
        assert table.cards_out == 3
        assert table.cards_left == 54 - 3
        assert [e.data["seat"] for e in table.events_of("card_out")] == [lit] * 3
        assert table.launcher.motor_speed == 0
        await table.advance(30.0)
        assert table.cards_out == 3 * len(table.events_of("timeout"))


async def test_a_lost_slap_race_dispenses_the_slap_penalty():
    async with SimTable(config(turn_timer="off", slap_penalty=2), seed=4) as table:
        lit = await start(table, 1, 2, 3)
        racers = sorted({1, 2, 3} - {lit})
        await table.tap("slap")
        await table.advance(0.2)
        await table.tap(f"seat{racers[0]}")  # the other racer never presses
        await table.advance(3.5)
        [result] = table.events_of("slap_result")
        assert result.data["slowest"] == [racers[1]]
        await table.advance(5.0)
        assert table.cards_out == 2
        assert [e.data["seat"] for e in table.events_of("card_out")] == [racers[1]] * 2


async def jam_after_the_first_penalty_card(table: SimTable) -> None:
    """Two players, a 4-card timeout penalty: one card out, then the next catches."""
    await start(table, 1, 2)
    await table.advance(4.0)
    while table.cards_out < 1:
        await table.advance(0.01)
    table.jam()
    await table.advance(2.0)


async def test_a_jam_mid_penalty_shows_what_is_owed_and_finishes_after_ok():
    async with SimTable(config(timeout_penalty=4, sleep_time="off"), seed=5) as table:
        await jam_after_the_first_penalty_card(table)
        assert table.lcd == ("JAM: clear slot ", "press OK  3 owed")
        assert table.launcher.motor_speed == 0
        [fault] = table.events_of("launcher_fault")
        assert fault.data == {"fault": "jam", "owed": 3}
        out = table.cards_out
        await table.advance(10.0)
        assert table.cards_out == out == 1
        table.clear_jam()
        await table.tap("encoder.push")
        await table.advance(1.5)
        assert table.cards_out == 4
        assert table.daemon.table.launcher.owed == 0
        await table.advance(10.0)
        assert table.cards_out == 4 + 4 * len(table.events_of("timeout")[1:])


async def test_an_empty_hopper_asks_for_cards_and_keeps_the_count():
    async with SimTable(config(timeout_penalty=4, sleep_time="off"), seed=6) as table:
        table.empty_hopper()
        table.refill(1)
        await start(table, 1, 2)
        await table.advance(4.0)
        await table.advance(3.0)
        assert table.cards_out == 1
        assert table.lcd == ("Refill cards    ", "press OK  3 owed")
        table.refill(20)
        await table.tap("encoder.push")
        await table.advance(3.0)
        assert table.cards_out == 4


async def test_a_restart_deals_what_was_still_owed_and_not_a_card_more(tmp_path):
    settings = config(timeout_penalty=4, sleep_time="off")
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await jam_after_the_first_penalty_card(table)
        assert table.lcd[1] == "press OK  3 owed"
        [seat] = {e.data["seat"] for e in table.events_of("card_out")}
    # The daemon stopped with 3 cards owed behind a jam. The next one to start resumes the
    # game and still waits for OK (the slot may hold a card, or a hand), then deals exactly
    # those 3, to the seat they were for. The jam keeps the LCD; the notice waits behind it.
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await table.advance(6.0)
        assert table.lcd == ("JAM: clear slot ", "press OK  3 owed")
        assert table.cards_out == 0 and table.launcher.motor_speed == 0
        await table.tap("encoder.push")
        assert table.lcd == ("Resumed         ", "press Play      ")
        await table.advance(3.0)
        assert table.cards_out == 3
        assert [e.data["seat"] for e in table.events_of("card_out")] == [seat] * 3
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await table.advance(3.0)
        assert table.cards_out == 0
        assert table.events_of("dispense") == []


async def test_a_burst_in_flight_survives_a_pause():
    burst = config(launcher_profile="custom", custom_chance=100, custom_min=10, custom_max=10)
    async with SimTable(burst, seed=1) as table:
        await start(table, 1, 2)
        await table.tap("launcher")
        await table.advance(0.7)  # the chime is over, the cards are flying
        await table.tap("play_pause")
        assert table.lcd[0].rstrip() == "Paused"
        assert 0 < table.cards_out < 10
        await table.advance(3.0)
        assert table.cards_out == 10
        assert table.daemon.table.launcher.owed == 0


@pytest.mark.parametrize("stop_after", [0.0, 0.001, 0.002, 0.004, 0.03, 0.06, 0.1, 0.11, 0.12])
async def test_a_stop_in_the_middle_of_a_penalty_then_a_restart_deals_it_exactly(
    tmp_path, stop_after
):
    settings = config(timeout_penalty=4, sleep_time="off")
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await start(table, 1, 2)
        await table.advance(4.0)
        while table.launcher.cards_out < 2:
            await table.advance(0.0005)
        await table.advance(stop_after)  # the daemon is stopped right as card 2 left
        # A card stopped half out of the slot is the player's: it leaves with them.
        first = table.cards_out + table.launcher.card_in_beam
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await table.advance(3.0)
        assert first + table.cards_out == 4


async def test_extreme_mode_fires_from_the_idle_screen_with_nobody_seated():
    async with SimTable(Config(settings=Settings({"mode": "extreme"})), seed=3) as table:
        assert table.lcd == ("Extreme  classic", "Press launcher  ")
        for _ in range(12):
            await table.tap("launcher")
            await table.advance(2.0)
        hits = table.events_of("hit")
        assert len(hits) == 12 and all(hit.data["seat"] is None for hit in hits)
        assert table.events_of("round_started") == []
        fired = sum(hit.data["cards"] for hit in hits)
        assert fired > 0 and table.cards_out == fired
        last = hits[-1].data["cards"]
        assert table.lcd[1].rstrip() == (f"Launcher: {last}!" if last else NO_CARDS)


async def test_the_launcher_waits_for_a_round_in_table_mode():
    async with SimTable(config(), seed=3) as table:
        await table.tap("launcher")
        assert table.lcd == ("Start a round   ", "to use launcher ")  # why nothing flies
        await table.advance(2.0)
        assert table.lcd == ("Table   timer 4s", "Press to join   ")
        assert table.events_of("hit") == []
        assert table.cards_out == 0


@pytest.mark.parametrize("in_beam", [True, False], ids=["a card half out", "between cards"])
async def test_a_card_left_in_the_slot_at_a_stop_is_dealt_and_only_that_one(tmp_path, in_beam):
    """At a stop the roller halts where it is: a card half out of the slot belongs to the
    presser, counted as dealt; between two cards, nothing more is."""
    settings = config(timeout_penalty=4)
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        lit = await start(table, 1, 2)
        await table.advance(4.0)  # a timeout: four cards owed
        while table.cards_out < 1 or table.launcher.card_in_beam != in_beam:
            await table.advance(0.001)
        daemon = table.daemon
    dealt = 1 + in_beam
    assert [e.data["seat"] for e in table.events_of("card_out")] == [lit] * dealt
    assert daemon.table.launcher.owed == 4 - dealt
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        assert table.daemon.table.launcher.owed == 4 - dealt  # never owed twice
        await table.advance(3.0)
        assert table.cards_out == 4 - dealt


async def test_a_hand_in_the_beam_at_a_stop_with_nothing_owed_deals_nothing(tmp_path):
    async with SimTable(config(), seed=5, state_dir=tmp_path) as table:
        table.launcher.glitch(5.0)  # fingers across the beam
        await table.advance(0.01)
        daemon = table.daemon
    assert table.events_of("card_out") == []
    assert daemon.table.launcher.cards_out == 0


def test_the_launcher_link_never_asks_which_launcher_it_holds():
    """Both ejectors meet one contract (hardware.ejector.Ejector): what differs lives in
    each, not in branches of the daemon's link."""
    import ast
    from pathlib import Path

    import controller.shell.launcher_link

    tree = ast.parse(Path(controller.shell.launcher_link.__file__).read_text(encoding="utf-8"))
    asked = [
        ast.unparse(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and ast.unparse(node.func) == "isinstance"
        and "Ejector" in ast.unparse(node.args[1])
    ]
    assert asked == []


async def test_the_beam_tells_the_ejectors_gate_each_edge_on_the_pins_own_thread():
    """The beam's input hands its edges to the GPIO ejector's gate before the loop hears of
    them (docs/architecture.md, "The thread border"): the gate counts every card out."""
    async with SimTable(config(timeout_penalty=3), seed=2) as table:
        daemon = table.daemon
        ejector = daemon.launcher.ejector
        beam = daemon.board.beam
        assert beam is not None and beam.on_pin_thread == ejector.beam_edge_now
        await start(table, 1, 2)
        await table.advance(9.0)
        assert table.cards_out == 3


async def test_a_card_counted_before_the_game_hears_of_it_is_not_saved_as_owed(
    tmp_path, monkeypatch
):
    """The cards-owed file is saved after every event: one saved between the ejector counting
    a card and the game hearing of it leaves that card out, or a crash then deals it twice."""
    written: list[int] = []
    save = OwedFile.save

    def kept(self: OwedFile, owed: Owed, sent: Sent | None = None) -> None:
        written.append(owed[0])
        save(self, owed, sent)

    # (what the ejector still owes after a card, what the file keeps with the card in flight)
    saved: list[tuple[int, int]] = []
    reported = LauncherLink._reported

    def counted_then_saved(self: LauncherLink, report: Report) -> None:
        reported(self, report)
        if isinstance(report, CardCounted):  # another event is handled first, and saves
            assert self.ejector is not None
            self.save_owed(table.daemon.table.launcher)
            saved.append((report.owed, written[-1] + self.ejector.in_flight))

    monkeypatch.setattr(OwedFile, "save", kept)
    monkeypatch.setattr(LauncherLink, "_reported", counted_then_saved)
    async with SimTable(config(timeout_penalty=3), seed=2, state_dir=tmp_path) as table:
        await start(table, 1, 2, 3)
        await table.advance(9.0)  # the turn times out: 3 cards fly
        assert table.cards_out == 3
    assert saved == [(2, 2), (1, 1), (0, 0)]


def test_a_table_with_no_launcher_wired_reads_no_beam_and_deals_nothing(caplog):
    """A Pi of seven or eight seats has no pins left for a launcher (every simulated table
    has one): the menu's beam test reads nothing, and cards asked for are only logged."""
    board = SimpleNamespace(motor=None, beam=None, empty=None)
    link = LauncherLink(board, clock=VirtualClock(), inbox=None, state_dir=None)  # type: ignore[arg-type]
    assert not link.wired and link.link_up is None and link.beam_clear() is None
    link.carry_out(Dispense(2))
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert said == [(logging.WARNING, "no launcher is wired: Dispense(cards=2) not carried out")]


def failing_on_the_owed_file(code: int):
    """os.pwrite, failing with `code` on the cards-owed file alone."""
    pwrite = os.pwrite

    def write(fd: int, data: bytes, offset: int) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").endswith(FILE_NAME):
            raise OSError(code, os.strerror(code))
        return pwrite(fd, data, offset)

    return write


async def lcd_over(table: SimTable, seconds: float) -> list[tuple[str, str]]:
    """What the LCD shows, every quarter second for `seconds` of game time."""
    seen = []
    for _ in range(round(seconds / 0.25)):
        await table.advance(0.25)
        seen.append(tuple(line.rstrip() for line in table.lcd))
    return seen


async def test_a_cards_owed_file_that_refuses_a_write_mid_game_is_said_once_and_cards_go(
    tmp_path, monkeypatch
):
    async with SimTable(config(timeout_penalty=3), seed=2, state_dir=tmp_path) as table:
        await start(table, 1, 2, 3)
        monkeypatch.setattr(owed_module.os, "pwrite", failing_on_the_owed_file(errno.EIO))
        seen = await lcd_over(table, 20.0)  # turns time out: 3 cards each
        # Nothing is kept: a restart can only owe fewer, and every card goes.
        assert table.cards_out == 3 * len(table.events_of("timeout")) > 0
        notice = ("Not saving:", "write error")
        assert notice in seen
        shown = [i for i, lines in enumerate(seen) if lines == notice]
        assert shown == list(range(shown[0], shown[0] + len(shown)))  # once, not again


async def test_a_cards_owed_file_damaged_at_start_is_said_once_however_many_cards_follow(
    tmp_path,
):
    (tmp_path / FILE_NAME).write_bytes(b"\0" * 100)
    async with SimTable(config(timeout_penalty=3), seed=2, state_dir=tmp_path) as table:
        assert [line.rstrip() for line in table.lcd] == ["Cards owed: file", "damaged, 0 owed"]
        await table.advance(6.0)  # the notice is over
        await start(table, 1, 2, 3)
        seen = await lcd_over(table, 20.0)
        assert table.cards_out == 3 * len(table.events_of("timeout")) > 0
        assert ("Cards owed: file", "damaged, 0 owed") not in seen


async def test_no_card_leaves_that_the_cards_owed_file_does_not_allow(tmp_path, monkeypatch):
    """The daemon hands the launcher the cards-owed file's gate: a card goes only once the
    disk holds the count it leaves behind (a count still on its way holds it back)."""
    allowed = [False]
    allows = OwedFile.allows
    monkeypatch.setattr(OwedFile, "allows", lambda owed, cards: allowed[0] and allows(owed, cards))
    async with SimTable(config(), seed=2, state_dir=tmp_path) as table:
        table.daemon.handle(DealCards(2))
        await table.advance(3.0)
        assert table.cards_out == 0 and table.daemon.table.launcher.owed == 2


async def test_no_dispense_leaves_for_the_controller_that_the_cards_owed_file_does_not_hold(
    tmp_path, monkeypatch
):
    """The same gate on a serial controller: a dispense is asked for only once its record
    (id, cards asked, cards counted) is on the disk."""
    monkeypatch.setattr(OwedFile, "save_sent", lambda owed, sent: False)
    async with SimTable(config(), seed=2, state_dir=tmp_path, firmware=True) as table:
        table.daemon.handle(DealCards(2))
        await table.advance(3.0)
        assert table.launcher.cards_out == 0 and table.daemon.table.launcher.owed == 2


async def test_the_controller_lets_the_next_card_go_only_once_the_disk_holds_the_last(
    tmp_path, monkeypatch
):
    """After each card the record is written again with it counted; the controller is told
    it may let the next one go (KEPT) only once the disk holds that."""
    holds = OwedFile.holds
    monkeypatch.setattr(OwedFile, "holds", lambda owed, sent: sent[2] == 0 and holds(owed, sent))
    async with SimTable(config(), seed=2, state_dir=tmp_path, firmware=True) as table:
        table.daemon.handle(DealCards(2))
        await table.advance(3.0)
        assert table.launcher.cards_out == 1 and table.daemon.table.launcher.owed == 1
