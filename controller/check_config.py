"""`flashtable check-config`: whether a config file and its pin map are usable, as lines for a
shell."""

from __future__ import annotations

import sys
from pathlib import Path

from .config import DEFAULT_PATH, load


def check_config(path: Path | None) -> int:
    """Print the pin map of the config at `path` (None: the default file, or the defaults);
    0. A config that cannot be used raises ConfigError."""
    config = load(path)
    pinmap = config.pinmap(simulated=False)
    shown = path or (DEFAULT_PATH if DEFAULT_PATH.exists() else "no config file: the defaults")
    print(f"{shown}: ok, table {config.table_id!r}, {pinmap.seats} seats")
    for role, pin in pinmap.pins.items():
        print(f"  {role:<24} GPIO{pin}")
    launcher = config.launcher
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
    return 0
