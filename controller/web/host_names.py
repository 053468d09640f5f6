"""The names the table's page answers to, checked against each request's `Host` header: a
page of another site that has pointed its own name at the table (DNS rebinding) is refused,
whatever its `Origin` says. An address (`192.168.1.37`, `[::1]`) always passes: only a name
can be rebound. The names: `localhost`, the machine's host name and its `.local` (mDNS), and
the config's `[web] names`."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable


def table_names(configured: Iterable[str]) -> frozenset[str]:
    host = socket.gethostname().lower()
    return frozenset({"localhost", host, f"{host}.local", *(n.lower() for n in configured)})


def answers_to(host_header: str, names: frozenset[str]) -> bool:
    """Whether a request sent to `host_header` ("name", "name:port", "[v6]:port") is for
    this table."""
    host = host_header.strip().lower()
    if host.startswith("["):
        address, bracket, _ = host[1:].partition("]")
        return bool(bracket) and _is_address(address)
    name, colon, port = host.rpartition(":")
    if not colon or not port.isdigit():
        name = host
    name = name.removesuffix(".")
    return _is_address(name) or name in names


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
