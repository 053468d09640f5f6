"""The `[mqtt]` section of the config: how to reach the broker (docs/mqtt.md), its password
and its CA certificates read from the files it names."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError, shown
from .named_files import named_file, private_file

if TYPE_CHECKING:
    import ssl

MAX_PASSWORD = 65_535  # bytes: MQTT carries a password's length in two bytes
MAX_CA_BYTES = 1024 * 1024  # a bundle of a few hundred CA certificates

SCHEMA: Mapping[str, type] = {
    "host": str,
    "port": int,
    "username": str,
    "password_file": str,
    "tls_ca": str,
    "keepalive": int,
    "discovery": bool,
    "discovery_prefix": str,
}
RANGES: Mapping[str, range] = {"port": range(1, 65536), "keepalive": range(1, 65536)}
TOPIC_WORD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # one level of an MQTT topic


@dataclass(frozen=True)
class MqttConfig:
    """How to reach the MQTT broker (docs/mqtt.md); the table plays the same without one."""

    host: str
    port: int
    username: str | None = None
    password_file: Path | None = None
    tls_ca: Path | None = None
    keepalive: int = 30
    discovery: bool = True
    discovery_prefix: str = "homeassistant"

    def check(self) -> None:
        """Refuse now, with the reason, what would fail when the broker first asks."""
        self.password()
        self.tls_context()

    def password(self) -> str | None:
        """The password from `password_file`, refused if anyone but its owner may read it."""
        if self.password_file is None:
            return None
        path = self.password_file
        data = private_file("mqtt.password_file", path, MAX_PASSWORD + len("\r\n"))
        try:
            password = data.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise ConfigError(f"mqtt.password_file {path}: not UTF-8 text") from None
        if len(password.encode()) > MAX_PASSWORD:
            raise ConfigError(
                f"mqtt.password_file {path}: a password longer than MQTT carries "
                f"({MAX_PASSWORD} bytes)"
            )
        return password

    def tls_context(self) -> ssl.SSLContext | None:
        """TLS that trusts the certificates in `tls_ca` alone (checks are never turned off);
        None without one."""
        if self.tls_ca is None:
            return None
        import ssl

        data = named_file("mqtt.tls_ca", self.tls_ca, MAX_CA_BYTES)
        context = None
        try:
            # Never empty: the system's certificates would stand in for none at all.
            if data.strip():
                context = ssl.create_default_context(cadata=data.decode("ascii"))
        except (UnicodeDecodeError, ssl.SSLError, ValueError):
            pass
        if context is None or not context.cert_store_stats()["x509_ca"]:
            raise ConfigError(f"mqtt.tls_ca {self.tls_ca}: no CA certificate in PEM form")
        return context


def mqtt_config(raw: Mapping[str, Any]) -> MqttConfig:
    """The `[mqtt]` section, each value's type and range already checked against SCHEMA and
    RANGES."""
    host = raw.get("host", "").strip()
    if not host:
        raise ConfigError("[mqtt] needs a host")
    tls_ca = raw.get("tls_ca")
    prefix = raw.get("discovery_prefix", MqttConfig.discovery_prefix)
    if not TOPIC_WORD.match(prefix):
        raise ConfigError(f"mqtt.discovery_prefix {shown(prefix)}: 1-64 letters, digits, '-', '_'")
    password_file = raw.get("password_file")
    if password_file is not None and "username" not in raw:
        raise ConfigError("mqtt.password_file needs mqtt.username")
    return MqttConfig(
        host=host,
        port=raw.get("port", 8883 if tls_ca else 1883),
        username=raw.get("username"),
        password_file=None if password_file is None else Path(password_file),
        tls_ca=None if tls_ca is None else Path(tls_ca),
        keepalive=raw.get("keepalive", MqttConfig.keepalive),
        discovery=raw.get("discovery", MqttConfig.discovery),
        discovery_prefix=prefix,
    )
