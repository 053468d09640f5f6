"""A booted test machine: QEMU on the image of tests/boot/image.py, its disk a copy-on-write
overlay of its own, its first serial port the agent's line (tests/boot/guest_agent.py).

The network is QEMU's user network restricted to the host: the guest reaches nothing but the
services forwarded to it. A power cut is a SIGKILL of QEMU; the same overlay boots again.
"""

from __future__ import annotations

import base64
import contextlib
import ctypes
import itertools
import json
import os
import re
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .image import HOST_SERVICES, Image

ANSWER = re.compile(r"@@ (\S+) (\S+) ([0-9a-f]{8})$")
RELAY = Path(__file__).with_name("relay.py")
# Emulation is slow: generous, and a test that waits for an event never waits this long.
BOOT_TIMEOUT = 600.0
COMMAND_TIMEOUT = 300.0
MEMORY_MB = 1024
# net.ifnames=0: the network card is eth0, whatever slot QEMU gives it (image.py names it).
KERNEL_COMMAND_LINE = (
    "root=/dev/vda rw console=ttyS0 quiet loglevel=4 systemd.show_status=0 net.ifnames=0 panic=-1"
)


def accelerator() -> str:
    """`tcg` (QEMU's software emulation) unless KVM is there and this machine is not itself
    a virtual machine: nested KVM is often there but slow or broken, where TCG is only slow.
    FLASHTABLE_VM_ACCEL=kvm or tcg chooses."""
    chosen = os.environ.get("FLASHTABLE_VM_ACCEL")
    if chosen in ("kvm", "tcg"):
        return chosen
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "tcg"
    with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
        nested = any(line.startswith("flags") and " hypervisor" in line for line in cpuinfo)
    return "tcg" if nested else "kvm"


def die_with_parent() -> None:
    """In a child: end with the test run, even one that is killed."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


@dataclass
class Result:
    """What a command did in the guest: its exit status (None: it timed out), its output."""

    rc: int | None
    out: str
    err: str


class CommandFailed(AssertionError):
    """A command in the guest exited non-zero; the message has its output."""


class Machine:
    """One guest. `forwards` maps a port on HOST_SERVICES in the guest to a port on the
    host's loopback; `shares` maps a 9p mount tag to a host directory (read-only);
    `second_serial` is a host tty (a pseudo-terminal) wired to the guest's /dev/ttyS1."""

    def __init__(
        self,
        image: Image,
        disk: Path,
        log: Path,
        *,
        forwards: dict[int, int] | None = None,
        shares: dict[str, Path] | None = None,
        second_serial: str | None = None,
    ) -> None:
        self.image = image
        self.disk = disk
        self.log_path = log
        self.forwards = forwards or {}
        self.shares = shares or {}
        self.second_serial = second_serial
        self.process: subprocess.Popen[bytes] | None = None
        self._answers: dict[str, dict] = {}
        self._arrived = threading.Condition()
        # Unique across machines: a restored agent remembers the last request it answered.
        self._token = secrets.token_hex(4)
        self._ids = (f"{self._token}-{n}" for n in itertools.count())
        self._reader: threading.Thread | None = None
        self.boots = 0
        self.started_at = 0.0  # the host's monotonic clock when QEMU last started

    @staticmethod
    def overlay(backing: Path, disk: Path) -> Path:
        """A fresh copy-on-write disk over `backing`, which it never writes."""
        subprocess.run(
            [
                "qemu-img",
                "create",
                "-q",
                "-f",
                "qcow2",
                "-F",
                "qcow2",
                "-b",
                str(backing),
                str(disk),
            ],
            check=True,
        )
        return disk

    def command(self) -> list[str]:
        netdev = "user,id=net,restrict=on"
        for guest_port, host_port in self.forwards.items():
            # A command per connection (QEMU starts it when the guest connects), so the
            # guest may connect again and again, as a daemon that restarts does.
            relay = f"{sys.executable} {RELAY} {host_port}"
            netdev += f",guestfwd=tcp:{HOST_SERVICES}:{guest_port}-cmd:{relay}"
        command = [
            "qemu-system-x86_64",
            "-accel",
            accelerator(),
            "-machine",
            "pc",
            # The plain 64-bit CPU: no AVX for TCG to emulate under the guest's libraries,
            # and no virtualisation extensions ("max" has them: the guest's kernel would load
            # KVM at every boot).
            "-cpu",
            "qemu64",
            "-smp",
            "2",
            "-m",
            str(MEMORY_MB),
            "-nodefaults",
            "-display",
            "none",
            "-no-reboot",
            "-kernel",
            str(self.image.kernel),
            "-initrd",
            str(self.image.initrd),
            "-append",
            KERNEL_COMMAND_LINE,
            "-drive",
            f"file={self.disk},format=qcow2,if=virtio",
            "-netdev",
            netdev,
            "-device",
            "virtio-net-pci,netdev=net",
            "-chardev",
            "stdio,id=agent,signal=off",
            "-serial",
            "chardev:agent",
            "-serial",
            self.second_serial or "null",
            "-qmp",
            f"unix:{self.qmp_path},server=on,wait=off",
        ]
        for tag, directory in self.shares.items():
            command += [
                "-virtfs",
                f"local,path={directory},mount_tag={tag},security_model=none,readonly=on",
            ]
        return command

    @property
    def qmp_path(self) -> Path:
        # A socket's path has room for 107 bytes: a short name beside the console's log.
        return self.log_path.parent / f"{self._token}.qmp"

    def boot(self, timeout: float = BOOT_TIMEOUT) -> float:
        """Start QEMU; the seconds until the agent answers (boot to shell)."""
        self._start([])
        self._wait_answer("ready", timeout)
        return time.monotonic() - self.started_at

    def restore(self, state: Path, timeout: float = 300.0) -> float:
        """Start QEMU from a state `save` wrote, on a disk as it was then (an overlay of the
        disk saved with it); the seconds until the agent answers."""
        self._start(["-incoming", f"exec:cat {shlex.quote(str(state))}"])
        # Only a running guest: what the serial port gets while the state loads is lost.
        with self._qmp(timeout) as execute:
            deadline = time.monotonic() + timeout
            while execute("query-status")["status"] != "running":
                if time.monotonic() > deadline:
                    raise AssertionError(f"the machine did not resume\n{self.console_tail()}")
                time.sleep(0.1)
        self.run("true", timeout=timeout)
        return time.monotonic() - self.started_at

    def _start(self, extra: list[str]) -> None:
        assert self.process is None, "already running"
        self._answers.clear()
        self.qmp_path.unlink(missing_ok=True)
        command = self.command() + extra
        self.started_at = time.monotonic()
        with open(self.log_path, "ab") as log:
            log.write(f"\n=== start {self.boots + 1}: {shlex.join(command)}\n".encode())
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,  # QEMU's complaints go to the console's log too
            start_new_session=True,  # a Ctrl-C in the terminal is the test's, not QEMU's
            preexec_fn=die_with_parent,
        )
        self.boots += 1
        self._reader = threading.Thread(target=self._read, args=(self.process,), daemon=True)
        self._reader.start()

    def save(self, state: Path, timeout: float = 300.0) -> None:
        """Write the guest's state (memory, devices) to `state`; QEMU then ends. The disk
        keeps what the guest had written; `restore` needs an overlay of it. Nothing may be
        mounted from a share, and no forwarded connection open (QEMU cannot carry either)."""
        with self._qmp(timeout) as execute:
            # The default cap of 32 MiB/s is for live migrations over a network. The guest
            # is saved running (idle, it is done at once): one saved paused stays paused.
            execute("migrate-set-parameters", **{"max-bandwidth": 1 << 40})
            execute("migrate", uri=f"exec:cat > {shlex.quote(str(state))}")
            deadline = time.monotonic() + timeout
            while (status := execute("query-migrate").get("status")) != "completed":
                if status in ("failed", "cancelled") or time.monotonic() > deadline:
                    raise RuntimeError(f"saving the machine's state: {status}")
                time.sleep(0.1)
            execute("quit")
        assert self.process is not None
        self.process.wait(timeout)
        self._ended()

    @contextlib.contextmanager
    def _qmp(self, timeout: float) -> Iterator[Callable[..., dict]]:
        """QEMU's monitor (QMP): a function that runs a command and returns its result."""
        deadline = time.monotonic() + timeout
        while not self.qmp_path.exists():  # QEMU makes it as it starts
            if (
                time.monotonic() > deadline
                or self.process is None
                or self.process.poll() is not None
            ):
                raise AssertionError(f"QEMU did not start\n{self.console_tail()}")
            time.sleep(0.05)
        with socket.socket(socket.AF_UNIX) as qmp:
            qmp.settimeout(timeout)
            qmp.connect(str(self.qmp_path))
            channel = qmp.makefile("rw")

            def execute(command: str, **arguments) -> dict:
                channel.write(json.dumps({"execute": command, "arguments": arguments}) + "\n")
                channel.flush()
                while True:
                    reply = json.loads(channel.readline())  # events come in between
                    if "error" in reply:
                        raise RuntimeError(f"QEMU refused {command}: {reply['error']}")
                    if "return" in reply:
                        return reply["return"]

            json.loads(channel.readline())  # the greeting
            execute("qmp_capabilities")
            yield execute

    def _read(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        with open(self.log_path, "ab") as log:
            for raw in process.stdout:
                log.write(raw)
                log.flush()
                found = ANSWER.search(raw.decode(errors="replace").rstrip("\r\n"))
                if found is None:
                    continue
                ident, body, crc = found.groups()
                if zlib.crc32(body.encode()) != int(crc, 16):
                    continue  # damaged: asked again
                with self._arrived:
                    self._answers[ident] = json.loads(base64.b64decode(body))
                    self._arrived.notify_all()
        with self._arrived:
            self._arrived.notify_all()

    def _wait_answer(self, ident: str, timeout: float, resend: bytes | None = None) -> dict:
        """The answer to `ident`. With `resend`, once `timeout` has passed (the agent has
        given up on the command by then) the request goes once more, in case the answer
        came damaged: the agent answers a repeated request from memory."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while ident not in self._answers:
                if self.process is None or self.process.poll() is not None:
                    raise AssertionError(f"the machine is off\n{self.console_tail()}")
                left = deadline - time.monotonic()
                if left <= 0 and resend is not None:
                    self._send(resend)
                    resend, deadline, left = None, time.monotonic() + 60, 60
                if left <= 0:
                    raise TimeoutError(
                        f"no answer from the guest in {timeout:.0f} s\n{self.console_tail()}"
                    )
                self._arrived.wait(left)
            return self._answers.pop(ident)

    def _send(self, line: bytes) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(line)
        self.process.stdin.flush()

    def run(
        self,
        script: str,
        *,
        timeout: float = COMMAND_TIMEOUT,
        check: bool = True,
        stdin: bytes = b"",
    ) -> Result:
        """`script` by /bin/sh in the guest, as root; raises CommandFailed on a non-zero exit
        with `check`."""
        ident = next(self._ids)
        request = {"sh": script, "timeout": timeout, "stdin": base64.b64encode(stdin).decode()}
        line = f"{ident} {base64.b64encode(json.dumps(request).encode()).decode()}\n".encode()
        self._send(line)
        answer = self._wait_answer(ident, timeout + 10, resend=line)
        result = Result(answer["rc"], answer["out"], answer["err"])
        if check and result.rc != 0:
            raise CommandFailed(
                f"in the guest: {script}\nexit {result.rc}\n{result.out}{result.err}"
            )
        return result

    def write(self, path: str, text: str, mode: str = "0644", owner: str = "root:root") -> None:
        quoted = shlex.quote(path)
        self.run(
            f"mkdir -p $(dirname {quoted}) && cat > {quoted}.new && chmod {mode} {quoted}.new"
            f" && chown {owner} {quoted}.new && mv {quoted}.new {quoted}",
            stdin=text.encode(),
        )

    def wait_until(self, condition: str, timeout: float = 300.0, every: float = 0.2) -> float:
        """Wait in the guest until the shell `condition` holds; the seconds it took, as the
        guest's clock measured them."""
        script = (
            "start=$(cut -d' ' -f1 /proc/uptime); "
            f"until {condition}; do sleep {every}; done; "
            'end=$(cut -d" " -f1 /proc/uptime); echo "$start $end"'
        )
        done = self.run(
            f"timeout {timeout} sh -c {shlex.quote(script)}", timeout=timeout + 10, check=False
        )
        if done.rc != 0:
            raise AssertionError(
                f"in the guest, still not true after {timeout:.0f} s: {condition}\n{self.journal()}"
            )
        start, end = map(float, done.out.split())
        return end - start

    def journal(self, unit: str = "flashtable", lines: int = 60, after: str = "") -> str:
        """The unit's last `lines` lines in the journal; with `after` (a `cursor`), only
        those that came after it."""
        if self.process is None or self.process.poll() is not None:
            return "(the machine is off)"
        since = f" --after-cursor={shlex.quote(after)}" if after else ""
        done = self.run(
            f"journalctl -u {unit} -n {lines} --no-pager -o short-monotonic{since}", check=False
        )
        return done.out

    def cursor(self) -> str:
        """The journal's present position, for `journal(after=...)`."""
        out = self.run("journalctl -n 0 --show-cursor --no-pager").out
        return out.rsplit("-- cursor: ", 1)[1].strip()

    def power_cut(self) -> None:
        """Pull the plug: QEMU dies at once; what the guest had not written is lost."""
        assert self.process is not None
        self.process.kill()
        self._ended()

    def shutdown(self, timeout: float = 120.0) -> None:
        """A clean power-off from inside."""
        assert self.process is not None
        ident = next(self._ids)
        request = {"sh": "systemctl --no-block poweroff", "timeout": 30, "stdin": ""}
        self._send(f"{ident} {base64.b64encode(json.dumps(request).encode()).decode()}\n".encode())
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        finally:
            self._ended()

    def stop(self) -> None:
        """Whatever state it is in: off."""
        if self.process is not None:
            self.process.kill()
            self._ended()

    def _ended(self) -> None:
        assert self.process is not None
        self.process.wait()
        if self._reader is not None:
            self._reader.join(10)
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process = None

    def console_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_bytes().decode(errors="replace")
        except OSError:
            return ""
        kept = [line for line in text.splitlines() if not line.startswith("@@")]
        return "console:\n" + "\n".join(kept[-lines:])
