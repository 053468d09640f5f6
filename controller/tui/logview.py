"""The scrolling event log of the view: game events, presses and notes."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from .eventlog import Entry

MAX_LINES = 2000  # lines the view keeps


class EventLog(RichLog, can_focus=False):
    """Game events, the presses the table received, and notes; newest at the bottom."""

    DEFAULT_CSS = """
    EventLog {
        height: 1fr; min-height: 4; border-top: solid $foreground 40%;
        overflow-x: hidden; scrollbar-size-vertical: 1;
    }
    """

    def __init__(self) -> None:
        super().__init__(max_lines=MAX_LINES, wrap=False, auto_scroll=True, id="log")
        self.border_title = "events"
        self.plain: list[str] = []

    def add(self, entry: Entry) -> None:
        self._write(entry.line, "grey62" if entry.is_input else "")

    def note(self, line: str) -> None:
        """A line from the view itself or a log record, not a game event."""
        self._write(f"   ! {line}", "bold red" if line.startswith(("error", "warning")) else "")

    def _write(self, line: str, style: str) -> None:
        self.plain.append(line)
        del self.plain[:-MAX_LINES]
        self.write(Text(line, style=style))
