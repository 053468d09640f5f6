"""The `s` screen: the evening's standings as a table, and the places of the round in play."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from controller.catalogs import Words
from controller.game import Table

from .standings_table import places_line, standings_lines
from .text_screen import TextScreen


class StandingsScreen(TextScreen):
    """The standings of the table as it is when opened; any of s q esc closes it, and so does
    any of the table's keys, which then does what it does (TableApp.on_key)."""

    DEFAULT_CSS = """
    StandingsScreen { align: center middle; }
    StandingsScreen > Vertical {
        width: auto; max-width: 100%; height: auto;
        border: round $accent; padding: 0 1; background: $surface;
    }
    StandingsScreen Static { width: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("s", "close", "close")]

    def __init__(self, table: Table, words: Words) -> None:
        super().__init__()
        self.table, self.words = table, words

    def compose(self) -> ComposeResult:
        lines = standings_lines(self.table, self.words)
        places = places_line(self.table, self.words)
        if places is not None:
            lines += ["", places]
        with Vertical() as box:
            box.border_title = self.words.gettext("Standings")
            box.border_subtitle = self.words.gettext("s or esc closes; the table's keys play on")
            yield Static("\n".join(lines), id="standings")
