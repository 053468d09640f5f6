"""The table's own IPv4 addresses, for the Info screen and the web page's hosts: each
interface's, the loopback left out, none when the kernel will not say."""

from __future__ import annotations

import errno
import ipaddress
import socket

from controller.shell import netinfo
from controller.shell.netinfo import SIOCGIFADDR, ip_addresses


def test_the_kernels_addresses_leave_the_loopback_out():
    found = ip_addresses()
    assert "127.0.0.1" not in found
    assert all(not ipaddress.IPv4Address(address).is_loopback for address in found)


def a_kernel(monkeypatch, interfaces: dict[str, str | None]) -> None:
    """Network interfaces in their order, each with its IPv4 address or none."""
    monkeypatch.setattr(
        netinfo.socket, "if_nameindex", lambda: list(enumerate(interfaces, start=1))
    )

    def ioctl(fd: int, request: int, arg: bytes) -> bytes:
        assert request == SIOCGIFADDR
        address = interfaces[arg[:16].rstrip(b"\0").decode()]
        if address is None:
            raise OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")
        return arg[:20] + socket.inet_aton(address) + arg[24:]

    monkeypatch.setattr(netinfo.fcntl, "ioctl", ioctl)


def test_every_interface_with_an_address_is_named_in_order_past_one_without(monkeypatch):
    a_kernel(
        monkeypatch,
        {
            "lo": "127.0.0.1",
            "wlan0": None,  # not connected
            "eth0": "192.168.1.20",
            "enx00e04c680001": "10.0.0.2",  # the longest name the kernel gives
        },
    )
    assert ip_addresses() == ["192.168.1.20", "10.0.0.2"]


def test_a_kernel_that_will_not_list_its_interfaces_gives_none(monkeypatch):
    def refused():
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(netinfo.socket, "if_nameindex", refused)
    assert ip_addresses() == []
