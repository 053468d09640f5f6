"""`flashtable check-config`: whether a config file and its pin map are usable, as lines for a
shell."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from hardware.factory import former_note

from ..config import DEFAULT_PATH, load
from ..errors import ConfigError
from ..storage.safe_read import kind
from ..web.password import memory, read_hash


def check_config(path: Path | None) -> int:
    """Print the pin map of the config at `path` (None: the default file, or the defaults);
    0. A config that cannot be used raises ConfigError."""
    config = load(path)
    pinmap = config.pinmap(simulated=False)
    launcher = config.launcher
    if launcher.link == "serial" and launcher.port is not None:
        problem = serial_port_problem(launcher.port)
        if problem is not None:
            raise ConfigError(f"{path or DEFAULT_PATH}: launcher.port {launcher.port} {problem}")
    web_hash = None
    if config.web is not None and config.web.password_file is not None:
        try:  # as a sign-in reads it, with the costs a sign-in affords
            web_hash = read_hash(config.web.password_file)
        except ConfigError as err:
            raise ConfigError(f"{path or DEFAULT_PATH}: {err}") from None
    shown = path or (DEFAULT_PATH if DEFAULT_PATH.exists() else "no config file: the defaults")
    print(f"{shown}: ok, table {config.table_id!r}, {pinmap.seats} seats")
    for role, pin in pinmap.pins.items():
        print(f"  {role:<24} GPIO{pin}")
    if note := former_note(config.pin_factory):
        print(f"  note: {note}")
    if launcher.link == "serial":
        print(f"  launcher on a controller at {launcher.port}, {launcher.baud} baud")
        if launcher.port is not None and not Path(launcher.port).exists():
            # Still usable: the board may be unplugged now, and the daemon opens the port
            # whenever it appears. Only a warning, so the check passes.
            print(
                f"flashtable: warning: {launcher.port} does not exist (controller unplugged?); "
                "the table opens it once it appears",
                file=sys.stderr,
            )
    if web_hash is not None:
        costs = f"scrypt N={web_hash.n} r={web_hash.r} p={web_hash.p}"
        mib = memory(web_hash.n, web_hash.r, web_hash.p) // 2**20
        print(f"  web remote: a password hash ({costs}, {mib} MiB a sign-in)")
    return 0


def serial_port_problem(port: str) -> str | None:
    """What makes the device at `port` no serial port; None for a terminal device, or for
    none there at all (the board may be unplugged). Opens nothing: a look at the device's
    kind, and at its class in sysfs where the kernel lists it (a pseudo-terminal is not)."""
    try:
        info = os.stat(port)
    except FileNotFoundError:
        return None
    except OSError as err:
        return f"cannot be looked at: {err.strerror or err}"
    if not stat.S_ISCHR(info.st_mode):
        return f"is not a serial device but {kind(info.st_mode)}"
    device = f"/sys/dev/char/{os.major(info.st_rdev)}:{os.minor(info.st_rdev)}/subsystem"
    subsystem = Path(device).resolve().name if os.path.exists(device) else "tty"
    if subsystem != "tty":
        return f"is not a serial port but a {subsystem} device"
    return None
