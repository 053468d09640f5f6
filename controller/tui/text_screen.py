"""A screen of text over the table (help, options, standings): its own key, q or esc closes
it, and so does any of the table's keys, which then does what it does (TableApp.on_key)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.screen import ModalScreen


class TextScreen(ModalScreen[None]):
    """Subclasses add the binding of their own key to `close`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close"),
        Binding("q", "close", "close"),
    ]

    def action_close(self) -> None:
        self.dismiss(None)
