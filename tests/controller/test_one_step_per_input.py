"""One input, one step: a detent of the encoder in the menu and a press of a button each step
the engine once and draw the lights and the LCD once (a settings change from MQTT too:
tests/controller/mqtt/test_one_step_over_mqtt.py).
And what the panel folds into that one step still holds: a detent that changes a setting
keeps the table awake, as any touch of the encoder does."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

from controller.config import Config
from controller.settings import Settings
from controller.simulation.table import SimTable

from .test_menu import goto, lcd, push


@dataclass
class Counts:
    steps: int = 0
    draws: int = 0


@contextlib.contextmanager
def counted(table: SimTable) -> Iterator[Counts]:
    """The engine's steps of the table in play (not the answers worked out ahead on copies)
    and the renderer's passes, while inside."""
    daemon, counts = table.daemon, Counts()
    feed, draw = daemon.feed, daemon.renderer.draw

    def counted_feed(event):
        counts.steps += 1
        return feed(event)

    def counted_draw(*args):
        counts.draws += 1
        draw(*args)

    daemon.feed, daemon.renderer.draw = counted_feed, counted_draw
    try:
        yield counts
    finally:
        del daemon.feed, daemon.renderer.draw


QUIET = Settings({"turn_timer": 4, "sleep_time": "off"})


async def test_a_detent_that_changes_a_setting_is_one_step_and_one_drawing():
    async with SimTable(Config(settings=QUIET), seed=3) as table:
        await goto(table, "Turn timer")
        await push(table)
        with counted(table) as counts:
            await table.turn(1)
        assert table.daemon.table.settings.turn_timer == 5
        assert lcd(table)[1] == "←     5 s      →"
        assert counts == Counts(steps=1, draws=1)


async def test_a_detent_that_moves_in_the_menu_is_one_step_and_one_drawing():
    async with SimTable(Config(settings=QUIET), seed=3) as table:
        await goto(table, "Turn timer")
        with counted(table) as counts:
            await table.turn(1)
        assert lcd(table)[0] != "→Turn timer"
        assert counts == Counts(steps=1, draws=1)


async def test_the_detent_that_opens_the_menu_is_one_step_and_one_drawing():
    async with SimTable(Config(settings=QUIET), seed=3) as table:
        with counted(table) as counts:
            await table.turn(1)
        assert table.daemon.panel.is_open and table.daemon.table.menu_open
        assert counts == Counts(steps=1, draws=1)


async def test_a_press_is_one_step_and_one_drawing():
    async with SimTable(Config(settings=QUIET), seed=3) as table:
        with counted(table) as counts:
            await table.press("seat2")
        assert table.events_of("seat_claimed")[0].data["seat"] == 2
        assert counts == Counts(steps=1, draws=1)


async def test_changing_a_setting_in_the_menu_keeps_the_table_awake():
    async with SimTable(Config(settings=Settings({"sleep_time": 1})), seed=3) as table:
        await goto(table, "Turn timer")
        await push(table)
        for _ in range(6):  # a minute and a half of turning the value, nothing else
            await table.advance(15.0)
            await table.turn(1)
        assert table.events_of("asleep") == []
        assert table.daemon.table.settings.turn_timer > 4


def test_what_the_menu_asks_by_hand_starts_the_sleep_timer_over_and_nothing_else_does():
    import random

    from controller.game import Configure, new_table, step
    from controller.game.events import ExactDraw

    settings = Settings({"sleep_time": 1})
    fresh = new_table(settings, 4, has_launcher=True)
    start, _ = step(fresh, Configure(settings, 0.0), 0.0, random.Random(1))
    for by_hand in (False, True):
        for event in (Configure(settings, 30.0, by_hand), ExactDraw(1, "quick", 30.0, by_hand)):
            table, _ = step(start, event, 30.0, random.Random(1))
            assert table.last_input == (30.0 if by_hand else 0.0), event
