"""Telling systemd how the daemon is doing: one datagram to $NOTIFY_SOCKET per word, the
watchdog's time read from systemd's environment, and the watchdog fed for as long as the loop
runs (sd_notify(3)). The booted tests see systemd itself take these words."""

from __future__ import annotations

import asyncio
import logging
import os
import socket

import pytest

from controller.shell.sdnotify import keep_watchdog_fed, notify, watchdog_interval
from tests import virtual_loop


@pytest.fixture
def systemd(tmp_path, monkeypatch):
    """A socket where systemd would listen, named to the daemon as systemd names it."""
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        sock.setblocking(False)
        monkeypatch.setenv("NOTIFY_SOCKET", address)
        yield sock


def environment(monkeypatch, name: str, value: str | None) -> None:
    """`name` set to `value` in the environment, or unset for None."""
    if value is None:
        monkeypatch.delenv(name, raising=False)
    else:
        monkeypatch.setenv(name, value)


def heard(sock: socket.socket) -> list[str]:
    words = []
    while True:
        try:
            words.append(sock.recv(100).decode())
        except BlockingIOError:
            return words


def test_each_word_is_one_datagram(systemd):
    assert notify("READY=1") and notify("STOPPING=1")
    assert heard(systemd) == ["READY=1", "STOPPING=1"]


def test_an_abstract_socket_is_named_with_an_at_sign(monkeypatch):
    name = f"flashtable-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.setblocking(False)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify("READY=1")
        assert heard(sock) == ["READY=1"]


@pytest.mark.parametrize("address", [None, ""], ids=["unset", "empty"])
def test_without_systemd_nothing_is_sent(monkeypatch, address, caplog):
    environment(monkeypatch, "NOTIFY_SOCKET", address)
    assert not notify("READY=1")
    assert caplog.records == []


def test_a_socket_nobody_listens_on_is_a_warning_and_the_daemon_goes_on(
    tmp_path, monkeypatch, caplog
):
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert not notify("WATCHDOG=1")
    [record] = caplog.records
    assert record.levelno == logging.WARNING
    assert record.getMessage() == "cannot tell systemd 'WATCHDOG=1': no such file or directory"


@pytest.mark.parametrize(
    ("usec", "pid", "interval"),
    [
        ("200000", None, 0.1),  # half the watchdog's time: a ping is never late
        ("30000000", "mine", 15.0),
        ("30000000", "another", None),  # the watchdog is another process's
        (None, None, None),
        ("", None, None),
        ("thirty", None, None),
        ("-5", None, None),
    ],
)
def test_the_watchdog_is_fed_at_half_the_time_systemd_asks_for(monkeypatch, usec, pid, interval):
    pids = {"mine": str(os.getpid()), "another": str(os.getpid() + 1), None: None}
    environment(monkeypatch, "WATCHDOG_USEC", usec)
    environment(monkeypatch, "WATCHDOG_PID", pids[pid])
    assert watchdog_interval() == interval


@pytest.mark.parametrize(("after", "pings"), [(44.0, 3), (46.0, 4)])
def test_the_watchdog_is_pinged_at_once_and_then_every_interval(systemd, after, pings):
    async def main():
        feeding = asyncio.create_task(keep_watchdog_fed(15.0))
        await asyncio.sleep(after)
        feeding.cancel()

    virtual_loop.run(main())
    assert heard(systemd) == ["WATCHDOG=1"] * pings
