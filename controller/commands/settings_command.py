"""`flashtable settings`: a table's game settings shown, changed or reset from the shell."""

from __future__ import annotations

import sys
from pathlib import Path

from ..config import DEFAULT_STATE_DIR, Config


def settings_command(
    config: Config,
    state_dir: Path,
    action: str,
    changes: dict[str, str],
    *,
    table: str = "the table",
) -> int:
    """Carry out `action` (show, set `changes`, reset) on the settings kept in `state_dir`
    and print them; 1 if the settings model refuses a change or the file cannot be saved."""
    from ..errors import SettingError
    from ..settings import SETTINGS
    from ..storage.settings_store import SettingsStore
    from ..storage.statefile import reason_of

    if state_dir == DEFAULT_STATE_DIR and not state_dir.is_dir():
        # The real table's directory comes with its service; making it here would leave
        # settings that no table reads (on a laptop, the simulated table's are --sim), and
        # showing a file that is nowhere would pass the defaults off as a table's.
        print(
            f"flashtable: {state_dir} does not exist: no table is installed here "
            "(for the simulated table: --sim)",
            file=sys.stderr,
        )
        return 1
    store = SettingsStore(state_dir, config.settings)
    # Showing changes nothing: a damaged file stays for the table to set aside at its start.
    loaded = store.load(aside=action != "show")
    for problem in loaded.problems:
        print(f"flashtable: {problem}", file=sys.stderr)
    current = loaded.settings
    try:
        if action == "set":
            current = store.set(changes)
        elif action == "reset":
            current = store.reset()
    except SettingError as err:
        print(f"flashtable: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"flashtable: cannot save {store.path}: {reason_of(err)}", file=sys.stderr)
        return 1
    print(f"Settings of {table}, kept in {store.path}")
    print("(* changed on the table; the rest from the config or the defaults)")
    for spec in SETTINGS:
        mark = "*" if spec.key in store.changes else " "
        value = spec.text(current[spec.key])
        print(f"{mark} {spec.key:<18} {value:<10} {spec.label} ({spec.allowed()})")
    return 0
