"""Every text the LCD shows fits its 16 columns and its character set, in each language the
LCD shows (English and German; Chinese shows English there): every message of the glass as
the catalogs hold it, and every page of the menu in every state it has, walked, not listed."""

from __future__ import annotations

import errno
import itertools
import string
from collections.abc import Iterator
from dataclasses import replace

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from controller.catalogs import LOCALE_DIR, ON_THE_LCD, lcd_translation
from controller.game.lcd_charset import can_show
from controller.game.lcd_glyphs import ARROW_LEFT, ARROW_RIGHT
from controller.game.text import COLUMNS
from controller.menu import navigator
from controller.menu.navigator import Menu, editing_pages, ident, render
from controller.menu.tree import Context, Entry, Hand, top
from controller.mqtt import why_down
from controller.settings import SETTINGS, Setting, Settings, dragged
from controller.shell.panel import info_lines
from controller.storage.statefile import not_saving

# The sources whose texts go on the glass: a line each, but for what a setting or a word
# value means (settings/meanings.py), which the menu wraps into pages of the LCD's width.
GLASS = ("controller/game/", "controller/menu/", "controller/storage/", "controller/shell/")
GLASS_FILES = ("controller/mqtt/why_down.py", "controller/settings/__init__.py")
WRAPPED = "controller/settings/meanings.py"
PHASES = ("seating", "play", "busy", "paused", "over", "extreme")


def template() -> list[Message]:
    """Every message of the flashtable domain's template, read once for the module."""
    with (LOCALE_DIR / "flashtable.pot").open("rb") as pot:
        return [message for message in read_po(pot) if message.id]


# What the light patterns mean: the terminal view's legend and the page's, never the LCD's.
NOT_GLASS = ("controller/game/light_marks.py",)


def on_glass(files: tuple[str, ...]) -> bool:
    glass = (path for path in files if path not in NOT_GLASS)
    return any(path.startswith(GLASS) or path in GLASS_FILES for path in glass)


TEMPLATE = template()
# (msgid, the files it is written in) for every message, a plural by its singular; and each
# plural's singular -> (singular, plural).
MESSAGES = [
    (m.id if isinstance(m.id, str) else m.id[0], tuple(path for path, _ in m.locations))
    for m in TEMPLATE
]
PLURALS = {m.id[0]: m.id for m in TEMPLATE if isinstance(m.id, tuple)}
LINES = [msgid for msgid, files in MESSAGES if on_glass(files) and WRAPPED not in files]
WRAPPED_TEXTS = [msgid for msgid, files in MESSAGES if WRAPPED in files]


def shown(text: str) -> str:
    """A text with its placeholders left empty: the least room it takes on a line."""
    fields = {name: "" for _, name, _, _ in string.Formatter().parse(text) if name}
    return text.format(**fields)


def all_forms(language: str, msgid: str) -> list[str]:
    t = lcd_translation(language)
    plural = PLURALS.get(msgid)
    if plural is None:
        return [t.gettext(msgid)]
    return [t.ngettext(plural[0], plural[1], n) for n in (1, 2)]


def test_the_glass_has_messages_and_knows_which():
    assert len(LINES) > 100 and len(WRAPPED_TEXTS) > 20


@pytest.mark.parametrize("language", ON_THE_LCD)
def test_every_message_of_the_glass_fits_a_line_in_characters_the_glass_has(language):
    too_long = {}
    for msgid in LINES:
        for text in all_forms(language, msgid):
            if len(shown(text)) > COLUMNS or not can_show(text):
                too_long[msgid] = text
    assert too_long == {}


@pytest.mark.parametrize("language", ON_THE_LCD)
def test_every_word_of_what_a_setting_means_fits_a_page(language):
    t = lcd_translation(language)
    words = {
        word
        for msgid in WRAPPED_TEXTS
        for word in t.gettext(msgid).split()
        if len(word) > COLUMNS or not can_show(word)
    }
    assert words == set()


# -- the menu, every page of it --------------------------------------------------------


def contexts(language: str) -> Iterator[Context]:
    """The menu's every kind of table: each phase, with and without a launcher, places
    taken, hands waiting for points, standings, and the Info screen's longest words."""
    t = lcd_translation(language)
    link_words = sorted(
        {why_down.LOST, why_down.UNEXPECTED, *why_down.REFUSED.values(), *why_down.CLOSED.values()}
    )
    for phase, launcher in itertools.product(PHASES, (False, True)):
        for mqtt in link_words if phase == "seating" and launcher else ["connected"]:
            yield Context(
                settings=Settings({"language": language}),
                phase=phase,
                stations=8,
                has_launcher=launcher,
                seated=1 if phase == "seating" else 8,
                out=(3, 5, 8) if phase in ("play", "paused") else (),
                standings=(("Standings after", "12 rounds"),),
                hands=(Hand(2, "Maximilian", None), Hand(7, "Seat 7", 999)),
                info=lambda mqtt=mqtt: info_lines(
                    t,
                    mqtt=mqtt,
                    cards_out=99999,
                    jams=9999,
                    ip=lambda: ["255.255.255.255", "fd00::1234:5678"],
                ),
                last_button="seat8",
                beam_clear=None,
            )


def walk(entries: tuple[Entry, ...], path: tuple[str, ...], context: Context) -> Iterator[Menu]:
    """Every state of the menu over `entries` and below: each entry, its confirmation, its
    test, its points' digits, each value of a setting with every page of what it does."""
    for entry in entries:
        at = ident(entry)
        yield Menu(path=path, at=at)
        if entry.kind == "confirm":
            yield Menu(path=path, at=at, confirming=True)
        if entry.kind == "test":
            yield Menu(path=path, at=at, test=entry.key, test_seat=8)
        if entry.kind == "points":
            for digit in range(navigator.DIGITS):
                yield Menu(path=path, at=at, editing=True, digit=digit, draft=999)
        if entry.children is not None:
            yield from walk(entry.children(context), (*path, at), context)


def menu_screens(language: str) -> Iterator[tuple[str, str]]:
    """Every screen of the menu: each table's menu walked, and each value of each setting
    with every page of what it does. A value's screens are drawn from the settings alone
    (the setting's label, its value, what the value does: navigator.render), so each
    setting's are drawn once, on the first table whose menu holds it, not again for each
    phase of the same menu."""
    drawn: set[str] = set()
    for context in contexts(language):
        held = set()
        for menu in walk(top(context), (), context):
            held.add(menu.at)
            yield render(menu, context)
        for spec in SETTINGS:
            at = ident(Entry(spec.label, "setting", spec.key, name=spec.key))
            if at in held and at not in drawn:
                drawn.add(at)
                yield from value_screens(context, spec, at)
    assert len(drawn) == len(SETTINGS)  # every setting is on some table's menu


def value_screens(context: Context, spec: Setting, at: str) -> Iterator[tuple[str, str]]:
    """Each value of the setting `spec` (the menu's entry `at`) chosen, with every page of
    what it does."""
    for option in spec.options:
        settings = context.settings.replace(dragged(context.settings, spec.key, option))
        valued = Context(**{**vars(context), "settings": settings})
        held = where(valued, at)
        assert held is not None, f"{spec.key} = {option!r}: not on the menu"
        for page in range(len(editing_pages(spec.label, spec.key, valued))):
            yield render(replace(held, editing=True, page=page), valued)


def where(context: Context, at: str) -> Menu | None:
    """The menu at the entry `at`, in whatever submenu holds it; None if none does."""
    return next((menu for menu in walk(top(context), (), context) if menu.at == at), None)


@pytest.mark.parametrize("language", ON_THE_LCD)
def test_every_page_of_the_menu_fits_the_glass(language):
    seen, bad = 0, set()
    for lines in menu_screens(language):
        seen += 1
        for line in lines:
            glass = line.replace(ARROW_LEFT, "").replace(ARROW_RIGHT, "")
            if len(line) > COLUMNS or not can_show(glass):
                bad.add(line)
    assert seen > 1000 and bad == set()


@pytest.mark.parametrize("language", ON_THE_LCD)
def test_every_refusal_of_the_disk_fits_its_notice(language):
    t = lcd_translation(language)
    for code in (*errno.errorcode, 0):
        for line in not_saving(OSError(code, "Some very long words of the system")):
            assert len(t.gettext(line)) <= COLUMNS and can_show(t.gettext(line))
