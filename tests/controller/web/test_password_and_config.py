"""The remote's password is kept only as a scrypt hash, in a file its owner alone may read;
the `[web]` section is checked as every other section is."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from controller.config import ConfigError, parse
from controller.errors import PasswordError
from controller.web.password import hashed, read_hash, write_hash
from controller.web.web_section import DEFAULT_LISTEN, WebConfig

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
    with pytest.raises(ConfigError, match="open to group or others"):
        read_hash(path)
    path.write_text("scrypt$16384$8$1$AAAA$not-base64\n")
    os.chmod(path, 0o600)
    with pytest.raises(ConfigError, match="damaged"):
        read_hash(path)


def test_a_password_too_short_is_refused():
    with pytest.raises(PasswordError, match="at least 8"):
        hashed("short")


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


@pytest.mark.parametrize(
    ("section", "reason"),
    [
        ({"listen": "8080"}, "must be ADDRESS:PORT"),
        ({"listen": "table.lan:8080"}, "must be an IP address"),
        ({"listen": "0.0.0.0:70000"}, "port must be 1 to 65535"),
        ({"enabled": "yes"}, "web.enabled must be true or false"),
        ({"view_needs_password": True}, "needs web.password_file"),
        ({"colour": "red"}, "unknown key"),
    ],
)
def test_a_bad_web_section_is_refused_with_its_key(section, reason):
    with pytest.raises(ConfigError, match=reason):
        parse({"web": section})
