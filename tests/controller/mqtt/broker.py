"""A real Mosquitto for the tests: on a free loopback port, with a password file and an ACL
that lets each table write only its own subtree, as a café's broker would be set up."""

from __future__ import annotations

import base64
import ctypes
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.ports import free_port

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
RUNNING = re.compile(r"mosquitto version \S+ running")  # its log, once every listener is open


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


class Broker:
    def __init__(self, directory: Path, tables: list[str]) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self._started = False
        users = [OPERATOR, *tables]
        (directory / "passwd").write_text(
            "".join(password_line(user, PASSWORD) + "\n" for user in users)
        )
        (directory / "acl").write_text(ACL)
        self._configure()

    def _configure(self) -> None:
        directory = self.directory
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
        """Start the broker. Its first start takes another free port while the one it drew is
        taken meanwhile (test runs in parallel draw ports too); a restart keeps its port, which
        the tables were given."""
        for _ in range(20):
            if self._start_once():
                self._started = True
                return
            if self._started:
                raise RuntimeError(f"mosquitto cannot listen on its port {self.port} again")
            self.port = free_port()
            self._configure()
        raise RuntimeError("mosquitto found no free port")

    def _start_once(self) -> bool:
        """Whether this start listens on the port: the log of this very start says so (a
        connection alone might reach another test run's broker on a port taken meanwhile)."""
        log = self.directory / "mosquitto.log"
        logged = log.stat().st_size if log.exists() else 0
        self.process = subprocess.Popen(
            [mosquitto(), "-c", str(self.directory / "mosquitto.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + 30  # only a limit for a broker that never comes up
        while time.monotonic() < deadline:
            exited = self.process.poll() is not None  # before the log: its last words are in
            with open(log if log.exists() else os.devnull, "rb") as text:
                text.seek(logged)
                this_start = text.read().decode(errors="replace")
            if "Address already in use" in this_start:
                self.process.kill()
                self.process.wait()
                self.process = None
                return False
            if exited:
                raise RuntimeError(f"mosquitto exited: {self.process.stderr.read().decode()}")
            if RUNNING.search(this_start):
                socket.create_connection(("127.0.0.1", self.port), timeout=5).close()
                return True
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
