"""A whole round played in German, and one in Chinese, on the simulated table's terminal
view: every screen of the round and of the menu is read, and no English word is left on
what each language covers (German: the view and its LCD; Chinese: the view, its LCD showing
English by design). The event log stays English, as the logs do (docs/config.md)."""

from __future__ import annotations

import asyncio
import re

import pytest
from babel.messages.pofile import read_po

from controller.catalogs import LOCALE_DIR
from controller.tui.lcd import Lcd
from controller.tui.logview import EventLog
from controller.tui.screen_text import screen_text

from .test_tui import keys, running

# Its tests take long in all: the file starts first (tests/conftest.py).
pytestmark = pytest.mark.long

WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{2,}")


def words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(re.sub(r"\{\w+\}", "", text))}


def english_only(language: str) -> set[str]:
    """The words of the English texts that the language's own texts never use: a screen in
    that language that shows one shows English (generated from the catalogs)."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / "flashtable.po").open("rb") as po:
        catalog = read_po(po)
    english, translated = set(), set()
    for message in catalog:
        if not message.id:
            continue
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            english |= words(text)
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            translated |= words(text)
    return english - translated


def covered(app, language: str) -> str:
    """The screen as the language covers it: without the event log (English, as logs are)
    and, in Chinese, without the LCD (English there by design)."""
    rows = screen_text(app).splitlines()
    hidden = [app.query_one(EventLog).region]
    if language == "zh":
        hidden.append(app.query_one(Lcd).region)
    for region in hidden:
        for y in range(region.y, min(region.y + region.height, len(rows))):
            row = rows[y]
            rows[y] = row[: region.x] + " " * region.width + row[region.x + region.width :]
    return "\n".join(rows)


async def play_a_round(language: str) -> list[str]:
    """Every screen of the menu walked entry by entry, then of a round: seats taken, turns
    pressed and timed out, a SLAP race, a launcher hit, the round won, its summary."""
    seen: list[str] = []
    settings = {"language": language, "turn_timer": 3, "finish": "first"}
    async with running(seats=4, size=(100, 30), settings=settings, seed=4) as (app, pilot):

        async def look(*names: str, gap: float = 0.3) -> None:
            for name in names:
                await keys(app, pilot, name, gap=gap)
                seen.append(covered(app, language))

        await look(*["right"] * 30)  # the menu, its every top entry
        await look("backspace", gap=1.5)
        await look("question_mark", "escape", "o", "escape")  # the help, the options
        await look("1", "2", "3")  # seats taken
        await look("p")  # the round starts
        game = app.table.daemon.table
        for _ in range(6):  # turns: pressed, or left to time out
            lit = app.table.daemon.table.turn
            if lit is not None:
                await look(str(lit.seat))
            await look("l", gap=1.0)  # the launcher
            await look("space", gap=0.5)  # a SLAP race, the others slow
            for _ in range(8):
                await app.advance(0.5)
                await pilot.pause()
                seen.append(covered(app, language))
        turn = app.table.daemon.table.turn
        seat = turn.seat if turn is not None else min(game.seated)
        await look(f"shift+{seat}", gap=3.0)  # held: hand empty, the round is won
        for _ in range(20):  # the summary, page by page
            await app.advance(1.0)
            await pilot.pause()
            seen.append(covered(app, language))
        assert app.table.daemon.table.phase.value == "round_over"
        await look("s", "escape")  # the standings
    return seen


@pytest.mark.parametrize("language", ["de", "zh"])
def test_a_round_and_the_menu_show_no_english_where_the_language_reaches(language):
    screens = asyncio.run(play_a_round(language))
    forbidden = english_only(language)
    assert len(forbidden) > 50  # the catalogs' English is there to be missed
    left = {word for screen in screens for word in words(screen)} & forbidden
    assert left == set(), next(s for s in screens if words(s) & left)
