"""`flashtable run --sim` with `[web]` in a process of its own (table_process.py), and the
commands that press its buttons."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from .conftest import free_port, password_file

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
WAIT = 30.0  # seconds: only a limit for what never comes


class RunningTable:
    def __init__(self, directory: Path, settings: str = "", seats: int = 3) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        config = directory / "flashtable.toml"
        config.write_text(
            f"[table]\nseats = {seats}\n"
            f'[web]\nlisten = "127.0.0.1:{self.port}"\n'
            f'password_file = "{password_file(directory)}"\n'
            f"[settings]\n{settings}"
        )
        command = [sys.executable, "-u", str(HERE / "table_process.py"), "--config", str(config)]
        command += ["--state-dir", str(directory / "state"), "--seed", "3"]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self.log: list[str] = []
        self._answers: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._wait_for_page()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("driver: "):
                self._answers.put(line.removeprefix("driver: ").rstrip("\n"))
            else:
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
