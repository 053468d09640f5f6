"""The scrolling event log, and the route that brings the daemon's log records into it.

While the view owns the terminal nothing else may write to it, so warnings and errors from
the daemon and the devices are shown as log lines instead.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from types import TracebackType

from rich.text import Text
from textual.widgets import RichLog

from .eventlog import Entry

MAX_LINES = 2000  # lines the view keeps
ROUTED_LOGGERS = ("controller", "hardware", "gpiozero", "py.warnings")


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


class LogRoute(logging.Handler):
    """While in its `with` block, takes the table's warnings and errors off the terminal.

    With a `clock` (the table's game time), each line keeps the moment it was logged.
    """

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        super().__init__(logging.WARNING)
        self.clock = clock
        self.lines: deque[tuple[float | None, str]] = deque(maxlen=200)
        self._saved: list[tuple[logging.Logger, bool]] = []

    def emit(self, record: logging.LogRecord) -> None:
        line = f"{record.levelname.lower()} {record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line += f" ({type(error).__name__}: {error})"
        self.lines.append((None if self.clock is None else self.clock(), line))

    def __enter__(self) -> LogRoute:
        logging.captureWarnings(True)
        for name in ROUTED_LOGGERS:
            logger = logging.getLogger(name)
            self._saved.append((logger, logger.propagate))
            logger.addHandler(self)
            logger.propagate = False
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for logger, propagate in self._saved:
            logger.removeHandler(self)
            logger.propagate = propagate
        self._saved.clear()
        logging.captureWarnings(False)

    def take(self) -> list[str]:
        """The lines logged since the last take."""
        return [line for _, line in self.take_timed()]

    def take_timed(self) -> list[tuple[float | None, str]]:
        """The lines logged since the last take, each with its moment (None: no clock)."""
        lines = list(self.lines)
        self.lines.clear()
        return lines
