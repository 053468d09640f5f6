"""The cards the launcher still owes, and a fault waiting for OK, kept across restarts.

The record is written ahead of the launcher (see hardware/gpio_ejector.py and docs/state.md): a
card on its way out is already counted as dealt, and the ejector lets the next card go only
once the record says so. A restart therefore never deals a card twice; at worst, when the
power fails with a card between the hopper and the slot, it deals one card fewer.

The file is made once, at full size, and then only overwritten in place: two fixed slots far
apart on the disk, written in turn, each with a sequence number and a checksum. A write that
a power cut tears leaves the other slot whole, and a full disk cannot refuse a write that
needs no new block. Writes go through a writer thread on the real table (an fsync on an SD
card can take a long moment, and the event loop must not wait), or at once in virtual time.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import zlib
from collections.abc import Callable
from pathlib import Path

from hardware.serial_dispense import Sent

from ..catalogs import N_
from ..errors import DamagedFile, UnreadableStateFile
from ..game.state import MAX_OWED
from .safe_read import parse_json
from .statefile import read_bytes, reason_of, unusable, write_atomic

log = logging.getLogger(__name__)

FILE_NAME = "launcher.owed"
OWED_DAMAGED = (N_("Cards owed: file"), N_("damaged, 0 owed"))  # the LCD's notice
SLOT_SIZE = 128  # the longest record, a 20-digit sequence number, a dispense and all: 114
SLOT_OFFSETS = (0, 4096)  # in different blocks of the disk, so one torn write spares the other
FILE_SIZE = SLOT_OFFSETS[1] + SLOT_SIZE

Owed = tuple[int, str | None]  # (cards, "jam" or "empty" while the launcher waits for OK)
# With it, a serial controller's dispense (`Sent`), kept before the DISPENSE leaves, so that a
# restart asks the same id again (docs/state.md).
Record = tuple[Owed, Sent | None]


class OwedFile:
    def __init__(self, state_dir: Path, *, on_kept: Callable[[], None], background: bool) -> None:
        """`on_kept` is called (from the writer thread, when `background`) after each write
        has reached the disk, or failed."""
        self.path = state_dir / FILE_NAME
        self.problem: UnreadableStateFile | None = None  # why the saved count could not be used
        self.refused: OSError | None = None  # why nothing is kept any more
        self._on_kept = on_kept
        self._lock = threading.Lock()
        self._seq = 0
        self._at_start, self._sent_at_start = self._load()
        self._kept = self._asked = (self._at_start, self._sent_at_start)
        self._fd: int | None = None
        self._stale = False  # a count that cannot be replaced nor removed stays on the disk
        self._writing = False
        self._open()
        self._wanted = threading.Event()
        self._closing = False
        self._writer: threading.Thread | None = None
        if background and self._fd is not None:
            self._writer = threading.Thread(target=self._write_loop, name="owed", daemon=True)
            self._writer.start()

    @property
    def at_start(self) -> Owed:
        """What was saved last, read when this was made; (0, None) when there is nothing."""
        return self._at_start

    @property
    def sent_at_start(self) -> Sent | None:
        """The serial dispense saved last with the count, if any."""
        return self._sent_at_start

    def allows(self, cards: int) -> bool:
        """Whether the disk says `cards` are owed, with no other write on its way; or nothing
        is kept at all, so that a restart owes nothing and can only err by cards fewer."""
        with self._lock:
            if self._fd is None:
                return not self._stale
            return not self._writing and self._asked == self._kept and self._kept[0][0] == cards

    def holds(self, sent: Sent) -> bool:
        """Whether the disk holds the serial dispense `sent`, or nothing is kept at all."""
        with self._lock:
            if self._fd is None:
                return not self._stale
            return not self._writing and self._kept[1] == sent

    def save_sent(self, sent: Sent) -> bool:
        """Have the serial dispense `sent` written with the count last saved; whether the
        disk holds it already (the DISPENSE may leave)."""
        self.save(self._asked[0], sent)
        return self.holds(sent)

    def save(self, owed: Owed, sent: Sent | None = None) -> None:
        """Have `owed` (and the serial dispense `sent`) written: at once in virtual time, soon
        by the writer thread."""
        with self._lock:
            if self._fd is None or (owed, sent) == self._asked:
                return
            self._asked = (owed, sent)
        if self._writer is None:
            self._write_latest()
        else:
            self._wanted.set()

    def close(self) -> None:
        """Write the newest count now and stop the writer."""
        self._closing = True
        self._wanted.set()
        if self._writer is not None:
            self._writer.join()
        self._write_latest()
        with self._lock:
            self._close_fd()

    # -- reading -------------------------------------------------------------------------

    def _load(self) -> Record:
        try:
            data = read_bytes(self.path, FILE_SIZE)
            if data is None:
                return ((0, None), None)
            self._seq, record = _newest(data)
            return record
        except UnreadableStateFile as err:
            # Nothing is dealt for a count that cannot be trusted: a card too few, at worst
            # a burst, beats a million cards.
            self.problem = err
        except DamagedFile as err:
            self.problem = unusable(self.path, str(err))
        return ((0, None), None)

    # -- writing -------------------------------------------------------------------------

    def _open(self) -> None:
        """Open the file for writing in place; it is made at full size when missing."""
        flags = os.O_WRONLY | os.O_CLOEXEC | os.O_NOFOLLOW
        try:
            try:
                self._fd = os.open(self.path, flags)
            except FileNotFoundError:
                blank = bytearray(b" " * (FILE_SIZE - 1) + b"\n")
                for seq in (self._seq - 1, self._seq):  # the next write replaces the older
                    offset = SLOT_OFFSETS[seq % 2]
                    blank[offset : offset + SLOT_SIZE] = _slot(seq, *self._kept)
                write_atomic(self.path, bytes(blank))
                self._fd = os.open(self.path, flags)
        except OSError as err:
            self._refuse(err)

    def _write_loop(self) -> None:
        while not self._closing:
            self._wanted.wait()
            self._wanted.clear()
            try:
                self._write_latest()
            except Exception:  # a fault of ours: the thread goes on, the log says why
                log.exception("writing the cards owed to %s failed", self.path)

    def _write_latest(self) -> None:
        with self._lock:
            record, fd = self._asked, self._fd
            if fd is None or record == self._kept:
                return
            self._writing = True  # until it is on the disk, no card may count on either
        self._seq += 1
        try:
            os.pwrite(fd, _slot(self._seq, *record), SLOT_OFFSETS[self._seq % 2])
            os.fdatasync(fd)
        except OSError as err:
            self._refuse(err)
        else:
            with self._lock:
                self._kept = record
        finally:
            with self._lock:
                self._writing = False
        self._on_kept()

    def _refuse(self, err: OSError) -> None:
        """The record cannot be kept: remove it (that needs no space), so that a restart owes
        nothing rather than cards already dealt; from here on nothing is kept."""
        log.error("cannot keep the cards owed in %s: %s", self.path, reason_of(err))
        self.refused = err
        try:
            self.path.unlink(missing_ok=True)
        except OSError as unlink_err:
            # The old count stays on the disk: the launcher must not deal past it.
            log.error("cannot remove %s: %s", self.path, reason_of(unlink_err))
            self._stale = True
        with self._lock:
            self._close_fd()

    def _close_fd(self) -> None:
        """Let go of the file; Linux frees the descriptor even when close reports an error,
        and what was synced is on the disk already."""
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError as err:
                log.error("cannot close %s: %s", self.path, reason_of(err))


def _slot(seq: int, owed: Owed, sent: Sent | None = None) -> bytes:
    (cards, fault) = owed
    fields: dict[str, object] = {"seq": seq, "owed": cards, "fault": fault}
    if sent is not None:  # a record without "sent" (the GPIO launcher's) still reads
        fields["sent"] = list(sent)
    body = _body(fields)
    text = "{" + body + f', "check": {zlib.crc32(body.encode())}' + "}"
    return text.ljust(SLOT_SIZE - 1).encode() + b"\n"


def _body(fields: dict[str, object]) -> str:
    """The text the check is taken over: the fields, in the order a slot has them."""
    return ", ".join(f"{json.dumps(key)}: {json.dumps(value)}" for key, value in fields.items())


def _newest(data: bytes) -> tuple[int, Record]:
    """(sequence, record) of the newest whole slot; raises DamagedFile when neither is whole,
    or when one is whole (its check matches) and yet holds what no table writes."""
    if len(data) != FILE_SIZE:
        raise DamagedFile(f"not {FILE_SIZE} bytes long")
    slots = [_parse(data[offset : offset + SLOT_SIZE]) for offset in SLOT_OFFSETS]
    whole = [slot for slot in slots if slot is not None]
    if not whole:
        raise DamagedFile(f"no whole record of 0 to {MAX_OWED} cards")
    return max(whole, key=lambda slot: slot[0])


def _parse(raw: bytes) -> tuple[int, Record] | None:
    """A slot's (sequence, record), or None for one that is torn (its check does not match:
    a write a power cut cut short, which leaves the other slot the truth). A slot whose check
    matches was written whole: if its record is impossible, the file is damaged, not torn,
    and the other slot is no truth either (DamagedFile)."""
    try:
        value = parse_json(raw)
    except DamagedFile:
        return None
    if not isinstance(value, dict) or set(value) - {"sent"} != {"seq", "owed", "fault", "check"}:
        return None
    fields = {key: value[key] for key in ("seq", "owed", "fault", "sent") if key in value}
    if zlib.crc32(_body(fields).encode()) != value["check"]:
        return None
    seq, owed, fault = value["seq"], value["owed"], value["fault"]
    sent = _sent(value.get("sent"))
    possible = (
        _whole_numbers(seq, owed)
        and 0 <= owed <= MAX_OWED
        and fault in (None, "jam", "empty")
        and ("sent" not in value or sent is not None)
    )
    if not possible:
        raise DamagedFile(f"a whole record no table writes: {_body(fields)[:80]}")
    return seq, ((owed, fault if owed else None), sent)


def _whole_numbers(*values: object) -> bool:
    """Whether each value is a JSON integer (JSON's true and false are no numbers)."""
    return all(isinstance(n, int) and not isinstance(n, bool) for n in values)


def _sent(value: object) -> Sent | None:
    """[id, asked, counted] of a serial dispense, or None when it is not one."""
    if not isinstance(value, list) or len(value) != 3:
        return None
    if not _whole_numbers(*value):
        return None
    ident, asked, counted = value
    if not (0 < ident < 2**32 and 0 < asked <= 255 and 0 <= counted <= asked):
        return None
    return ident, asked, counted
