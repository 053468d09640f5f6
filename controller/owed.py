"""The cards the launcher still owes, and a fault waiting for OK, kept across restarts.

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


Owed = tuple[int, str | None]  # (cards, "jam" or "empty" while the launcher waits for OK)


class OwedFile:
    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / FILE_NAME
        self._latest: Owed | None = None  # waiting to be written
        self._asked = self._load()  # the last state asked for: on disk, or on its way
        self._lock = threading.Lock()
        self._wanted = threading.Event()
        self._closing = False
        self._writer: threading.Thread | None = None

    @property
    def at_start(self) -> Owed:
        """What was saved last, read when this was made; (0, None) when there is nothing."""
        return self._at_start

    def _load(self) -> Owed:
        try:
            saved = read_json(self.path)
        except (Unreadable, OSError) as err:
            log.error("%s", err)
            saved = None
        saved = saved if isinstance(saved, dict) else {}
        owed, fault = saved.get("owed", 0), saved.get("fault")
        if not isinstance(owed, int) or owed <= 0:
            owed, fault = 0, None
        self._at_start: Owed = (owed, fault if fault in ("jam", "empty") else None)
        return self._at_start

    def save(self, owed: Owed) -> None:
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
            write_json(self.path, {"owed": owed[0], "fault": owed[1]})
        except OSError as err:
            log.error("cannot save the cards owed to %s: %s", self.path, err)
