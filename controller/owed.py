"""The cards the launcher still owes, kept in the state directory across restarts.

Saved after every card the beam counts, by a writer thread: a write with its fsyncs can take
a long moment on an SD card, and the event loop must not wait, because it stops the motor at
the right card. Only the newest count is ever written; `close` writes it before the daemon
ends, so a restart neither deals a card twice nor forgets one.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from .statefile import Unreadable, read_json, write_json

log = logging.getLogger(__name__)

FILE_NAME = "launcher.json"


class OwedFile:
    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / FILE_NAME
        self._latest: int | None = None  # waiting to be written
        self._asked = self._load()  # the last count asked for: on disk, or on its way
        self._lock = threading.Lock()
        self._wanted = threading.Event()
        self._closing = False
        self._writer: threading.Thread | None = None

    @property
    def at_start(self) -> int:
        """The count saved last, read when this was made; 0 when there is none."""
        return self._at_start

    def _load(self) -> int:
        try:
            saved = read_json(self.path)
        except (Unreadable, OSError) as err:
            log.error("%s", err)
            saved = None
        owed = saved.get("owed", 0) if isinstance(saved, dict) else 0
        self._at_start = owed if isinstance(owed, int) and owed > 0 else 0
        return self._at_start

    def save(self, owed: int) -> None:
        """Have `owed` written soon; returns at once."""
        with self._lock:
            if owed == self._asked:
                return
            self._asked = self._latest = owed
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_loop, name="owed", daemon=True)
            self._writer.start()
        self._wanted.set()

    def close(self) -> None:
        """Write the newest count now and stop the writer."""
        self._closing = True
        self._wanted.set()
        if self._writer is not None:
            self._writer.join()
        self._write_latest()

    def _write_loop(self) -> None:
        while not self._closing:
            self._wanted.wait()
            self._wanted.clear()
            self._write_latest()

    def _write_latest(self) -> None:
        with self._lock:
            owed, self._latest = self._latest, None
        if owed is None:
            return
        try:
            write_json(self.path, {"owed": owed})
        except OSError as err:
            log.error("cannot save the cards owed to %s: %s", self.path, err)
