"""The disk side of the game snapshot: one thread writes what the event loop hands over.

An atomic write with its fsyncs, or a flush of the time left, can take a long moment on an SD
card (seconds on a busy or worn one), and the loop must never wait for it: it runs the turns,
the lights and the motor. `snapshot` and `time_left` only leave the newest bytes and return.
The thread writes the newest snapshot whole (statefile.write_atomic; one the disk has not
taken yet when a newer one comes is dropped, as only the newest matters to a resume), and the
time left in place into its last line, flushed to the disk every SYNC_EVERY seconds of play.
`close` writes what is left, flushed, and stops the thread.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

from .statefile import reason_of, write_atomic

log = logging.getLogger(__name__)

SYNC_EVERY = 5.0  # seconds between flushes of the time left to the disk


class SnapshotWriter:
    """The writer thread of one snapshot file. `on_refused(err)` is called from the thread
    when the disk begins to refuse the writes (once, until a write succeeds again)."""

    def __init__(self, path: Path, *, on_refused: Callable[[OSError], None]) -> None:
        self.path = path
        self._on_refused = on_refused
        self._wanted = threading.Condition()
        self._snapshot: bytes | None = None  # the newest snapshot not yet written
        self._clock_line: bytes | None = None  # the newest time left not yet written
        self._at = 0.0  # the time of play it was handed over at
        self._closing = False
        self._writing = False
        self._fd: int | None = None
        self._offset = 0  # where the time left's line starts in the file
        self._synced = 0.0
        self._refused = False
        self._thread = threading.Thread(target=self._run, name="snapshot", daemon=True)
        self._thread.start()

    def snapshot(self, line: bytes, clock_line: bytes, at: float) -> None:
        """Have the snapshot `line`, followed by its `clock_line`, written whole (returns at
        once)."""
        with self._wanted:
            self._snapshot, self._clock_line, self._at = line, clock_line, at
            self._wanted.notify_all()

    def time_left(self, clock_line: bytes, at: float) -> None:
        """Have the newest snapshot's time left written in place (returns at once); with a
        snapshot still waiting, it goes in with that."""
        with self._wanted:
            self._clock_line, self._at = clock_line, at
            self._wanted.notify_all()

    def wait(self) -> None:
        """Wait until all that was handed over is written, or refused and told (for a
        simulation in virtual time, where play runs faster than any disk)."""
        with self._wanted:
            self._wanted.wait_for(lambda: not self._pending() and not self._writing)

    def close(self) -> None:
        """Write what is left, flush the time left to the disk, and stop the thread."""
        with self._wanted:
            self._closing = True
            self._wanted.notify_all()
        self._thread.join()
        if self._fd is not None:
            try:
                os.fdatasync(self._fd)
            except OSError as err:
                log.error("cannot save the time left to %s: %s", self.path, reason_of(err))
            os.close(self._fd)
            self._fd = None

    # -- the thread ------------------------------------------------------------------------

    def _pending(self) -> bool:
        return self._snapshot is not None or self._clock_line is not None

    def _run(self) -> None:
        while True:
            with self._wanted:
                self._wanted.wait_for(lambda: self._pending() or self._closing)
                if not self._pending():
                    return
                snapshot, clock_line, at = self._snapshot, self._clock_line, self._at
                self._snapshot = self._clock_line = None
                self._writing = True
            try:
                self._write(snapshot, clock_line, at)
            except Exception:  # a fault of ours: the thread and the table go on, the log says why
                log.exception("writing the snapshot %s failed", self.path)
            with self._wanted:
                self._writing = False
                self._wanted.notify_all()

    def _write(self, snapshot: bytes | None, clock_line: bytes | None, at: float) -> None:
        """Write what was handed over; a refusal of the disk is told (`_refuse`)."""
        try:
            if snapshot is not None:
                self._write_whole(snapshot + (clock_line or b""), len(snapshot), at)
                self._refused = False
            elif clock_line is not None and self._fd is not None:
                self._write_time_left(clock_line, at)
        except OSError as err:
            self._refuse(err)

    def _write_whole(self, data: bytes, clock_at: int, at: float) -> None:
        write_atomic(self.path, data)
        fd = os.open(self.path, os.O_WRONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
        if self._fd is not None:
            os.close(self._fd)
        self._fd, self._offset, self._synced = fd, clock_at, at

    def _write_time_left(self, clock_line: bytes, at: float) -> None:
        assert self._fd is not None
        os.pwrite(self._fd, clock_line, self._offset)
        if at - self._synced >= SYNC_EVERY:
            os.fdatasync(self._fd)
            self._synced = at

    def _refuse(self, err: OSError) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None  # the time left waits for the next whole snapshot
        if self._refused:
            return
        self._refused = True
        log.error("cannot save the game to %s: %s", self.path, reason_of(err))
        self._on_refused(err)
