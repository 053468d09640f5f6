"""Facts that must live in more than one place (the engine may not import the hardware, a
document is not code) are held equal here, so that changing one copy alone fails a test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hardware.display
from controller.game import profiles, text
from controller.settings import BY_KEY, SETTINGS

DOCS = Path(__file__).parents[2] / "docs"


def test_every_launcher_profile_the_settings_offer_is_one_the_engine_can_fire():
    offered = set(BY_KEY["launcher_profile"].options)
    assert offered == {*profiles.PROFILES, "custom"}


def test_the_game_writes_lines_as_wide_as_the_display_is():
    assert text.COLUMNS == hardware.display.COLUMNS


def test_the_settings_table_in_the_docs_is_the_settings_model():
    doc = (DOCS / "config.md").read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| `([a-z_0-9]+)`(?: … `[a-z_0-9]+`)? \| ([^|]+) \| ([^|]+) \| ([^|]+) \|.*$",
        doc,
        flags=re.M,
    )
    documented = {
        key: (label.strip(), _as_allowed(values), default.strip().strip("`"))
        for key, label, values, default in rows
    }
    handicaps = [s for s in SETTINGS if s.key.startswith("handicap_seat")]
    for spec in SETTINGS:
        if spec in handicaps[1:]:
            continue
        assert spec.key in documented, spec.key
        label, values, default = documented[spec.key]
        assert label == (spec.label if spec not in handicaps else "Seat N handicap"), spec.key
        assert values == spec.allowed(), spec.key  # as a refusal lists them
        assert default == str(spec.default), spec.key
    assert set(documented) <= set(BY_KEY)


def _as_allowed(values: str) -> str:
    """The docs' "`0` (off), 100\N{EN DASH}1000 points, in steps of 50" as a refusal
    writes it."""
    values = values.strip().replace("`", "").replace("\N{EN DASH}", "-")
    return values.replace(", in steps", " in steps")


@pytest.mark.parametrize("has_launcher", [True, False])
def test_the_remote_offers_the_settings_the_lcd_menu_offers(has_launcher):
    from controller.game import new_table
    from controller.menu.tree import Context, top
    from controller.settings import Settings
    from controller.web.remote import offered

    table = new_table(Settings(), 6, has_launcher=has_launcher)
    context = Context(
        settings=table.settings,
        phase="seating",
        stations=table.stations,
        has_launcher=has_launcher,
        seated=0,
    )

    def keys(entries) -> set[str]:
        found = set()
        for entry in entries:
            if entry.kind == "setting":
                found.add(entry.key)
            if entry.children is not None:
                found |= keys(entry.children(context))
        return found

    assert set(offered(table)) == keys(top(context))


def test_every_character_the_game_puts_on_the_lcd_as_a_name_is_that_character_on_the_glass():
    from RPLCD.codecs import A00Codec

    from controller.game.lcd_charset import SHOWN
    from controller.game.lcd_glyphs import CUSTOM_CHARS, SUBSTITUTES, readable
    from hardware.sim.hd44780 import rom_glyphs

    rom = rom_glyphs("A00")
    codec = A00Codec()
    for character in sorted(SHOWN):
        # The display writes what A00 lacks as a cell of its own: a ROM cell or a glyph.
        code = SUBSTITUTES.get(character, codec.encode(character)[0])
        glass = readable(chr(code)) if code < len(CUSTOM_CHARS) else rom.get(code)
        assert glass == character, f"{character!r} is cell {code:#x} on the glass"
    # And the two the ROM has in place of ASCII's: a name with them shows as a seat number.
    assert not {"\\", "~"} & SHOWN
