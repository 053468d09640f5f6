"""systemctl for a table installed under a temporary root, where no systemd runs.

Enabling and disabling are systemd's own (`systemctl --root`). Starting runs the unit's
ExecStart the way systemd would — as its User and Group, with a notify socket — but on
simulated pins (the test has no GPIO chip and no I2C bus), and succeeds once the daemon
sends READY=1; then the daemon is stopped and the unit counts as active. Every call is
logged, one JSON list a line, to $STUB_LOG.
"""

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(os.environ["FLASHTABLE_ROOT"])
LOG = Path(os.environ["STUB_LOG"])
ACTIVE = LOG.with_name("active")
UNIT = ROOT / "etc/systemd/system/flashtable.service"
READY_TIMEOUT = 60.0  # a loaded machine starts Python slowly; a dead daemon ends it sooner


def unit_value(key: str) -> str:
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if line.startswith(key + "="):
            return line.partition("=")[2]
    raise SystemExit(f"stub systemctl: no {key}= in {UNIT}")


def user_ids(name: str) -> tuple[int, int]:
    for line in (ROOT / "etc/passwd").read_text(encoding="utf-8").splitlines():
        fields = line.split(":")
        if fields[0] == name:
            return int(fields[2]), int(fields[3])
    raise SystemExit(f"stub systemctl: no user {name}")


def start() -> int:
    exe, *args = shlex.split(unit_value("ExecStart"))
    uid, gid = user_ids(unit_value("User"))
    state = ROOT / "var/lib/flashtable"
    config = ROOT / "etc/flashtable/flashtable.toml"
    command = [str(ROOT) + exe, *args, "--sim", "--config", str(config), "--state-dir", str(state)]
    address = str(LOG.with_name("notify"))
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        os.chmod(address, 0o666)
        sock.settimeout(1.0)
        env = {"NOTIFY_SOCKET": address, "HOME": str(state), "PATH": "/usr/bin:/bin"}
        daemon = subprocess.Popen(
            command, env=env, user=uid, group=gid, extra_groups=[], stdout=subprocess.DEVNULL
        )
        try:
            waited = 0.0
            while daemon.poll() is None and waited < READY_TIMEOUT:
                try:
                    if sock.recv(100) == b"READY=1":
                        daemon.send_signal(signal.SIGTERM)
                        daemon.wait(timeout=30)
                        ACTIVE.touch()
                        return 0
                except TimeoutError:
                    waited += 1.0
        finally:
            daemon.kill()
            daemon.wait()
            os.unlink(address)
    ACTIVE.unlink(missing_ok=True)
    print("Job for flashtable.service failed.", file=sys.stderr)
    return 1


def main(argv: list[str]) -> int:
    with LOG.open("a", encoding="utf-8") as log:
        log.write(json.dumps(argv) + "\n")
    words = [word for word in argv if not word.startswith("--")]
    command = words[0]
    if command == "is-system-running":
        print("running")
        return 0
    if command in ("enable", "disable"):
        if "--now" in argv:
            ACTIVE.unlink(missing_ok=True)
        return subprocess.call(["systemctl", f"--root={ROOT}", "--quiet", *words])
    if command == "start":
        return 0 if ACTIVE.exists() else start()
    if command == "restart":
        return start()
    if command == "is-active":
        return 0 if ACTIVE.exists() else 3
    if command == "stop":
        ACTIVE.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
