"""A real Mosquitto for the tests: on a free loopback port, with a password file and an ACL
that lets each table write only its own subtree, as a café's broker would be set up."""

from __future__ import annotations

import base64
import ctypes
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

OPERATOR = "operator"  # Home Assistant, the fleet command, a scoreboard: reads and writes all
PASSWORD = "s3cret-Pa55"  # every account's, in these tests
ACL = """\
user operator
topic readwrite #

# A table, logged in under its own id, writes only its own subtree and its Home
# Assistant device, and reads Home Assistant's status.
pattern readwrite flashtable/%u/#
pattern write homeassistant/device/%u/config
pattern read homeassistant/status
"""


def mosquitto() -> str:
    found = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/sbin")
    if found is None:
        raise RuntimeError("mosquitto is not installed: ./dev test installs it on Debian")
    return found


def password_line(user: str, password: str) -> str:
    """A line of Mosquitto's password file: PBKDF2-SHA512, as mosquitto_passwd writes."""
    salt = os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, 101)
    return f"{user}:$7$101${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def _die_with_parent() -> None:
    """In the broker's process: end with the test run, even one that is killed."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Broker:
    def __init__(self, directory: Path, tables: list[str]) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        users = [OPERATOR, *tables]
        (directory / "passwd").write_text(
            "".join(password_line(user, PASSWORD) + "\n" for user in users)
        )
        (directory / "acl").write_text(ACL)
        (directory / "mosquitto.conf").write_text(
            f"listener {self.port} 127.0.0.1\n"
            "allow_anonymous false\n"
            f"password_file {directory / 'passwd'}\n"
            f"acl_file {directory / 'acl'}\n"
            "persistence false\n"
            f"log_dest file {directory / 'mosquitto.log'}\n"
            "user root\n"
        )

    def start(self) -> None:
        self.process = subprocess.Popen(
            [mosquitto(), "-c", str(self.directory / "mosquitto.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + 30  # only a limit for a broker that never comes up
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.process.stderr.read().decode()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not start listening")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None

    @property
    def log(self) -> str:
        return (self.directory / "mosquitto.log").read_text()
