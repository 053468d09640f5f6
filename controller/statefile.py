"""The daemon's own files in the state directory: written atomically, read defensively.

A write goes to a temporary file beside the target, is flushed to the disk, renamed over the
target, and the directory is flushed, so a power cut leaves the old file or the new one. A
file that cannot be read back is moved aside as `NAME.bad` for the operator to look at.

Written as root (`sudo flashtable settings set ...`), a file takes the owner and group of its
directory: the daemon runs as its own user and must still read and replace it.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

TEMP_SUFFIX = ".tmp"


class Unreadable(Exception):
    """A state file was corrupt; it now lies at `kept_as`."""

    def __init__(self, path: Path, kept_as: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}; kept as {kept_as.name}")
        self.kept_as = kept_as


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # A fresh, exclusive name: two writers never share a temporary file, and a symlink
    # planted in the directory is never followed.
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=TEMP_SUFFIX)
    temp = Path(name)
    try:
        os.fchmod(fd, 0o640)
        if os.geteuid() == 0:
            owner = os.stat(path.parent)
            os.fchown(fd, owner.st_uid, owner.st_gid)
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def write_json(path: Path, value: object) -> None:
    write_atomic(path, json.dumps(value, indent=2, sort_keys=True).encode() + b"\n")


def sweep(state_dir: Path) -> None:
    """Remove the temporary files of writes that never finished (a power cut); they are
    never the truth. For the daemon's start, when nothing else writes there."""
    for temp in state_dir.glob("*" + TEMP_SUFFIX):
        temp.unlink(missing_ok=True)


def read_json(path: Path) -> object | None:
    """The file's JSON value; None if there is no file. Raises Unreadable for a corrupt one
    and OSError for one that cannot be read."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        value: object = json.loads(data)
        return value
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        kept_as = path.with_name(path.name + ".bad")
        os.replace(path, kept_as)
        log.error("%s is corrupt (%s); kept as %s", path, err, kept_as)
        raise Unreadable(path, kept_as, "corrupt") from err
