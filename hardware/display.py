"""The 16x2 character display as the game sees it: two lines of text and a backlight."""

from __future__ import annotations

from typing import Protocol

COLUMNS = 16
ROWS = 2
INTERFACES = ("i2c", "gpio")  # how the LCD is wired: an I2C backpack or GPIO pins


class TextDisplay(Protocol):
    def show(self, lines: tuple[str, str]) -> None: ...

    def backlight(self, on: bool) -> None: ...

    def close(self) -> None: ...


def fit(line: str) -> str:
    """A line cut or padded to the display's width."""
    return line[:COLUMNS].ljust(COLUMNS)
