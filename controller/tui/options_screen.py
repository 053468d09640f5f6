"""The `o` screen: what each setting of the menu does, and each of its word options, as the
LCD menu says it while a value is chosen (controller/settings.py holds the lines)."""

from __future__ import annotations

import textwrap
from typing import ClassVar

from rich.cells import set_cell_size
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from controller.catalogs import Words, translation
from controller.settings import SETTINGS
from controller.settings.meanings import MEANINGS

from .text_screen import TextScreen

WIDTH = 74  # inside the box's frame and padding on an 80-column terminal


def options_lines(words: Words | None = None) -> list[str]:
    """Each setting (the seat handicaps as one), its line, and its word options' lines, in
    the language of `words` (English without), each option as the menu shows it."""
    t = words or translation("en")
    lines: list[str] = []
    for spec in SETTINGS:
        if spec.key.startswith("handicap_seat") and spec.key != "handicap_seat1":
            continue
        label = spec.label_in(t).replace("1", "N") if spec.key == "handicap_seat1" else None
        about = f"{label or spec.label_in(t)}: {t.gettext(spec.about)}"
        lines += textwrap.wrap(about, WIDTH, subsequent_indent="  ")
        for option, meaning in MEANINGS.get(spec.key, {}).items():
            # Padded by the cells a terminal gives each character (a Chinese one takes two).
            value = spec.text(spec.parse(option), t)  # as the menu shows it
            text = set_cell_size(value, 10) + t.gettext(meaning)
            lines += textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent=" " * 12)
    return lines


class OptionsScreen(TextScreen):
    """The options explained; any of o q esc closes it, and so does any of the table's keys,
    which then does what it does (TableApp.on_key). PgUp, PgDn and the wheel scroll."""

    DEFAULT_CSS = """
    OptionsScreen { align: center middle; }
    OptionsScreen > VerticalScroll {
        width: 80; max-width: 100%; height: 100%;
        border: round $accent; padding: 0 1; background: $surface;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "close", "close"),
        Binding("pageup", "scroll(-1)", "up"),
        Binding("pagedown", "scroll(1)", "down"),
    ]

    def __init__(self, words: Words) -> None:
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = self.words.gettext("Options: what each setting of the menu does")
            box.border_subtitle = self.words.gettext("o or esc closes; PgUp PgDn scroll")
            yield Static("\n".join(options_lines(self.words)), id="options")

    def action_scroll(self, pages: int) -> None:
        box = self.query_one(VerticalScroll)
        if pages < 0:
            box.scroll_page_up()
        else:
            box.scroll_page_down()
