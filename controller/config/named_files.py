"""Files the config names (a password's file, a CA bundle), read with the config's own
bounds: a regular file only, never blocking on a FIFO or a device, at most a given size."""

from __future__ import annotations

import stat
from pathlib import Path

from ..errors import ConfigError, DamagedFile
from ..storage.safe_read import read_regular


def named_file(key: str, path: Path, limit: int) -> bytes:
    """The bytes of a file the config names, read with the config's own bounds: a regular
    file only (a FIFO, a device or a directory is refused without blocking), at most `limit`
    bytes; raises ConfigError naming `key` and saying what is wrong."""
    try:
        data = read_regular(path, limit)
    except DamagedFile as err:
        raise ConfigError(f"{key} {path}: {err}") from None
    except OSError as err:
        raise ConfigError(f"{key} {path}: cannot read: {err.strerror or err}") from None
    if data is None:
        raise ConfigError(f"{key} {path}: no such file")
    return data


def private_file(key: str, path: Path, limit: int) -> bytes:
    """`named_file`, refused when anyone but its owner may read it (a password's file)."""
    data = named_file(key, path, limit)
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(
            f"{key} {path} is open to group or others (mode {stat.S_IMODE(mode):o}): chmod 600 it"
        )
    return data
