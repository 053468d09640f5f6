"""The table's own IP addresses, for the Info screen, read from the kernel without traffic."""

from __future__ import annotations

import fcntl
import socket
import struct

SIOCGIFADDR = 0x8915  # Linux: get an interface's IPv4 address


def ip_addresses() -> list[str]:
    """IPv4 addresses of the network interfaces that have one, loopback left out; none
    when the sandbox or the kernel will not say."""
    found: list[str] = []
    try:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return found
    with sock:
        for name in names:
            if name == "lo":
                continue
            request = struct.pack("256s", name.encode()[:15])
            try:
                reply = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, request)
            except OSError:
                continue  # no IPv4 address on this interface
            found.append(socket.inet_ntoa(reply[20:24]))
    return found
