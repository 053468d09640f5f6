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

from .statefile import Unreadable, read_json, unusable, write_json

log = logging.getLogger(__name__)

FILE_NAME = "launcher.json"
MAX_OWED = 108  # a whole UNO deck: no game owes more at once
OWED_DAMAGED = ("Cards owed: file", "damaged, 0 owed")  # the LCD's notice


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
        self.problem: Unreadable | None = None  # why the saved count could not be used
        try:
            saved = read_json(self.path)
            if saved is not None and not _valid(saved):
                raise unusable(self.path, f"not a count of 0 to {MAX_OWED} cards")
        except Unreadable as err:
            # Nothing is dealt for a count that cannot be trusted: a card too few, at worst
            # a burst, beats a million cards.
            self.problem, saved = err, None
        record = saved if isinstance(saved, dict) else {}
        owed = record.get("owed", 0)
        self._at_start: Owed = (owed, record.get("fault") if owed else None)
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


def _valid(saved: object) -> bool:
    if not isinstance(saved, dict) or set(saved) - {"owed", "fault"}:
        return False
    owed, fault = saved.get("owed", 0), saved.get("fault")
    if isinstance(owed, bool) or not isinstance(owed, int) or not 0 <= owed <= MAX_OWED:
        return False
    return fault in (None, "jam", "empty")
