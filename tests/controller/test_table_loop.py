"""The loop `flashtable run` runs on: select(2), whose timeout is in microseconds, and its
thread's timer slack cut to a microsecond (Linux's prctl)."""

import ctypes
import selectors
import sys
import threading

import pytest

from controller.commands.run import PR_SET_TIMERSLACK, TIMER_SLACK, run_on_table_loop, table_loop

PR_GET_TIMERSLACK = 30


def test_the_loop_waits_in_select():
    loop = table_loop()
    try:
        assert isinstance(loop._selector, selectors.SelectSelector)
    finally:
        loop.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="timer slack is Linux's")
def test_the_loops_thread_asks_for_a_microsecond_of_timer_slack():
    libc = ctypes.CDLL(None)
    seen: dict[str, int] = {}

    async def read_slack() -> None:
        seen["loop"] = libc.prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0)

    def on_a_thread_of_its_own() -> None:
        libc.prctl(PR_SET_TIMERSLACK, 50_000, 0, 0, 0)  # the default, whatever ran before
        seen["before"] = libc.prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0)
        run_on_table_loop(read_slack())

    thread = threading.Thread(target=on_a_thread_of_its_own)
    thread.start()
    thread.join()
    assert seen["before"] == 50_000
    assert seen["loop"] == TIMER_SLACK
