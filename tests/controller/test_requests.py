"""The one way into a running table from outside its pins: `Daemon.submit`."""

from __future__ import annotations

import asyncio
import logging

import pytest

from controller.config import Config
from controller.errors import SettingError, TableStopped
from controller.requests import ChangeSettings, DealCards, GameCommand, RereadSettings
from controller.settings import Settings
from controller.simulation.table import SimTable


async def answer(table: SimTable, future):
    await table.settle()
    return await asyncio.wrap_future(future)


async def test_a_change_answers_with_the_new_settings():
    async with SimTable(seed=1) as table:
        settings = await answer(table, table.daemon.submit(ChangeSettings({"turn_timer": 9})))
        assert settings.turn_timer == 9
        assert table.daemon.table.settings.turn_timer == 9


def test_a_change_names_settings_with_values_they_allow_or_is_refused_when_made():
    assert ChangeSettings({"turn_timer": "9s"}).changes == {"turn_timer": 9}
    with pytest.raises(SettingError, match="turn_timer cannot be 99"):
        ChangeSettings({"turn_timer": 99})
    with pytest.raises(SettingError, match="nothing to set"):
        ChangeSettings({})


async def test_a_change_the_table_refuses_answers_why_and_changes_nothing():
    async with SimTable(seed=1) as table:
        before = table.daemon.table.settings
        with pytest.raises(
            SettingError, match=r"^custom_min \(9\) cannot be above custom_max \(8\)$"
        ):
            await answer(table, table.daemon.submit(ChangeSettings({"custom_min": 9})))
        assert table.daemon.table.settings is before
        # The table plays on.
        await table.tap("seat1")
        assert table.events_of("seat_claimed")


async def test_a_change_is_its_own_copy_of_what_the_caller_handed_over():
    changes: dict[str, object] = {"turn_timer": 9}
    request = ChangeSettings(changes)
    changes["turn_timer"] = 99
    assert request.changes == {"turn_timer": 9}


def test_requests_that_cannot_be_carried_out_are_refused_when_made():
    with pytest.raises(ValueError, match="no game command"):
        GameCommand("explode")
    with pytest.raises(ValueError, match="1 to 12"):
        DealCards(13)
    with pytest.raises(ValueError, match="whole number"):
        DealCards(True)


async def test_a_request_that_fails_is_logged_and_the_asker_told(monkeypatch, caplog):
    async with SimTable(seed=1) as table:

        def broken(request, current):
            raise RuntimeError("disk on fire")

        monkeypatch.setattr(table.daemon.settings_keeper, "answer", broken)
        with caplog.at_level(logging.ERROR), pytest.raises(RuntimeError, match="disk on fire"):
            await answer(table, table.daemon.submit(RereadSettings()))
        [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert record.getMessage() == "carrying out RereadSettings() failed"
        assert record.exc_info is not None and "disk on fire" in caplog.text


async def test_a_request_the_table_stops_before_is_answered_table_stopped():
    table = SimTable(seed=1)
    async with table:
        daemon = table.daemon
        daemon.stop()
        queued = daemon.submit(GameCommand("start"))  # behind the stop in the queue
    with pytest.raises(TableStopped):
        await asyncio.wrap_future(queued)
    late = daemon.submit(GameCommand("start"))
    assert late.done()
    with pytest.raises(TableStopped):
        late.result()


async def test_stopping_with_the_menu_open_changes_nothing_in_the_game():
    table = SimTable(seed=1)
    async with table:
        for seat in ("seat1", "seat2", "play_pause"):
            await table.tap(seat)
        await table.turn(1)  # the menu opens: the turn waits
        assert table.daemon.panel.is_open
        seen = len(table.events)
    assert list(table.events)[seen:] == []
    assert table.clock.next_due() is None  # no timer of the game outlives the daemon


@pytest.mark.parametrize(
    ("name", "seat", "message"),
    [
        ("bring_back", None, "a seat goes with bring_back"),
        ("start", 3, "a seat goes with bring_back, and with no other command"),
        ("bring_back", 9, "seat must be 1 to 8, not 9"),
        ("bring_back", True, "seat must be 1 to 8, not True"),
    ],
)
def test_bring_back_names_a_seat_and_no_other_command_does(name, seat, message):
    with pytest.raises(ValueError, match=message):
        GameCommand(name, seat)


async def test_bring_back_and_reset_standings_reach_the_game_from_outside_the_menu():
    config = Config(settings=Settings({"finish": "places", "turn_timer": "off"}))
    async with SimTable(config, seed=1) as table:
        for seat in (1, 2, 3):
            await table.tap(f"seat{seat}")
        await table.tap("play_pause")
        [lit] = table.lit()
        leaving = next(seat for seat in (1, 2, 3) if seat != lit)
        await table.hold(f"seat{leaving}", 2.2)
        assert table.daemon.table.places == (leaving,)
        await answer(table, table.daemon.submit(GameCommand("bring_back", leaving)))
        assert table.daemon.table.places == ()
        await answer(table, table.daemon.submit(GameCommand("reset_standings")))
        assert table.events_of("standings_reset")[-1].data == {"reason": "menu"}
