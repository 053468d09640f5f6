"""The `?` screen: the key map and the legend of the light patterns."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import set_cell_size
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from controller.catalogs import Words
from controller.howto import how_to_play

from .glyphs import legend
from .keys import key_help
from .text_screen import TextScreen


def key_text(t: Words) -> str:
    # Padded by the cells a terminal gives each character (a Chinese one takes two).
    rows = (f"{set_cell_size(keys, 12)} {meaning}" for keys, meaning in key_help(t))
    return "\n".join([t.gettext("Keys:"), *rows])


def legend_text(t: Words) -> str:
    held = t.gettext("A button held down\nhas a heavy frame.")
    return "\n".join([t.gettext("Seat lights:"), *legend(t), "", held])


class HelpScreen(TextScreen):
    """Keys on the left, what the seat lights mean on the right, how to play below; any of
    ? q esc closes it, and so does any of the table's keys, which then does what it does."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: auto; max-width: 100%; height: auto;
        border: round $accent; padding: 0 1; background: $surface;
    }
    HelpScreen Horizontal { width: auto; height: auto; }
    HelpScreen #keys { width: auto; padding-right: 2; }
    HelpScreen #legend { width: auto; }
    HelpScreen #how_to_play { width: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("question_mark", "close", "close")]

    def __init__(self, words: Words) -> None:
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        t = self.words
        with Vertical() as box:
            box.border_title = t.gettext("Flash Table sim")
            box.border_subtitle = t.gettext("? or esc closes; the table's keys play on")
            with Horizontal():
                yield Static(key_text(t), id="keys")
                yield Static(legend_text(t), id="legend")
            yield Static("\n".join(["", *how_to_play(t)]), id="how_to_play")
