"""`flashtable run --sim` with `[web]` in a process of its own (table_process.py), and the
commands that press its buttons."""

from __future__ import annotations

import os
import queue
import resource
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from tests.ports import free_port

from .conftest import password_file

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
WAIT = 30.0  # seconds: only a limit for what never comes


def limit_open_files(count: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, hard))


class RunningTable:
    def __init__(
        self,
        directory: Path,
        settings: str = "",
        seats: int = 3,
        open_files: int | None = None,
    ) -> None:
        """`open_files`: the table process's limit on open files (`ulimit -n`)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        config = directory / "flashtable.toml"
        config.write_text(
            f"[table]\nseats = {seats}\n"
            f'[web]\nlisten = "127.0.0.1:{self.port}"\n'
            f'password_file = "{password_file(directory)}"\n'
            f"[settings]\n{settings}"
        )
        self._command = [sys.executable, "-u", str(HERE / "table_process.py")]
        self._command += ["--config", str(config), "--state-dir", str(directory / "state")]
        self._command += ["--seed", "3"]
        self._open_files = open_files
        self.log: list[str] = []
        self.logged_at: list[float] = []  # when each line of the log came (time.monotonic)
        self._start()

    def _start(self) -> None:
        open_files = self._open_files
        self.process = subprocess.Popen(
            self._command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            preexec_fn=None if open_files is None else lambda: limit_open_files(open_files),
        )
        self._answers: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        self._wait_for_page()

    def restart(self) -> None:
        """The table stops, and starts again on the same port with the same state."""
        self.stop()
        self._start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("driver: "):
                self._answers.put(line.removeprefix("driver: ").rstrip("\n"))
            else:
                self.logged_at.append(time.monotonic())
                self.log.append(line)

    def _wait_for_page(self) -> None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the table ended:\n" + "".join(self.log))
            try:
                with urllib.request.urlopen(self.url, timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)  # the process is still starting; nothing to wait on but it
        raise RuntimeError("the table's page never answered:\n" + "".join(self.log))

    def do(self, command: str) -> str:
        """Carry out one of table_process.py's commands; its answer."""
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        try:
            return self._answers.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError(f"the table never answered {command!r}") from None

    def stop(self) -> str:
        self.process.terminate()
        try:
            self.process.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return "".join(self.log)

    def stop_without_fault(self) -> str:
        """Stop the table, which must have logged no traceback; its log."""
        log = self.stop()
        assert "Traceback" not in log, log[max(log.find("Traceback") - 400, 0) :]  # whole, to read
        return log
