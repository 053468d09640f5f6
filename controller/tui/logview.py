"""The scrolling event log of the view: game events, presses and notes."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import RichLog

from .eventlog import DATA_COLUMN, Entry

NOTE_COLUMN = len("   ! ")

MAX_LINES = 2000  # lines the view keeps


class EventLog(RichLog, can_focus=False):
    """Game events, the presses the table received, and notes; newest at the bottom. A line
    wider than the log wraps, going on under the data it continues, so nothing is cut."""

    DEFAULT_CSS = """
    EventLog {
        height: 1fr; min-height: 4; border-top: solid $foreground 40%;
        overflow-x: hidden; scrollbar-size-vertical: 1;
    }
    """

    def __init__(self) -> None:
        # Lines are laid out at the log's own width, however narrow (see `_write`).
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
        # Two columns: the head never wraps, the rest wraps within its own column.
        grid = Table.grid()
        grid.add_column(width=indent, no_wrap=True)
        grid.add_column(overflow="fold")
        grid.add_row(Text(line[:indent], style=style), Text(line[indent:], style=style))
        self.write(grid)
