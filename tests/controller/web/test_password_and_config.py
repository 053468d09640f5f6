"""The remote's password is kept only as a scrypt hash, in a file its owner alone may read;
the `[web]` section is checked as every other section is."""

from __future__ import annotations

import base64
import hashlib
import os
import socket
import stat
import subprocess
import sys

import pytest

from controller.config import ConfigError, parse
from controller.config.web_section import DEFAULT_LISTEN, WebConfig
from controller.errors import PasswordError
from controller.web.password import PasswordHash, hashed, memory, read_hash, write_hash
from controller.web.password import parse as parse_hash

from .conftest import PASSWORD


def test_the_hash_matches_its_password_alone_and_never_holds_it(tmp_path):
    path = tmp_path / "pw"
    write_hash(path, PASSWORD)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert PASSWORD not in path.read_text() and path.read_text().startswith("scrypt$")
    kept = read_hash(path)
    assert kept.matches(PASSWORD)
    assert not kept.matches(PASSWORD + "x") and not kept.matches("")
    assert hashed(PASSWORD).salt != kept.salt  # a fresh salt each time


def test_a_hash_file_others_may_read_or_a_damaged_one_is_refused(tmp_path):
    path = tmp_path / "pw"
    write_hash(path, PASSWORD)
    os.chmod(path, 0o644)
    with pytest.raises(ConfigError) as refused:
        read_hash(path)
    assert str(refused.value).startswith(f"web.password_file {path} is open to group or others")
    path.write_text("scrypt$16384$8$1$AAAA$not-base64\n")
    os.chmod(path, 0o600)
    with pytest.raises(ConfigError, match="damaged"):
        read_hash(path)


def test_the_web_password_command_writes_the_configs_file(tmp_path):
    config = tmp_path / "flashtable.toml"
    path = tmp_path / "web-password"
    config.write_text(f'[web]\npassword_file = "{path}"\n')
    done = subprocess.run(
        [sys.executable, "-m", "controller", "web-password", "--config", str(config)],
        input=PASSWORD + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert read_hash(path).matches(PASSWORD)
    assert PASSWORD not in done.stdout + done.stderr


def test_the_web_section_and_its_defaults():
    assert parse({}).web is None  # `flashtable run` serves no page without one
    web = parse({"web": {"password_file": "/etc/flashtable/web-password"}}).web
    assert web == WebConfig(
        enabled=True, listen=DEFAULT_LISTEN, password_file=web.password_file if web else None
    )
    assert (web.host, web.port) == ("0.0.0.0", 8080)
    six = parse({"web": {"listen": "[::]:8443", "enabled": False}}).web
    assert six is not None and (six.host, six.port, six.enabled) == ("::", 8443, False)
    named = parse({"web": {"names": ["uno.lan", "Table-2.local."]}}).web
    assert named is not None and named.names == ("uno.lan", "Table-2.local.")


@pytest.mark.parametrize(
    ("section", "reason"),
    [
        ({"listen": "8080"}, "must be ADDRESS:PORT"),
        ({"listen": "table.lan:8080"}, "must be an IP address"),
        ({"listen": "0.0.0.0:70000"}, "port must be 1 to 65535"),
        ({"enabled": "yes"}, "web.enabled must be true or false"),
        ({"view_needs_password": True}, "needs web.password_file"),
        ({"colour": "red"}, "unknown key"),
        ({"names": "uno.lan"}, "web.names must be a list in brackets"),
        ({"names": ["uno lan"]}, "web.names must be host names"),
        ({"names": [7]}, "web.names must be host names"),
    ],
)
def test_a_bad_web_section_is_refused_with_its_key(section, reason):
    with pytest.raises(ConfigError, match=reason):
        parse({"web": section})


def web_password(*args: str, input: bytes, timeout: float = 60) -> subprocess.CompletedProcess:
    """`flashtable web-password ARGS`, its password piped in."""
    return subprocess.run(
        [sys.executable, "-m", "controller", "web-password", *args],
        input=input,
        capture_output=True,
        timeout=timeout,
    )


def a_fifo(path):
    os.mkfifo(path, 0o600)


def a_symlink(path):
    target = path.with_name("target")
    target.write_text("kept\n")
    path.symlink_to(target)


def a_device(path, kind=stat.S_IFCHR, major_minor=(1, 3)):
    try:  # a twin of /dev/null, here: the real one is never put at risk
        os.mknod(path, 0o600 | kind, os.makedev(*major_minor))
    except PermissionError:
        pytest.skip("making a device node needs CAP_MKNOD")


def a_disk(path):
    a_device(path, stat.S_IFBLK, (7, 0))  # a twin of the first loop device


def a_directory(path):
    path.mkdir()


def a_socket(path):
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(path))


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (a_fifo, "a FIFO"),
        (a_symlink, "a symbolic link"),
        (a_device, "a device"),
        (a_disk, "a device"),
        (a_directory, "a directory"),
        (a_socket, "a socket"),
    ],
)
def test_web_password_writes_only_a_regular_file_or_a_new_name(tmp_path, make, said):
    path = tmp_path / "web-password"
    make(path)
    before = os.lstat(path)
    done = web_password("--file", str(path), input=PASSWORD.encode() + b"\n")
    assert done.returncode == 1
    assert done.stderr.decode() == (
        f"flashtable: {path} is {said}, not a regular file; nothing changed\n"
    )
    after = os.lstat(path)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    if path.is_symlink():
        assert path.with_name("target").read_text() == "kept\n"


def test_web_password_replaces_a_regular_file_and_writes_a_new_name(tmp_path):
    old = tmp_path / "old"
    old.write_text("scrypt$old\n")
    for path in (old, tmp_path / "new"):
        done = web_password("--file", str(path), input=PASSWORD.encode() + b"\n")
        assert done.returncode == 0, done.stderr
        assert read_hash(path).matches(PASSWORD)


@pytest.mark.parametrize(
    ("piped", "said"),
    [
        (b"\xff\xfe not text\n", "the password piped in is not UTF-8 text"),
        (b"x" * 5000 + b"\n", "a password may have at most 1024 characters"),
        (b"\xe2\x82\xac" * 1025, "a password may have at most 1024 characters"),
    ],
)
def test_web_password_reads_a_pipe_as_bytes_and_says_what_is_wrong(tmp_path, piped, said):
    path = tmp_path / "web-password"
    done = web_password("--file", str(path), input=piped)
    assert done.returncode == 1
    assert done.stderr.decode() == f"flashtable: {said}; nothing changed\n"
    assert not path.exists()


def test_web_password_reads_no_more_of_an_endless_pipe_than_a_password_takes(tmp_path):
    path = tmp_path / "web-password"
    with open("/dev/zero", "rb") as endless:
        done = subprocess.run(
            [sys.executable, "-m", "controller", "web-password", "--file", str(path)],
            stdin=endless,
            capture_output=True,
            timeout=120,
        )
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "flashtable: a password may have at most 1024 characters; nothing changed\n"
    )
    assert not path.exists()


def test_a_password_of_the_longest_length_in_any_script_is_taken(tmp_path):
    path = tmp_path / "web-password"
    done = web_password("--file", str(path), input="€".encode() * 1024 + b"\r\n")
    assert done.returncode == 0, done.stderr
    assert read_hash(path).matches("€" * 1024)


def hash_line(n: int, r: int, p: int) -> str:
    """A hash line with these costs (its digest of no password)."""
    return f"scrypt${n}${r}${p}${'A' * 24}${'A' * 43}=\n"


@pytest.mark.parametrize(
    ("costs", "reason"),
    [
        ((2**16, 8, 1), "needs more than the 64 MiB a sign-in may take"),
        ((2**14, 32, 16), "needs more than the 64 MiB a sign-in may take"),
        ((2**13, 32, 8), "costs more than 8 times the default a sign-in may take"),
    ],
)
def test_a_hash_that_sign_in_cannot_afford_is_refused_when_read(tmp_path, costs, reason):
    path = tmp_path / "pw"
    path.write_text(hash_line(*costs))
    os.chmod(path, 0o600)
    with pytest.raises(ConfigError, match=reason):
        read_hash(path)


def test_a_hash_at_the_most_sign_in_affords_is_read_and_checked(tmp_path):
    path = tmp_path / "pw"
    path.write_text(hash_line(2**15, 8, 1))  # 32 MiB, 2 times the work of the default
    os.chmod(path, 0o600)
    assert not read_hash(path).matches(PASSWORD)  # checked, and simply wrong


def test_a_password_of_eight_to_1024_characters_is_hashed_and_no_other():
    for taken in ("8 chars!", "€" * 1024):
        assert hashed(taken).matches(taken)
    for refused, reason in (("7 chars", "at least 8"), ("€" * 1025, "at most 1024")):
        with pytest.raises(PasswordError, match=reason):
            hashed(refused)


def test_a_password_past_1024_characters_is_wrong_even_against_its_own_hash():
    """A sign-in never spends scrypt on a password longer than any the table takes."""
    longer, salt = "x" * 1025, b"s" * 16
    digest = hashlib.scrypt(longer.encode(), salt=salt, n=2**4, r=1, p=1, dklen=32)
    assert not PasswordHash(2**4, 1, 1, salt, digest).matches(longer)


def test_a_password_that_is_not_text_is_wrong_and_no_error():
    """JSON carries a lone surrogate, which no password the table takes can hold."""
    kept = hashed(PASSWORD)
    assert not kept.matches("\ud800" + PASSWORD) and not kept.matches(PASSWORD + "\udfff")


@pytest.mark.parametrize("costs", [(512, 31, 14), (2, 1, 1), (2**14, 8, 1), (256, 30, 13)])
def test_the_memory_a_hash_takes_is_openssls_own_count(costs):
    """OpenSSL's scrypt runs in exactly `memory` bytes and refuses one byte less: check-config
    states it, and a hash is refused by the same count a sign-in meets."""
    n, r, p = costs
    kwargs = {"salt": b"s" * 16, "n": n, "r": r, "p": p, "dklen": 32}
    hashlib.scrypt(b"x", maxmem=memory(n, r, p), **kwargs)
    with pytest.raises(ValueError, match="memory limit exceeded"):
        hashlib.scrypt(b"x", maxmem=memory(n, r, p) - 1, **kwargs)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


SALT8, DIGEST = b64(b"s" * 8), b64(b"d" * 32)  # the shortest salt a line may have


@pytest.mark.parametrize(
    "costs",
    [(2, 1, 1), (2**10, 32, 1), (2**10, 8, 16), (2**13, 32, 4)],  # the last: 8 times the work
)
def test_a_hash_line_within_every_bound_is_read_with_its_costs(costs):
    kept = parse_hash("scrypt${}${}${}${}${}\n".format(*costs, SALT8, DIGEST))
    assert (kept.n, kept.r, kept.p, kept.salt, kept.digest) == (*costs, b"s" * 8, b"d" * 32)


REASONS = {
    "costs out of bounds": "scrypt costs out of bounds: write it again",
    "damaged": "a damaged scrypt hash line: write it again",
    "not a scrypt hash line": "not a scrypt hash line: write it with `flashtable web-password`",
}


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (f"scrypt$1$8$1${SALT8}${DIGEST}", "costs out of bounds"),
        (f"scrypt$3$8$1${SALT8}${DIGEST}", "costs out of bounds"),
        (f"scrypt$1000$8$1${SALT8}${DIGEST}", "costs out of bounds"),
        (f"scrypt$1024$0$1${SALT8}${DIGEST}", "costs out of bounds"),
        (f"scrypt$1024$33$1${SALT8}${DIGEST}", "costs out of bounds"),
        (f"scrypt$1024$8$0${SALT8}${DIGEST}", "costs out of bounds"),
        (f"scrypt$1024$8$17${SALT8}${DIGEST}", "costs out of bounds"),
        (f"scrypt$1024$8$1${b64(b's' * 7)}${DIGEST}", "damaged"),
        (f"scrypt$1024$8$1${SALT8}${b64(b'd' * 31)}", "damaged"),
        (f"scrypt$1024$8$1${SALT8}${b64(b'd' * 33)}", "damaged"),
        (f"scrypt$1024$8$1${SALT8[:4]}*{SALT8[4:]}${DIGEST}", "damaged"),
        (f"scrypt$1024$8$1${SALT8}$*{DIGEST}", "damaged"),
        (f"scrypt$1024$8$1${SALT8}${DIGEST}$more", "not a scrypt hash line"),
        (f"bcrypt$1024$8$1${SALT8}${DIGEST}", "not a scrypt hash line"),
    ],
)
def test_a_hash_line_past_a_bound_is_refused_with_its_reason(line, reason):
    with pytest.raises(ValueError) as refused:
        parse_hash(line)
    assert str(refused.value) == REASONS[reason]


def test_a_hash_file_not_in_ascii_is_not_a_hash_line(tmp_path):
    path = tmp_path / "pw"
    path.write_bytes("scrypt$16384$8$1$sälz$hash\n".encode())
    os.chmod(path, 0o600)
    with pytest.raises(ConfigError, match=f"web.password_file {path}: not a hash line$"):
        read_hash(path)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can write a file for another user")
def test_a_password_written_by_root_keeps_the_owner_of_the_file_it_replaces(tmp_path):
    path = tmp_path / "web-password"
    write_hash(path, PASSWORD)
    os.chown(path, 4242, 4243)  # the service's user, in a directory root owns
    write_hash(path, PASSWORD + "!")
    written = path.stat()
    assert (written.st_uid, written.st_gid) == (4242, 4243)
    assert read_hash(path).matches(PASSWORD + "!")


def check_config(config) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "controller", "check-config", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (hash_line(2**16, 8, 1), "scrypt N=65536 r=8 p=1 needs more than the 64 MiB"),
        ("not a hash\n", "not a scrypt hash line"),
        (None, "not a regular file (a FIFO)"),
    ],
)
def test_check_config_reads_the_web_password_file(tmp_path, content, reason):
    path = tmp_path / "web-password"
    if content is None:
        os.mkfifo(path, 0o600)
    else:
        path.write_text(content)
        os.chmod(path, 0o600)
    config = tmp_path / "flashtable.toml"
    config.write_text(f'[web]\npassword_file = "{path}"\n')
    done = check_config(config)
    assert done.returncode == 1
    assert done.stderr.startswith(f"flashtable: {config}: web.password_file {path}: {reason}")
    write_hash(path.with_name("good"), PASSWORD)
    config.write_text(f'[web]\npassword_file = "{path.with_name("good")}"\n')
    done = check_config(config)
    assert done.returncode == 0, done.stderr
    assert "web remote: a password hash (scrypt N=16384 r=8 p=1, 16 MiB a sign-in)" in done.stdout
