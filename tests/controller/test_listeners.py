"""What the daemon tells its listeners (the log, MQTT, the web page, a user's script) can never
stop the table: the lights, the motor, the cards owed and the wakeup are carried out first, and
each listener is told alone, a failing one logged once per cause and counted. And the calls
meant for the table's loop thread refuse to run on another."""

from __future__ import annotations

import asyncio
import functools
import logging
import re

import pytest

from controller.config import Config
from controller.errors import WrongThread
from controller.game import View
from controller.game.holds import WIN_HOLD
from controller.requests import ChangeSettings, DealCards, GameCommand
from controller.settings import Settings
from controller.shell.inbox import Wake
from controller.shell.publish import GameEvent, Publisher, Shown
from controller.simulation.table import SimTable

CONFIG = Config(seats=3, settings=Settings({"turn_timer": 4, "timeout_penalty": 2}))


class Broken(Exception):
    pass


def listener(value: object) -> None:
    raise Broken(f"a bug, told {value!r:.40}")  # a message of its own each time


def watcher(value: object) -> None:
    listener(value)


def viewer(value: object) -> None:
    listener(value)


async def next_lit(table: SimTable) -> None:
    """Game time passes until a turn is lit (a notice shows first), 20 s at most."""
    for _ in range(40):
        if table.lit():
            return
        await table.advance(0.5)
    raise AssertionError(f"no turn came: {table.lcd}")


async def evening(table: SimTable) -> None:
    """Seats, turns ended in time and run out (penalties dealt), a SLAP race, a launcher hit,
    a pause and a resume, a quick dispense from the menu's door, a jam and its OK, a setting
    changed, and the round won."""
    for seat in (1, 2, 3):
        await table.tap(f"seat{seat}")
    await table.tap("play_pause")
    [lit] = table.lit()
    await table.advance(1.0)
    await table.tap(f"seat{lit}")  # in time
    await table.advance(6.0)  # the next runs out: 2 cards
    await next_lit(table)
    await table.tap("slap")
    await table.advance(0.3)
    [racer, *_] = sorted({1, 2, 3} - set(table.lit() or [0]) - {lit})
    await table.tap(f"seat{racer}")
    await table.advance(6.0)
    await next_lit(table)
    await table.tap("launcher")
    await table.advance(4.0)
    await table.tap("play_pause")
    await table.advance(2.0)
    await table.tap("play_pause")
    await asyncio.wrap_future(table.daemon.submit(DealCards(3)))
    await table.advance(0.3)
    table.jam()
    await table.advance(3.0)
    table.clear_jam()
    await table.tap("encoder.push")  # OK: the rest follows
    await table.advance(20.0)
    await asyncio.wrap_future(table.daemon.submit(ChangeSettings({"volume": "low"})))
    await next_lit(table)
    [winner] = table.lit()
    await table.hold(f"seat{winner}", WIN_HOLD + 0.1)  # out of cards: the round is over
    await table.advance(5.0)


async def played(*, broken: bool) -> tuple[list, int, int, tuple, dict]:
    async with SimTable(CONFIG, seed=5) as table:
        told: list[int] = []
        if broken:
            publisher = table.daemon.publisher
            publisher.listen(listener)
            publisher.watch(watcher)
            publisher.look(viewer)
        table.daemon.publisher.listen(lambda event: told.append(event.seq))
        await evening(table)
        events = [(e.seq, e.type, e.data) for e in table.events]
        assert told == [seq for seq, _, _ in events]  # a listener after the broken one too
        owed = table.daemon.table.launcher.owed
        return events, table.cards_out, owed, table.lcd, table.lights


async def test_a_listener_that_raises_on_every_event_changes_nothing_the_table_does(caplog):
    with caplog.at_level(logging.ERROR, logger="controller.shell.publish"):
        broken = await played(broken=True)
    events, cards_out, owed, lcd, lights = await played(broken=False)
    assert broken == (events, cards_out, owed, lcd, lights)
    kinds = {kind for _, kind, _ in events}
    for kind in ("turn_ended", "timeout", "penalty", "slap_result", "hit", "paused", "resumed"):
        assert kind in kinds
    assert {"settings_changed", "round_over"} <= kinds
    assert {"dispense", "card_out", "launcher_fault", "launcher_resumed"} <= kinds
    assert cards_out == sum(e[2]["cards"] for e in events if e[1] == "dispense") and owed == 0
    # Each logged once, whatever its message: one cause each.
    failed = [
        r.getMessage().split()[0] for r in caplog.records if "failed (a bug" in r.getMessage()
    ]
    assert sorted(failed) == ["listener", "viewer", "watcher"]


async def test_a_failing_listener_is_counted():
    async with SimTable(CONFIG, seed=5) as table:
        table.daemon.publisher.listen(listener)
        for seat in (1, 2):
            await table.tap(f"seat{seat}")
        assert table.daemon.publisher.failures == 2


def check(n: int) -> None:
    if n < 0:
        raise Broken(f"below zero: {n}")
    raise (Broken if n % 2 else KeyError)(n)


def checker(event: GameEvent) -> None:
    check(event.data["n"])


def test_a_failing_callback_is_logged_once_per_cause_where_it_was_raised(caplog):
    """A cause is the error's type and the line that raised it, whatever its message."""
    publisher = Publisher()
    publisher.listen(checker)
    for n in (-1, -2, 1, 3, 2, 4):
        publisher.announce("counted", {"n": n})
    assert publisher.failures == 6
    said = [(r.getMessage(), r.exc_info[0] if r.exc_info else None) for r in caplog.records]
    again = "the table plays on, and this cause is not logged again"
    assert said == [
        (f"checker failed (below zero: -1; 1 callback failures so far); {again}", Broken),
        (f"checker failed (1; 3 callback failures so far); {again}", Broken),
        (f"checker failed (2; 5 callback failures so far); {again}", KeyError),
    ]


def test_each_event_is_logged_on_one_line_with_its_data(caplog):
    caplog.set_level(logging.INFO, logger="controller.shell.publish")
    Publisher().announce("dispense", {"seat": 2, "cards": 3, "reason": "quick"})
    assert [r.getMessage() for r in caplog.records] == ["dispense seat=2 cards=3 reason=quick"]


def test_viewers_are_told_what_the_table_shows_whenever_it_changes_and_only_then():
    publisher = Publisher()
    told: list[Shown] = []
    publisher.look(told.append)
    view = View(("on", "off"), ("Seat 1 turn", ""))
    for shown, link in ((view, True), (view, True), (None, True), (view, False), (view, False)):
        publisher.showing(shown, link)
    assert told == [Shown(view, True), Shown(view, False)]
    assert publisher.shown == Shown(view, False)


def test_a_callback_with_no_name_of_its_own_is_named_as_it_prints(caplog):
    publisher = Publisher()
    told = functools.partial(checker)
    publisher.listen(told)
    publisher.announce("counted", {"n": 1})
    [record] = caplog.records
    assert record.getMessage().startswith(f"{told!r} failed (")


async def test_the_loop_threads_calls_refuse_another_thread():
    async with SimTable(CONFIG, seed=5) as table:
        daemon = table.daemon
        for name, call in (
            ("handle", lambda: daemon.handle(GameCommand("wake"))),
            ("refresh", daemon.refresh),
            ("feed", lambda: daemon.feed(GameCommand("wake").event(table.now))),
            ("handle_item", lambda: daemon.handle_item(Wake())),
        ):
            said = (
                f"Daemon.{name} runs on the table's loop thread only; from another thread, submit"
            )
            with pytest.raises(WrongThread, match=f"^{re.escape(said)}$"):
                await asyncio.to_thread(call)
        assert table.events == type(table.events)()  # nothing happened
