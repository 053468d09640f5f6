"""The daemon's own files in the state directory: written atomically, read defensively.

A write goes to a temporary file beside the target, is flushed to the disk, renamed over the
target, and the directory is flushed, so a power cut leaves the old file or the new one. A
file that cannot be read back (damaged, too large, not a regular file, unreadable) is moved
aside as `NAME.bad` for the operator to look at, where the directory allows it.

Written as root (`sudo flashtable settings set ...`), a file takes the owner and group of its
directory: the daemon runs as its own user and must still read and replace it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import tempfile
from pathlib import Path

from ..catalogs import N_
from ..errors import DamagedFile, UnreadableStateFile
from .safe_read import parse_json, read_regular, set_aside

log = logging.getLogger(__name__)

TEMP_SUFFIX = ".tmp"
MAX_BYTES = 256 * 1024  # far more than any state file the daemon writes


def write_atomic(
    path: Path, data: bytes, *, mode: int = 0o640, owner_of: Path | None = None
) -> None:
    """Write `data` to `path` whole or not at all. Run as root, the file takes the owner of
    `owner_of` when that exists (a file written again for the service's user), else of its
    directory."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        code = errno.ENOTDIR
        raise NotADirectoryError(code, os.strerror(code), str(path.parent)) from None
    # A fresh, exclusive name: two writers never share a temporary file, and a symlink
    # planted in the directory is never followed.
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=TEMP_SUFFIX)
    temp = Path(name)
    try:
        os.fchmod(fd, mode)
        if os.geteuid() == 0:
            like = owner_of if owner_of is not None and owner_of.exists() else path.parent
            owner = os.stat(like)
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
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)


def prepare(state_dir: Path) -> list[tuple[str, str]]:
    """Make the state directory ready at the daemon's start; the LCD notice, if any, for a
    directory that will not keep what the table does (the table plays on regardless). The
    leftovers go first: on a full disk, the space they hold is what the table needs most."""
    sweep(state_dir)
    refused = probe(state_dir)
    if refused is not None:
        log.error("not saving to %s: %s", state_dir, reason_of(refused))
        return [not_saving(refused)]
    return []


def read_bytes(path: Path, limit: int = MAX_BYTES, *, aside: bool = True) -> bytes | None:
    """The file's bytes; None if there is no file. Raises UnreadableStateFile for one that cannot be
    read, after setting it aside (unless `aside` is False: a look that changes nothing). A
    symbolic link is never followed: the state directory is the daemon's own."""
    try:
        return read_regular(path, limit, follow_links=False)
    except (DamagedFile, OSError) as err:
        raise unusable(path, reason_of(err), aside=aside) from None


def read_json(path: Path, limit: int = MAX_BYTES, *, aside: bool = True) -> object | None:
    """The file's JSON value; None if there is no file. Raises UnreadableStateFile for one that
    cannot be read or used, after setting it aside (unless `aside` is False)."""
    data = read_bytes(path, limit, aside=aside)
    try:
        return None if data is None else parse_json(data)
    except DamagedFile as err:
        raise unusable(path, str(err), aside=aside) from None


def unusable(path: Path, reason: str, *, aside: bool = True) -> UnreadableStateFile:
    """Set a file aside (if `aside`) that was read but cannot be used, log it, and say so."""
    problem = UnreadableStateFile(path, reason, set_aside(path) if aside else None)
    log.error("%s", problem)
    return problem


def reason_of(err: Exception) -> str:
    """One line for a failed read or write, without the file name the caller already gives."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror.lower()
    return str(err)


# What the LCD's second line says when the state directory refuses a write.
_REFUSALS = {
    errno.ENOSPC: N_("disk full"),
    errno.EDQUOT: N_("disk full"),
    errno.EROFS: N_("disk read-only"),
    errno.EACCES: N_("no permission"),
    errno.EPERM: N_("no permission"),
    errno.ENOTDIR: N_("not a folder"),
    errno.EEXIST: N_("not a folder"),
}


def not_saving(err: OSError) -> tuple[str, str]:
    """The LCD's notice for a state directory that refuses to keep what the table does: the
    refusals a family can act on by name, any other as a write error in the table's language
    (the system's own words, in English, are in the log)."""
    return (N_("Not saving:"), _REFUSALS.get(err.errno or 0, N_("write error")))


def probe(state_dir: Path) -> OSError | None:
    """Why the daemon could not keep its files in `state_dir`, or None when it can: the
    directory is made if missing, and must be writable with space left. Writes nothing."""
    try:
        state_dir.mkdir(parents=True, exist_ok=True)  # a file in the way: FileExistsError
        if not os.access(state_dir, os.W_OK | os.X_OK):
            code = errno.EROFS if os.statvfs(state_dir).f_flag & os.ST_RDONLY else errno.EACCES
            return OSError(code, os.strerror(code), str(state_dir))
        space = os.statvfs(state_dir)
        if space.f_bavail == 0 or space.f_favail == 0:
            return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(state_dir))
    except OSError as err:
        return err
    return None
