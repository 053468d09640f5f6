"""The `[web]` section of the config: whether the table serves its page, where, the file
holding the remote's password hash, whether the live view asks for it too, and the names
(beside its addresses, localhost and its host name) the page answers to."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError

DEFAULT_LISTEN = "0.0.0.0:8080"  # every IPv4 interface of the table, port 8080


@dataclass(frozen=True)
class WebConfig:
    enabled: bool = False
    listen: str = DEFAULT_LISTEN
    password_file: Path | None = None
    view_needs_password: bool = False
    names: tuple[str, ...] = ()

    @property
    def host(self) -> str:
        return split_listen(self.listen)[0]

    @property
    def port(self) -> int:
        return split_listen(self.listen)[1]


SCHEMA: Mapping[str, type] = {
    "enabled": bool,
    "listen": str,
    "password_file": str,
    "view_needs_password": bool,
    "names": list,
}
# A DNS name: dot-separated labels of letters, digits and hyphens.
NAME = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$", re.I)


def split_listen(listen: str) -> tuple[str, int]:
    """ "ADDRESS:PORT" as (address, port); an IPv6 address in brackets ("[::]:8080")."""
    address, sep, port_text = listen.rpartition(":")
    if not sep or not port_text.isascii() or not port_text.isdigit() or len(port_text) > 5:
        raise ConfigError(f"web.listen {listen!r} must be ADDRESS:PORT, e.g. {DEFAULT_LISTEN}")
    port = int(port_text)
    if not 1 <= port <= 65535:
        raise ConfigError(f"web.listen port must be 1 to 65535, not {port}")
    if address.startswith("[") and address.endswith("]"):
        address = address[1:-1]
    try:
        ipaddress.ip_address(address)
    except ValueError:
        raise ConfigError(
            f"web.listen address {address!r} must be an IP address, e.g. 0.0.0.0 or [::]"
        ) from None
    return address, port


def web_config(raw: Mapping[str, Any]) -> WebConfig:
    """The `[web]` section, each value's type already checked against SCHEMA."""
    listen = raw.get("listen", DEFAULT_LISTEN)
    split_listen(listen)
    password_file = raw.get("password_file")
    view_needs_password = raw.get("view_needs_password", False)
    if view_needs_password and password_file is None:
        raise ConfigError("web.view_needs_password needs web.password_file")
    names = raw.get("names", [])
    for name in names:
        if not isinstance(name, str) or len(name) > 253 or not NAME.match(name):
            raise ConfigError(f'web.names must be host names, e.g. ["uno.lan"], not {name!r}')
    return WebConfig(
        enabled=raw.get("enabled", True),
        listen=listen,
        password_file=None if password_file is None else Path(password_file),
        view_needs_password=view_needs_password,
        names=tuple(names),
    )
