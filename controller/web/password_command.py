"""`flashtable web-password`: the remote's password asked for, and its hash kept in the
config's `[web] password_file` (or `--file`)."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from ..config import Config
from ..errors import PasswordError
from ..storage.statefile import reason_of
from .password import write_hash


def web_password(config: Config, file: Path | None, parser: argparse.ArgumentParser) -> int:
    path = file or (config.web.password_file if config.web is not None else None)
    if path is None:
        parser.error("the config has no [web] password_file: name one there, or give --file")
    try:
        if sys.stdin.isatty():
            password = getpass.getpass("New password for the web remote: ")
            if getpass.getpass("The same again: ") != password:
                print("flashtable: the two passwords differ; nothing changed", file=sys.stderr)
                return 1
        else:
            password = sys.stdin.readline().rstrip("\r\n")
        write_hash(path, password)
    except PasswordError as err:
        print(f"flashtable: {err}; nothing changed", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"flashtable: cannot write {path}: {reason_of(err)}", file=sys.stderr)
        return 1
    print(f"the web remote's password is kept, hashed, in {path}")
    return 0
