"""What a remote hears back from a command (the web page's answer, MQTT's `error`): done with
nothing to add when the table did what was asked, done with what it should know when the
table was there already or did less, refused with the table's own reason when it did nothing.
The door both remotes use: `DaemonControl`."""

from __future__ import annotations

import pytest

from controller.config import Config
from controller.errors import MessageRefused
from controller.game import Phase, new_table
from controller.game.holds import WIN_HOLD
from controller.game.state import MAX_OWED
from controller.remote.control import DaemonControl, Done, answer
from controller.remote.inbound import Order
from controller.requests import EnterPoints, NameSeat
from controller.settings import Settings
from controller.shell.publish import Stepped
from controller.simulation.table import SimTable

from .seated import QUIET, QUIET_SETTINGS, started


async def test_a_remote_pause_of_a_running_turn_and_its_resume_are_done_with_nothing_to_add():
    async with SimTable(QUIET, seed=2) as table:
        await started(table)
        control = DaemonControl(table.daemon)
        assert await control.carry_out(Order("pause")) == Done()
        assert table.daemon.table.phase is Phase.PAUSED
        assert await control.carry_out(Order("resume")) == Done()
        assert table.daemon.table.phase is Phase.TURN


async def test_a_remote_resume_with_the_menu_open_between_rounds_is_refused_nothing_is_paused():
    async with SimTable(QUIET, seed=2) as table:
        for seat in ("seat1", "seat2"):
            await table.tap(seat)
        await table.turn(1)  # the menu opens at the table, nothing paused
        assert table.daemon.table.menu_open
        with pytest.raises(MessageRefused) as refused:
            await DaemonControl(table.daemon).carry_out(Order("resume"))
        assert str(refused.value) == "resume: nothing is paused (phase seating)"


async def test_a_dispense_is_answered_with_its_own_cards_not_a_timeout_penalty_in_its_step():
    settings = Settings({**QUIET_SETTINGS, "timeout_penalty": 2})
    async with SimTable(Config(seats=3, settings=settings), seed=2) as table:
        await started(table)
        control = DaemonControl(table.daemon)
        for _ in range(10):  # 100 owed: the launcher has room for 8 more
            assert await control.carry_out(Order("dispense", cards=10)) == Done()
        # The turn's time runs out at the very moment the remote's dispense is carried out
        # (no timer has run meanwhile): the step deals the penalty first, and the launcher's
        # limit cuts the dispense.
        turn = table.daemon.table.turn
        assert turn is not None and turn.deadline is not None
        table.clock.set(turn.deadline)
        done = await control.carry_out(Order("dispense", cards=8))
        assert [(e.data["reason"], e.data["cards"]) for e in table.events_of("dispense")][-2:] == [
            ("timeout", 2),
            ("quick", 6),
        ]
        assert done == Done(
            f"dispense: 6 of 8 cards dealt; the launcher owes {MAX_OWED} at most (a whole deck)",
            whole=False,
        )


def test_a_dispense_on_a_table_without_a_launcher_is_refused_saying_so():
    table = new_table(Settings(QUIET_SETTINGS), 3, has_launcher=False)
    with pytest.raises(MessageRefused) as refused:
        answer(Order("dispense", cards=3), Stepped((), table))
    assert str(refused.value) == "dispense: this table has no launcher"


async def test_a_name_taken_is_done_a_name_the_seat_has_already_is_said_a_seat_not_there_refused():
    async with SimTable(QUIET, seed=2) as table:
        control = DaemonControl(table.daemon)

        async def name(seat: int, name: str) -> Done:
            return await control.carry_out(Order("name", asked=NameSeat(seat, name)))

        assert await name(2, "Anna") == Done()
        assert table.daemon.table.names == {2: "Anna"}
        assert await name(2, "Anna") == Done("name: seat 2 is called that already")
        with pytest.raises(MessageRefused) as refused:
            await name(5, "Bo")
        assert str(refused.value) == "name: no seat 5 at this table (3 seats)"
        assert table.daemon.table.names == {2: "Anna"}


async def test_points_are_done_when_taken_and_refused_for_the_winner_or_a_seat_not_in_the_round():
    settings = Settings({**QUIET_SETTINGS, "target_score": 500})
    async with SimTable(Config(seats=3, settings=settings), seed=2) as table:
        await started(table)
        [lit] = table.lit()
        await table.hold(f"seat{lit}", WIN_HOLD + 0.1)  # the lit seat wins the round
        control = DaemonControl(table.daemon)

        async def points(seat: int) -> Done:
            return await control.carry_out(Order("points", asked=EnterPoints(seat, 12)))

        assert await points(3 - lit) == Done()
        for seat, reason in (
            (lit, f"Seat {lit} won the round: enter the others' points"),
            (3, "seat 3 did not play the round"),
        ):
            with pytest.raises(MessageRefused) as refused:
                await points(seat)
            assert str(refused.value) == f"points: {reason}"
