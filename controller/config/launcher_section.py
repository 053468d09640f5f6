"""The `[launcher]` section of the config: the launcher on the Pi's own pins, or on a
controller at the end of a serial line (firmware/README.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError, shown

LAUNCHER_LINKS = ("gpio", "serial")
# The rates a USB-serial adapter and the Pico's UART both do; over USB the rate is ignored.
BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1000000)
SCHEMA: Mapping[str, type] = {"link": str, "port": str, "baud": int}


@dataclass(frozen=True)
class LauncherConfig:
    """Where the launcher's motor and beam are: on the Pi's pins, or on a controller at the
    end of a serial line (firmware/README.md)."""

    link: str = "gpio"
    port: str | None = None  # a device path; best /dev/serial/by-id/..., which survives replugging
    baud: int = 115200


def launcher_config(raw: Mapping[str, Any]) -> LauncherConfig:
    """The `[launcher]` section, each value's type already checked against SCHEMA."""
    link = raw.get("link", LauncherConfig.link)
    if link not in LAUNCHER_LINKS:
        raise ConfigError(f"launcher.link must be gpio or serial, not {shown(link)}")
    port = raw.get("port")
    if link == "serial" and port is None:
        raise ConfigError("launcher.link 'serial' needs launcher.port, e.g. /dev/ttyACM0")
    # A device path only: pyserial would also open a URL (socket://...) onto the network.
    if port is not None and (not port.startswith("/dev/") or "\0" in port or ".." in port):
        raise ConfigError(f"launcher.port must be a device under /dev/, not {shown(port)}")
    baud = raw.get("baud", LauncherConfig.baud)
    if baud not in BAUD_RATES:
        rates = ", ".join(str(rate) for rate in BAUD_RATES)
        raise ConfigError(f"launcher.baud must be one of {rates}, not {shown(baud)}")
    return LauncherConfig(link=link, port=port, baud=baud)
