"""Output into a pipe whose reader has gone (`flashtable settings | head -1`): the command
stops there, quietly, as Unix tools do."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable

# What a shell reports for a tool that a closed pipe stopped (128 + SIGPIPE), as for `yes`.
PIPE_CLOSED = 128 + signal.SIGPIPE


def quiet_on_closed_pipe(command: Callable[[], int]) -> int:
    """Run `command`; if its reader stops reading, exit PIPE_CLOSED without a traceback."""
    try:
        try:
            return command()
        finally:
            sys.stdout.flush()  # a closed pipe shows now, not in the interpreter's last flush
    except BrokenPipeError:
        # Python flushes stdout once more on exit: let that go nowhere instead of failing.
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, sys.stdout.fileno())
        os.close(nowhere)
        return PIPE_CLOSED
