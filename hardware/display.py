"""The 16x2 character display as the game sees it: two lines of text and a backlight."""

from __future__ import annotations

from typing import Protocol

COLUMNS = 16
ROWS = 2


class TextDisplay(Protocol):
    def show(self, lines: tuple[str, str]) -> None: ...

    def backlight(self, on: bool) -> None: ...

    def close(self) -> None: ...


def fit(line: str) -> str:
    """A line cut or padded to the display's width."""
    return line[:COLUMNS].ljust(COLUMNS)


class MemoryDisplay:
    """A display that keeps what it was last told to show (the simulator's LCD)."""

    def __init__(self) -> None:
        self.lines = (fit(""), fit(""))
        self.lit = True

    def show(self, lines: tuple[str, str]) -> None:
        self.lines = (fit(lines[0]), fit(lines[1]))

    def backlight(self, on: bool) -> None:
        self.lit = on

    def close(self) -> None:
        self.lit = False
