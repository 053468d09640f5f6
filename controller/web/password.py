"""The remote's password, kept only as a scrypt hash (hashlib's, from OpenSSL) in the
config's `[web] password_file`: one line, `scrypt$N$r$p$SALT$HASH` in base64. The file is
refused when its group or others may read it, as the MQTT password file is."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path

from ..config.named_files import private_file
from ..errors import ConfigError, PasswordError
from ..storage.statefile import write_atomic

# scrypt's cost: 16 MiB of memory and some 50 ms on a PC, a few hundred on a Pi Zero; a
# check runs off the event loop, one at a time.
N, R, P = 2**14, 8, 1
# What a sign-in may take: the memory OpenSSL's scrypt is allowed (it refuses a hash that
# needs more), and 8 times the work of a hash this module writes, so that one check never
# holds the sign-ins behind it for seconds. A hash line beyond either is refused when read.
MAX_MEMORY = 64 * 1024 * 1024
MAX_WORK = 8 * N * R * P
SALT_BYTES = 16
HASH_BYTES = 32
MIN_LENGTH = 8  # characters a new password needs
MAX_LENGTH = 1024
MAX_FILE = 512  # bytes: one line of a hash


@dataclass(frozen=True)
class PasswordHash:
    n: int
    r: int
    p: int
    salt: bytes
    digest: bytes

    def matches(self, password: str) -> bool:
        """Whether `password` is the one hashed; costs one scrypt (run it off the loop). One
        longer than any the table takes, or not text (JSON carries a lone surrogate), is
        wrong without it."""
        if len(password) > MAX_LENGTH:
            return False
        try:
            given = _scrypt(password, self.salt, self.n, self.r, self.p)
        except UnicodeEncodeError:
            return False
        return hmac.compare_digest(given, self.digest)

    def line(self) -> str:
        b64 = base64.b64encode
        salt, digest = b64(self.salt).decode(), b64(self.digest).decode()
        return f"scrypt${self.n}${self.r}${self.p}${salt}${digest}\n"


def memory(n: int, r: int, p: int) -> int:
    """The bytes OpenSSL's scrypt takes for these costs (its check against `maxmem`)."""
    return 128 * r * (n + p + 2)


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode(), salt=salt, n=n, r=r, p=p, maxmem=MAX_MEMORY, dklen=HASH_BYTES
    )


def hashed(password: str) -> PasswordHash:
    """A new hash of `password`, with a fresh salt; refused if it is too short or too long."""
    if len(password) < MIN_LENGTH:
        raise PasswordError(f"a password needs at least {MIN_LENGTH} characters")
    if len(password) > MAX_LENGTH:
        raise PasswordError(f"a password may have at most {MAX_LENGTH} characters")
    salt = secrets.token_bytes(SALT_BYTES)
    return PasswordHash(N, R, P, salt, _scrypt(password, salt, N, R, P))


def parse(line: str) -> PasswordHash:
    """A hash line as `PasswordHash.line` writes it; raises ValueError if it is not one."""
    parts = line.strip().split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        raise ValueError("not a scrypt hash line: write it with `flashtable web-password`")
    try:
        n, r, p = (int(part) for part in parts[1:4])
        salt = base64.b64decode(parts[4], validate=True)
        digest = base64.b64decode(parts[5], validate=True)
    except (ValueError, binascii.Error):
        raise ValueError("a damaged scrypt hash line: write it again") from None
    if n < 2 or n & (n - 1) or not 1 <= r <= 32 or not 1 <= p <= 16:
        raise ValueError("scrypt costs out of bounds: write it again")
    if memory(n, r, p) > MAX_MEMORY:
        mib = MAX_MEMORY // 2**20
        raise ValueError(
            f"scrypt N={n} r={r} p={p} needs more than the {mib} MiB a sign-in may take"
        )
    if n * r * p > MAX_WORK:
        raise ValueError(
            f"scrypt N={n} r={r} p={p} costs more than 8 times the default a sign-in may take"
        )
    if len(salt) < 8 or len(digest) != HASH_BYTES:
        raise ValueError("a damaged scrypt hash line: write it again")
    return PasswordHash(n, r, p, salt, digest)


def read_hash(path: Path) -> PasswordHash:
    """The hash in `path`, read with the config's bounds; ConfigError says what is wrong."""
    data = private_file("web.password_file", path, MAX_FILE)
    try:
        return parse(data.decode("ascii"))
    except (UnicodeDecodeError, ValueError) as err:
        reason = "not a hash line" if isinstance(err, UnicodeDecodeError) else str(err)
        raise ConfigError(f"web.password_file {path}: {reason}") from None


def write_hash(path: Path, password: str) -> None:
    """Keep the hash of `password` in `path`, readable by its owner alone; a file that was
    there keeps its owner (a root shell writing the service user's file)."""
    write_atomic(path, hashed(password).line().encode(), mode=0o600, owner_of=path)
