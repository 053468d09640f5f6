"""Where the table's warnings and errors go while the terminal is not theirs.

While the view owns the terminal, or the headless player prints its event log, nothing else
may write to it: the daemon's and the devices' log records become lines of the event log.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from types import TracebackType

ROUTED_LOGGERS = ("controller", "hardware", "gpiozero", "py.warnings")


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
