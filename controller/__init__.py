"""Flash Table: the game, the daemon around it, and the simulated table."""

from __future__ import annotations

import sys

__version__ = "0.1.0"


def main(argv: list[str] | None = None) -> int:
    """The `flashtable` command. `run` handles SIGTERM and SIGINT from its first moment: a
    stop while it starts (systemd's, or Ctrl+C) ends it cleanly, with status 0."""
    from .commands.early_stop import StoppedEarly, stop_early_on_signals

    words = sys.argv[1:] if argv is None else argv
    if words[:1] == ["run"]:
        stop_early_on_signals()
    try:
        from .commands.cli import main as command

        return command(argv)
    except StoppedEarly as stop:
        print(f"flashtable: stopped by {stop} before the table was up", file=sys.stderr)
        return 0
