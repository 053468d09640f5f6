"""The simulated table in a terminal: an interactive view, or a headless script player."""

from __future__ import annotations

import sys
from pathlib import Path

from controller.config import Config

# What the interactive view imports beyond the daemon's own packages: the `sim` extra.
VIEW_PACKAGES = frozenset({"textual", "rich"})


def run_view(
    config: Config,
    *,
    seed: int,
    time_scale: float,
    script: Path | None,
    state_dir: Path | None = None,
    firmware: bool = False,
) -> int:
    """Play `script` headless and print its event log, or run the interactive view, which
    keeps its settings in `state_dir` (a script keeps nothing: it plays the same each time).
    With `firmware`, the launcher is the real firmware on a pseudo-terminal, over the serial
    protocol (controller/simulation/launcher_firmware.py).

    Returns the exit status: 0, or 1 when the script cannot be played or the view's packages
    are not installed (one line says why). The headless player needs none of them.
    """
    if script is not None:
        from .script import run_script

        return run_script(config, script, seed=seed, firmware=firmware)
    try:
        from .app import TableApp
    except ModuleNotFoundError as err:
        if (err.name or "").partition(".")[0] not in VIEW_PACKAGES:
            raise
        print(
            "flashtable: the interactive view needs Textual, which is not installed: "
            "pip install 'flashtable[sim]' (in a checkout: ./dev sim); --headless runs without",
            file=sys.stderr,
        )
        return 1

    app = TableApp(config, seed=seed, time_scale=time_scale, state_dir=state_dir, firmware=firmware)
    app.run()
    return app.return_code or 0
