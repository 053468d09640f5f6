"""`flashtable web-password`: the remote's password asked for, and its hash kept in the
config's `[web] password_file` (or `--file`).

The file it writes is a regular file or a new name, nothing else: a device, a FIFO, a
directory or a symbolic link there is left as it is. A piped password is read as bytes, one
line of at most what the longest password takes, and must be UTF-8 text."""

from __future__ import annotations

import argparse
import getpass
import os
import stat
import sys
from pathlib import Path

from ..config import Config
from ..errors import PasswordError
from ..storage.safe_read import kind
from ..storage.statefile import reason_of
from .password import MAX_LENGTH, write_hash

# The bytes of the longest password (4 bytes a character in UTF-8 at most) and its "\r\n".
MAX_LINE = 4 * MAX_LENGTH + 2


def web_password(config: Config, file: Path | None, parser: argparse.ArgumentParser) -> int:
    path = file or (config.web.password_file if config.web is not None else None)
    if path is None:
        parser.error("the config has no [web] password_file: name one there, or give --file")
    try:
        refuse_unless_regular(path)
        if sys.stdin.isatty():
            password = getpass.getpass("New password for the web remote: ")
            if getpass.getpass("The same again: ") != password:
                print("flashtable: the two passwords differ; nothing changed", file=sys.stderr)
                return 1
        else:
            password = piped_password()
        write_hash(path, password)
    except PasswordError as err:
        print(f"flashtable: {err}; nothing changed", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"flashtable: cannot write {path}: {reason_of(err)}", file=sys.stderr)
        return 1
    print(f"the web remote's password is kept, hashed, in {path}")
    return 0


def refuse_unless_regular(path: Path) -> None:
    """Raises PasswordError when something but a regular file has the name `path`."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISREG(mode):
        return
    what = "a symbolic link" if stat.S_ISLNK(mode) else kind(mode)
    raise PasswordError(f"{path} is {what}, not a regular file")


def piped_password() -> str:
    """One line from stdin, read as bytes with a bound, without its line end."""
    line = sys.stdin.buffer.readline(MAX_LINE)
    if len(line) == MAX_LINE and not line.endswith(b"\n"):
        raise PasswordError(f"a password may have at most {MAX_LENGTH} characters")
    try:
        return line.rstrip(b"\r\n").decode("utf-8")
    except UnicodeDecodeError:
        raise PasswordError("the password piped in is not UTF-8 text") from None
