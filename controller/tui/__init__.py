"""The simulated table in a terminal: an interactive view, or a headless script player."""

from __future__ import annotations

from pathlib import Path

from controller.config import Config


def run_view(config: Config, *, seed: int, time_scale: float, script: Path | None) -> int:
    """Play `script` headless and print its event log, or run the interactive view.

    Returns the exit status: 0, or 1 when the script cannot be played (one line says why).
    """
    if script is not None:
        from .script import run_script

        return run_script(config, script, seed=seed)
    from .app import TableApp

    app = TableApp(config, seed=seed, time_scale=time_scale)
    app.run()
    return app.return_code or 0
