"""The loop `flashtable run` runs on: epoll holds its descriptors, whatever their numbers,
and it waits in select(2) on epoll's own, whose timeout is in microseconds; its thread's timer
slack is cut to a microsecond (Linux's prctl)."""

import contextlib
import ctypes
import os
import resource
import select
import socket
import sys
import threading
from collections.abc import Iterator

import pytest

from controller.commands.punctual_selector import FD_SETSIZE
from controller.commands.run import PR_SET_TIMERSLACK, TIMER_SLACK, run_on_table_loop, table_loop

PR_GET_TIMERSLACK = 30
WAIT = 30.0  # seconds: only a limit for a descriptor that is never heard


@contextlib.contextmanager
def descriptors_allowed(count: int) -> Iterator[None]:
    """This process may open `count` descriptors while inside (its soft limit raised)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < count:
        pytest.skip(f"the hard limit on open files here is {hard}, below {count}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, count), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_loop_hears_a_descriptor_numbered_past_what_select_takes():
    high = FD_SETSIZE + 100
    with descriptors_allowed(high + 1):
        reader, writer = socket.socketpair()
        os.dup2(reader.fileno(), high)
        loop = table_loop()
        heard: list[bytes] = []

        def hear() -> None:
            heard.append(os.read(high, 1))
            loop.stop()

        try:
            loop.add_reader(high, hear)
            writer.send(b"x")
            loop.call_later(WAIT, loop.stop)
            loop.run_forever()
        finally:
            loop.close()
            os.close(high)
            reader.close()
            writer.close()
    assert heard == [b"x"]


def test_the_loop_asks_the_kernel_for_a_timers_wait_to_the_microsecond(monkeypatch):
    waits: list[float | None] = []
    wait = select.select

    def recorded(read, write, other, timeout=None):  # type: ignore[no-untyped-def]
        waits.append(timeout)
        return wait(read, write, other, timeout)

    loop = table_loop()
    try:
        monkeypatch.setattr(select, "select", recorded)
        loop._selector.select(0.000_25)  # a timer due in 250 µs, and nothing to read
    finally:
        loop.close()
    assert waits == [0.000_25]  # not epoll's whole millisecond


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
