"""The menu hardware on screen: the 16x2 LCD (custom characters included) and the encoder."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Static

from ..catalogs import Words
from ..game.text import COLUMNS
from .buttons import TableButton
from .glyphs import Glyphs, lcd_text

BACKLIT = Style(color="black", bgcolor="#9acd32")
DARK = Style(color="grey50", bgcolor="grey11")


class Lcd(Static):
    """Two 16-character lines, backlit or dark, in the display's frame."""

    DEFAULT_CSS = """
    Lcd { width: 20; height: 4; border: round $foreground 60%; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__(id="lcd")
        self.border_title = "LCD"
        self.lines: tuple[str, str] = ("", "")
        self._lit: bool | None = None

    def show(self, lines: Sequence[str], *, lit: bool, custom: Glyphs, words: Words) -> None:
        """Show the display's lines as it would: codes 0-7 drawn from its custom characters."""
        shown = tuple(lcd_text(line, custom).ljust(COLUMNS)[:COLUMNS] for line in lines[:2])
        if (shown, lit) == (self.lines, self._lit):
            return
        self.lines, self._lit = (shown[0], shown[1]), lit
        self.border_subtitle = None if lit else words.gettext("backlight off")
        self.update(Text("\n".join(self.lines), style=BACKLIT if lit else DARK))


def backlit(display: object) -> bool:
    """Whether a display's backlight is on, whichever simulated display it is."""
    for name in ("lit", "backlight"):
        value = getattr(display, name, None)
        if isinstance(value, bool):
            return value
    return True


class KnobArrow(Static):
    """One way to turn the encoder with the mouse: a click is one detent."""

    DEFAULT_CSS = """
    KnobArrow { width: 5; height: 3; border: round $foreground 60%; content-align: center middle; }
    """

    def __init__(self, steps: int) -> None:
        super().__init__("◀" if steps < 0 else "▶", id="knob_left" if steps < 0 else "knob_right")
        self.steps = steps

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(Encoder.Turned(self.steps))


class Encoder(Horizontal):
    """The rotary encoder: turn it with the arrows, push (or hold) its knob."""

    DEFAULT_CSS = """
    Encoder { height: 3; width: auto; }
    Encoder > #steps { width: 10; height: 3; content-align: left middle; padding: 0 1; }
    """

    class Turned(Message):
        """The encoder was turned by `steps` detents (positive clockwise)."""

        def __init__(self, steps: int) -> None:
            super().__init__()
            self.steps = steps

    _steps: int | None = None
    _words: Words | None = None

    def compose(self) -> ComposeResult:
        yield KnobArrow(-1)
        yield TableButton("encoder.push", "push", id="encoder_push")
        yield KnobArrow(+1)
        yield Static("", id="steps")

    def show(self, steps: int, words: Words) -> None:
        """Show how far the encoder has turned, as the device counts it."""
        if (steps, words) != (self._steps, self._words):
            self._steps, self._words = steps, words
            self.query_one("#steps", Static).update(
                words.gettext("pos {steps}").format(steps=f"{steps:+d}")
            )
            self.query_one("#encoder_push", Static).update(words.gettext("push"))
