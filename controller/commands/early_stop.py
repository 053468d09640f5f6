"""`flashtable run`'s first moments: SIGTERM and SIGINT end it cleanly from the start, before
the daemon's own handlers (which replace these) are in place and before its modules load."""

from __future__ import annotations

import signal
from types import FrameType


class StoppedEarly(BaseException):
    """SIGTERM or SIGINT came before the table was up; the message names the signal. A
    BaseException, as KeyboardInterrupt is: no `except Exception` on the way may keep it."""


def stop_early_on_signals() -> None:
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _stop)


def _stop(signum: int, frame: FrameType | None) -> None:
    raise StoppedEarly(signal.Signals(signum).name)
