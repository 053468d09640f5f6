"""The daemon's own files in the state directory: written atomically, read defensively.

A write goes to a temporary file beside the target, is flushed to the disk, renamed over the
target, and the directory is flushed, so a power cut leaves the old file or the new one. A
file that cannot be read back is moved aside as `NAME.bad` for the operator to look at.
"""

from __future__ import annotations

import json
import logging
import os
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
    temp = path.with_name(path.name + TEMP_SUFFIX)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
    try:
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


def read_json(path: Path) -> object | None:
    """The file's JSON value; None if there is no file. Raises Unreadable for a corrupt one."""
    # A temporary file left by a write that never finished is never the truth.
    path.with_name(path.name + TEMP_SUFFIX).unlink(missing_ok=True)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        kept_as = path.with_name(path.name + ".bad")
        os.replace(path, kept_as)
        log.error("%s is corrupt (%s); kept as %s", path, err, kept_as)
        raise Unreadable(path, kept_as, "corrupt") from err
