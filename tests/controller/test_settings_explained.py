"""Every option has its line of explanation wherever it is chosen: the settings model holds
one line per setting and one per word option, and the LCD menu, the terminal view's options
screen and docs/config.md each show them (generated from the model, not listed by hand)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from controller.catalogs import lcd_translation
from controller.config import Config
from controller.game.lcd_charset import can_show
from controller.game.text import COLUMNS
from controller.menu.navigator import PAGE_TIME
from controller.settings import BY_KEY, SETTINGS, Settings
from controller.settings.meanings import MEANINGS
from controller.simulation.table import SimTable
from controller.tui.options_screen import options_lines

from .test_menu import goto, lcd, push

DOCS = Path(__file__).parents[2] / "docs"
# The options named by a word: a word, or 0 where it has one ("off" for target_score).
WORD_OPTIONS = [
    (s.key, o) for s in SETTINGS for o in s.options if isinstance(o, str) or (o == 0 and s.zero)
]


def test_every_setting_says_what_it_does_and_every_word_option_what_it_means():
    for spec in SETTINGS:
        assert spec.about.endswith(".") and len(spec.about) > 10, spec.key
    for key, option in WORD_OPTIONS:
        assert MEANINGS[key][str(option)].endswith("."), (key, option)
        assert BY_KEY[key].explain(option) == MEANINGS[key][str(option)]
    meant = {(k, o) for k, options in MEANINGS.items() for o in options}
    assert meant == {(k, str(o)) for k, o in WORD_OPTIONS}


@pytest.mark.parametrize(("key", "option"), WORD_OPTIONS)
async def test_the_lcd_menu_says_what_a_word_option_does_while_it_is_chosen(key, option):
    spec = BY_KEY[key]
    settings = Settings({key: option})
    t = lcd_translation(settings.language)  # the language chosen is the menu's at once
    config = Config(settings=settings)
    async with SimTable(config, seed=1) as table:
        await goto(table, spec.label_in(t))
        await push(table)
        pages = textwrap.wrap(t.gettext(spec.explain(option)), COLUMNS)
        shown = []
        for _ in range(len(pages) + 1):
            shown.append(lcd(table)[0].rstrip())
            # A language the LCD's ROM cannot write shows as its code ("zh").
            value = spec.text(option, t) if can_show(spec.text(option, t)) else option
            assert lcd(table)[1].strip(" ←→") == value
            await table.advance(PAGE_TIME)
        # the meaning page by page, then the label again
        assert shown == [*pages, "→" + spec.label_in(t)]


async def test_the_lcd_menu_says_what_a_number_does_and_turning_shows_the_new_value_at_once():
    async with SimTable(seed=1) as table:
        await goto(table, "Slap window")
        await push(table)
        about = textwrap.wrap(BY_KEY["slap_window"].about, COLUMNS)
        assert lcd(table)[0].rstrip() == about[0]
        await table.advance(PAGE_TIME * len(about))
        assert lcd(table)[0].rstrip() == "→Slap window"
        await table.turn(1)
        assert lcd(table)[0].rstrip() == about[0]  # the first page again, with the new value


def test_the_views_options_screen_shows_every_line_of_the_model():
    text = " ".join(" ".join(options_lines()).split())
    for spec in SETTINGS:
        assert spec.about in text, spec.key
    for key, option in WORD_OPTIONS:
        # Each option as the menu shows it ("0" as "off").
        shown = BY_KEY[key].text(option)
        assert f"{shown} {MEANINGS[key][str(option)]}" in text, (key, option)


def test_the_settings_table_of_the_docs_says_what_each_setting_and_option_does():
    doc = (DOCS / "config.md").read_text(encoding="utf-8")
    rows = {
        key: " ".join(cells.split())
        for key, cells in re.findall(r"^\| `([a-z_0-9]+)`(?: … `[a-z_0-9]+`)? \|(.*)$", doc, re.M)
    }
    for spec in SETTINGS:
        if spec.key.startswith("handicap_seat") and spec.key != "handicap_seat1":
            continue
        assert spec.about in rows[spec.key], spec.key
        for option, meaning in MEANINGS.get(spec.key, {}).items():
            assert f"`{option}`: {meaning}" in rows[spec.key], (spec.key, option)
