"""The scrolling event log of the view: game events, presses and notes."""

from __future__ import annotations

import re

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual.widgets import RichLog

from .eventlog import DATA_COLUMN, Entry

NOTE_COLUMN = len("   ! ")

MAX_LINES = 2000  # lines the view keeps

# Where the data of a line may break: after a space (between key=value pairs) or after a
# comma (between the values of a JSON list or object).
_PIECES = re.compile(r"[^ ,]+,?|,| +")


def wrapped(text: str, width: int) -> list[str]:
    """`text` in rows of at most `width`, broken only between values: at a space (dropped)
    or after a comma (kept). Only a single value wider than a row is cut to fit."""
    rows: list[str] = []
    row = ""
    for piece in _PIECES.findall(text):
        if row.strip() and len(row) + len(piece.rstrip()) > width:
            rows.append(row.rstrip())
            row = piece.lstrip()
        else:
            row += piece
    rows.append(row.rstrip())
    width = max(width, 1)
    return [cut[at : at + width] for cut in rows for at in range(0, max(len(cut), 1), width)]


class LogLine:
    """One line of the log, laid out at the width it is drawn at: its head (sequence, time,
    type) in a column of its own, its data wrapped under the data's first column."""

    def __init__(self, line: str, style: str, indent: int) -> None:
        self.line, self.style, self.indent = line, style, indent

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        # As wide as the line unwrapped: the log then lays it out at its own width.
        return Measurement(min(self.indent + 1, len(self.line)), len(self.line))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        indent = min(self.indent, max(options.max_width - 1, 0))
        head, data = self.line[:indent], self.line[indent:]
        for n, row in enumerate(wrapped(data, options.max_width - indent)):
            yield Text(f"{head if n == 0 else '':<{indent}}{row}", style=self.style, end="\n")


class EventLog(RichLog, can_focus=False):
    """Game events, the presses the table received, and notes; newest at the bottom. A line
    wider than the log wraps between values, going on under the data it continues, so
    nothing is cut and a value such as `"seat":3` stays whole."""

    DEFAULT_CSS = """
    EventLog {
        height: 1fr; min-height: 4; border-top: solid $foreground 40%;
        overflow-x: hidden; scrollbar-size-vertical: 1;
    }
    """

    def __init__(self) -> None:
        # Lines are laid out at the log's own width, however narrow (see `LogLine`).
        super().__init__(max_lines=MAX_LINES, min_width=1, auto_scroll=True, id="log")
        self.border_title = "events"
        self.plain: list[str] = []

    def add(self, entry: Entry) -> None:
        self._write(entry.line, "grey62" if entry.is_input else "", DATA_COLUMN)

    def note(self, line: str) -> None:
        """A line from the view itself or a log record, not a game event."""
        style = "bold red" if line.startswith(("error", "warning")) else ""
        self._write(f"   ! {line}", style, NOTE_COLUMN)

    def _write(self, line: str, style: str, indent: int) -> None:
        self.plain.append(line)
        del self.plain[:-MAX_LINES]
        # Expanded to the log's width, whatever width the console behind it believes in.
        self.write(LogLine(line, style, indent), expand=True)
