"""Troubles that come thousands of times a second are logged at most once a minute per
cause, with their count: a flood of connections or a loop out of descriptors never fills the
journal."""

from __future__ import annotations

import asyncio
import errno
import logging
import os

from controller.commands.run import table_loop
from controller.tally import TroubleTally, tally_loop_errors

WAIT = 30.0  # seconds: only a limit for a line that never comes
OUT_OF_FILES = "socket.accept() out of system resource"


async def test_a_trouble_repeated_is_logged_once_then_with_its_count(caplog):
    log = logging.getLogger("test.tally")
    tally = TroubleTally(log, every=0.05)
    with caplog.at_level(logging.WARNING, logger="test.tally"):
        for _ in range(1000):
            tally.note("a flood")
        tally.note("another trouble")
        assert [r.getMessage() for r in caplog.records] == ["a flood", "another trouble"]
        async with asyncio.timeout(WAIT):
            while len(caplog.records) < 3:
                await asyncio.sleep(0.01)
        tally.close()
    assert caplog.records[2].getMessage() == "a flood (999 times more in the last 0 s)"
    assert tally.counts == {"a flood": 1000, "another trouble": 1}


def test_a_loop_out_of_descriptors_logs_one_line_and_counts_the_rest(caplog):
    loop = table_loop()
    tally = TroubleTally(logging.getLogger("asyncio"))
    full = OSError(errno.EMFILE, os.strerror(errno.EMFILE))

    async def flood() -> None:
        tally_loop_errors(loop, tally)
        for _ in range(5000):
            loop.call_exception_handler({"message": OUT_OF_FILES, "exception": full})
        tally.close()

    try:
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            loop.run_until_complete(flood())
    finally:
        loop.close()
    [line] = caplog.records
    assert line.getMessage() == f"{OUT_OF_FILES}: OSError: [Errno 24] Too many open files"
    assert line.exc_info is None  # no traceback: a full table of descriptors is no bug
    assert tally.counts[line.getMessage()] == 5000


def test_a_bug_the_loop_reports_is_logged_with_its_traceback_once(caplog):
    loop = table_loop()
    tally = TroubleTally(logging.getLogger("asyncio"))

    def broken() -> None:
        raise ZeroDivisionError("a bug")

    async def run() -> None:
        tally_loop_errors(loop, tally)
        for _ in range(3):
            loop.call_soon(broken)
        await asyncio.sleep(0.01)
        tally.close()

    try:
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            loop.run_until_complete(run())
    finally:
        loop.close()
    [line] = caplog.records
    assert line.exc_info is not None and isinstance(line.exc_info[1], ZeroDivisionError)
    assert sum(tally.counts.values()) == 3
