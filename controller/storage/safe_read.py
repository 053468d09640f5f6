"""Reading a file the daemon did not write itself, with bounds: it can never hang the daemon,
exhaust its memory or its stack, or stop it from starting.

Only a regular file is read (a FIFO, a device like /dev/zero or a directory is refused
without blocking: the file is opened non-blocking and checked before a byte is read), at
most a given number of bytes. JSON is parsed only when its nesting is shallow and its
numbers short, and TOML only when its nesting is shallow, so Python's recursion limit is
never reached: a RecursionError could fire anywhere on the way back out, even inside a
handler, and never say which file caused it.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from ..errors import DamagedFile

MAX_DEPTH = 16  # nesting of JSON arrays and objects, of TOML arrays and inline tables
MAX_DIGITS = 20  # characters of one JSON number
# Strings first, so that brackets and digits inside them are not taken for structure.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|[-+0-9.eE]+')
# TOML's four kinds of string and its comments, then its brackets.
_TOML_TOKENS = re.compile(
    r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]',
    re.DOTALL,
)


def read_regular(path: Path, limit: int, *, follow_links: bool = True) -> bytes | None:
    """The bytes of the regular file at `path`, None if there is none. Raises DamagedFile for
    anything but a regular file or one over `limit` bytes, OSError if it cannot be read."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow_links else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None  # no file, or not even a directory for one to be in
    except OSError as err:
        if not follow_links and err.errno == 40:  # ELOOP: the name is a symbolic link
            raise DamagedFile("a symbolic link, not a file") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise DamagedFile(f"not a regular file ({kind(mode)})")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise DamagedFile(f"larger than {limit} bytes")
    return b"".join(chunks)


def kind(mode: int) -> str:
    """What a file of `mode` is, in a few words."""
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def parse_json(data: bytes) -> object:
    """The JSON value of `data`; raises DamagedFile naming the first problem."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DamagedFile("not UTF-8 text") from None
    for token in _shallow(_JSON_TOKENS, text):
        if token[0] != '"' and len(token) > MAX_DIGITS:
            raise DamagedFile(f"a number longer than {MAX_DIGITS} characters")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise DamagedFile(f"not valid JSON ({err.msg}, line {err.lineno})") from None


def check_toml_nesting(text: str) -> None:
    """Raises DamagedFile if TOML `text` nests arrays and inline tables deeper than MAX_DEPTH
    (tomllib recurses into each)."""
    for _ in _shallow(_TOML_TOKENS, text):
        pass


def _shallow(tokens: re.Pattern[str], text: str) -> Iterator[str]:
    """The tokens of `text` other than brackets; raises DamagedFile once the brackets nest
    deeper than MAX_DEPTH."""
    depth = 0
    for match in tokens.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise DamagedFile(f"nested deeper than {MAX_DEPTH}")
        elif token in ("]", "}"):
            depth -= 1
        else:
            yield token


def _no_constant(name: str) -> object:
    raise DamagedFile(f"{name} is not a number JSON allows")


def set_aside(path: Path) -> Path | None:
    """Move a damaged file to NAME.bad for the operator to look at; None if it cannot be."""
    kept_as = path.with_name(path.name + ".bad")
    try:
        os.replace(path, kept_as)
    except OSError:
        return None
    return kept_as
