"""`flashtable settings`: a table's game settings shown, changed or reset from the shell.

A table running on the state directory is asked, through its socket there
(controller/shell/control_socket.py): it checks and keeps the change as its menu does, so the
running daemon stays the one writer of settings.json. Only when no table runs there does the
command read and write the file itself; and if a table started meanwhile, the change is asked
of it as well, so that it holds whichever file it read.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping
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
    """Carry out `action` (show, set `changes`, reset) on the settings of the table running
    on `state_dir`, or those kept there when none runs, and print them; 1 if the settings
    model refuses a change, the file cannot be saved, or a running table does not answer."""
    from ..errors import TableUnreachable
    from ..shell.control_socket import ask
    from ..storage.settings_store import FILE_NAME

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
    request: dict[str, object] = {"set": changes} if action == "set" else {action: True}
    kept: Kept | None = None
    try:
        answer = ask(state_dir, request)
        if answer is None:
            kept = _on_file(config, state_dir, action, changes)
            if kept is not None and action != "show":
                answer = ask(state_dir, request)  # a table that started meanwhile takes it too
    except TableUnreachable as err:
        print(f"flashtable: {err}; {FILE_NAME} left as it was", file=sys.stderr)
        return 1
    if answer is not None:
        kept, table = _taken(answer), f"{table} (running)"
    if kept is None:
        return 1
    _print(table, state_dir / FILE_NAME, *kept)
    return 0


Kept = tuple[Mapping[str, object], Collection[str]]  # the settings, the keys changed on the table


def _taken(answer: Mapping[str, object]) -> Kept | None:
    """The running table's settings from its answer; None, said why, if it refused."""
    error, settings, changed = answer.get("error"), answer.get("settings"), answer.get("changed")
    if error is not None or not isinstance(settings, dict) or not isinstance(changed, list):
        print(f"flashtable: {error or 'the running table gave no settings'}", file=sys.stderr)
        return None
    if answer.get("not_saved"):
        print(f"flashtable: the table took it but could not save it: {answer['not_saved']}")
    return settings, changed


def _on_file(config: Config, state_dir: Path, action: str, changes: dict[str, str]) -> Kept | None:
    """The command on the settings file, with no table running to ask; None, said why, if
    the settings model refuses the change or the file cannot be saved."""
    from ..errors import SettingError
    from ..storage.settings_store import SettingsStore
    from ..storage.statefile import reason_of

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
        return None
    except OSError as err:
        print(f"flashtable: cannot save {store.path}: {reason_of(err)}", file=sys.stderr)
        return None
    return current, store.changes


def _print(
    table: str, path: Path, settings: Mapping[str, object], changed: Collection[str]
) -> None:
    from ..settings import SETTINGS

    print(f"Settings of {table}, kept in {path}")
    print("(* changed on the table; the rest from the config or the defaults)")
    for spec in SETTINGS:
        value = settings.get(spec.key)
        if isinstance(value, int | str):  # a table of another version may lack one
            mark = "*" if spec.key in changed else " "
            print(f"{mark} {spec.key:<18} {spec.text(value):<10} {spec.label} ({spec.allowed()})")
