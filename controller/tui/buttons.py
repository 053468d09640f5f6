"""A button of the table on screen: shows its light or label, and takes mouse presses.

Pressing the mouse on it presses the table's button and letting go releases it, so a
mouse held down is a real long press. Its border turns heavy while the button is down.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from controller.game.light_marks import seat_label

from .glyphs import light_style


class TableButton(Static):
    """A push button named as the table knows it ("slap", "launcher", "play_pause", ...)."""

    DEFAULT_CSS = """
    TableButton {
        width: auto;
        height: 3;
        border: round $foreground 60%;
        padding: 0 1;
        content-align: center middle;
    }
    TableButton.-down { border: heavy $accent; }
    """

    down: reactive[bool] = reactive(False)

    class Pushed(Message):
        """The mouse pushed (`down`) or let go of a table button."""

        def __init__(self, button: str, down: bool) -> None:
            super().__init__()
            self.button = button
            self.down = down

    def __init__(self, input_name: str, label: str, *, id: str | None = None) -> None:
        super().__init__(label, id=id)
        self.input_name = input_name
        self.label = label

    def watch_down(self, down: bool) -> None:
        self.set_class(down, "-down")

    def on_mouse_down(self, event: events.MouseDown) -> None:
        event.stop()
        self.capture_mouse()
        self.post_message(self.Pushed(self.input_name, True))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        event.stop()
        self.release_mouse()
        self.post_message(self.Pushed(self.input_name, False))


class SeatButton(TableButton):
    """A player station: the seat number between its light pattern's marks, e.g. "<3>"."""

    DEFAULT_CSS = """
    SeatButton { width: 7; position: absolute; }
    """

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat{seat}", seat_label(seat, "off"), id=f"seat{seat}")
        self.add_class("seat")
        self.seat = seat
        self.pattern = "off"
        self._shown: tuple[str, Style] | None = None

    def show(self, pattern: str, game_time: float, name: str = "") -> None:
        """Show the light's pattern, and the player's name on the box's top edge; moving
        patterns alternate their colour with game time."""
        self.pattern = pattern
        shown = (seat_label(self.seat, pattern), light_style(pattern, game_time))
        if shown != self._shown:
            # Redraw only on a change: the view asks twenty times a second.
            self._shown = shown
            self.update(Text(shown[0], style=shown[1]))
        if self.border_title != (name or None):
            self.border_title = name or None
