"""Every error the controller raises on purpose, under one base, `TableError`; each is named
for what went wrong, and its message is one line a user can act on. The hardware layer's own
errors (hardware/device_errors.py) have a base of their own, `HardwareError`: hardware/ knows
nothing of the controller. `StoppedEarly` (commands/early_stop.py) is no error but a stop, and
stays a `BaseException` so that no `except Exception` swallows it. `shown` puts a bad value
into such a line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


class TableError(Exception):
    """Anything the table refuses or cannot do; the message is one line saying why."""


class ConfigError(TableError, ValueError):
    """A config that cannot be used; the message is one line naming the file and the key."""


class SettingError(TableError, ValueError):
    """A value a setting does not allow; the message is one line naming the setting."""


class CrossedBounds(SettingError):
    """A pair of bounds that a change would leave the smaller above the larger."""

    def __init__(self, low: str, high: str, values: tuple[object, object]) -> None:
        super().__init__(f"{low} ({values[0]}) cannot be above {high} ({values[1]})")
        self.keys = (low, high)


class CannotStart(TableError):
    """The table cannot be built here; the message says why in one line, `lcd` in two short
    ones for the LCD."""

    def __init__(self, reason: object, lcd: str = "see its log") -> None:
        super().__init__(reason)
        self.lcd = ("Cannot start:", lcd)


class TableStopped(TableError, RuntimeError):
    """The table stopped before it carried out the request."""


class WrongThread(TableError, RuntimeError):
    """A call that belongs on the table's loop thread came from another; `submit` is the way
    in from there."""


class TableUnreachable(TableError, OSError):
    """A running table that gave the shell no answer; the message says why, in one line."""


class MessageRefused(TableError, ValueError):
    """An inbound message that changes nothing; the message is the reason, one line."""


class DamagedFile(TableError, ValueError):
    """A file that cannot be used; the message is one line saying why."""


class UndecodableSnapshot(TableError, ValueError):
    """A snapshot that cannot be resumed from; the message is one line saying why."""


class UnreadableStateFile(TableError):
    """A state file could not be used; it now lies at `kept_as` (None: it could not be moved).
    The message is one line."""

    def __init__(self, path: Path, reason: str, kept_as: Path | None) -> None:
        where = f"kept as {kept_as.name}" if kept_as else "left in place"
        super().__init__(f"{path}: {reason}; {where}")
        self.reason = reason
        self.kept_as = kept_as


class PasswordError(TableError, ValueError):
    """A web password that cannot be set; the message says why."""


class FirmwareNotLinked(TableError, RuntimeError):
    """The firmware in the loop could not be linked to the daemon; the message says why."""


class FaultRefused(TableError):
    """The simulated table cannot do this to its launcher; the message says why."""


class ScriptError(TableError):
    """A script line that cannot be played; the message says why."""


def shown(value: object, limit: int = 24) -> str:
    """A short picture of a bad value for an error's one line: never a whole huge number or a
    deep structure."""
    if isinstance(value, bool):
        return str(value).lower()  # as TOML and JSON write it: the file said `true`
    if isinstance(value, int) and value.bit_length() > 64:
        return "a huge number"
    if not isinstance(value, str | int | float):
        return f"a {type(value).__name__}"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
