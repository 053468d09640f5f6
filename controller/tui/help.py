"""The `?` screen: the key map and the legend of the light patterns."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from controller.howto import how_to_play

from .glyphs import legend
from .keys import KEY_HELP
from .text_screen import TextScreen


def key_text() -> str:
    return "\n".join(["Keys:", *(f"{keys:<12} {meaning}" for keys, meaning in KEY_HELP)])


def legend_text() -> str:
    return "\n".join(["Seat lights:", *legend(), "", "A button held down", "has a heavy frame."])


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

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Flash Table sim"
            box.border_subtitle = "? or esc closes; the table's keys play on"
            with Horizontal():
                yield Static(key_text(), id="keys")
                yield Static(legend_text(), id="legend")
            yield Static("\n".join(["", *how_to_play()]), id="how_to_play")
