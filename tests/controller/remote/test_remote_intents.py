"""A remote's start, pause and resume say what is wanted, and the table checks it in the step
that carries it out: one that is so already does nothing, and a remote racing a player's
press never undoes it. The door both remotes use (MQTT and the web page): `DaemonControl`."""

from __future__ import annotations

import asyncio

import pytest

from controller.errors import MessageRefused
from controller.game import Phase
from controller.remote.control import DaemonControl, Done
from controller.remote.inbound import Order
from controller.simulation.table import SimTable

from .seated import QUIET, started


async def test_a_remote_resume_racing_a_players_play_press_leaves_the_table_running():
    async with SimTable(QUIET, seed=2) as table:
        await started(table)
        await table.tap("play_pause")
        assert table.daemon.table.phase is Phase.PAUSED
        await table.advance(1.0)
        # The remote asks while the table is paused; the player's press lands first.
        asked = asyncio.create_task(DaemonControl(table.daemon).carry_out(Order("resume")))
        table.pin("play_pause").drive_low()
        await table.settle()
        done = await asked
        assert table.daemon.table.phase is Phase.TURN
        assert [e.type for e in table.events][-1] == "resumed"
        assert done == Done("resume: the table is running already (phase turn)")


async def test_a_remote_pause_racing_a_players_play_press_leaves_the_table_paused():
    async with SimTable(QUIET, seed=2) as table:
        await started(table)
        await table.advance(1.0)
        asked = asyncio.create_task(DaemonControl(table.daemon).carry_out(Order("pause")))
        table.pin("play_pause").drive_low()
        await table.settle()
        assert await asked == Done("pause: the table is paused already")
        assert table.daemon.table.phase is Phase.PAUSED


async def test_a_remote_start_of_a_running_round_does_nothing_and_says_so():
    async with SimTable(QUIET, seed=2) as table:
        await started(table)
        before = len(table.events)
        control = DaemonControl(table.daemon)
        assert await control.carry_out(Order("start")) == Done(
            "start: a round is running already (phase turn)"
        )
        assert len(table.events) == before and table.daemon.table.phase is Phase.TURN


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("pause", "pause: no turn is running (phase seating)"),
        ("resume", "resume: nothing is paused (phase seating)"),
        ("new_round", "new_round: no round has started yet (phase seating)"),
        ("start", "start: 1 seat(s) claimed; a round needs 2 or more"),
    ],
)
async def test_a_command_the_table_cannot_carry_out_is_refused_with_the_reason(action, reason):
    async with SimTable(QUIET, seed=2) as table:
        await table.tap("seat1")
        with pytest.raises(MessageRefused) as refused:
            await DaemonControl(table.daemon).carry_out(Order(action))
        assert str(refused.value) == reason
        assert table.daemon.table.phase is Phase.SEATING


async def test_a_remote_new_round_ends_the_round_and_starts_the_next_in_one_step():
    async with SimTable(QUIET, seed=2) as table:
        await started(table)
        control = DaemonControl(table.daemon)
        steps = 0
        feed = table.daemon.feed

        def counted(event):
            nonlocal steps
            steps += 1
            return feed(event)

        table.daemon.feed = counted  # type: ignore[method-assign]
        assert await control.carry_out(Order("new_round")) == Done()
        del table.daemon.feed
        assert steps == 1
        assert [e.type for e in table.events][-3:-1] == ["round_over", "round_started"]
        assert table.daemon.table.phase is Phase.TURN


async def test_no_remote_runs_a_turn_under_the_menu_open_at_the_table():
    async with SimTable(QUIET, seed=2) as table:
        for seat in ("seat1", "seat2"):
            await table.tap(seat)
        await table.turn(1)  # someone opens the menu
        control = DaemonControl(table.daemon)
        wait = "the turn goes on once the menu at the table closes"
        assert await control.carry_out(Order("start")) == Done(f"start: {wait}")
        assert table.daemon.table.phase is Phase.PAUSED
        await table.advance(10.0)  # far past the turn's 6 s: no timeout under the menu
        assert table.events_of("timeout") == []
        assert await control.carry_out(Order("resume")) == Done(f"resume: {wait}")
        assert table.daemon.table.phase is Phase.PAUSED
        await table.hold("encoder.push", 1.2)  # back out of the menu: the turn goes on
        assert not table.daemon.panel.is_open
        assert table.daemon.table.phase is Phase.TURN


async def test_a_remote_resume_of_a_pause_the_menu_found_goes_on_when_the_menu_closes():
    async with SimTable(QUIET, seed=2) as table:
        await started(table)
        await table.tap("play_pause")  # paused by Play/Pause, then the menu opens
        await table.turn(1)
        await DaemonControl(table.daemon).carry_out(Order("resume"))
        assert table.daemon.table.phase is Phase.PAUSED
        await table.hold("encoder.push", 1.2)
        assert table.daemon.table.phase is Phase.TURN
