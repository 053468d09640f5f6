"""The cards-owed file: written ahead of the launcher, in place, and never trusted past what
it can prove; the ejector lets a card go only when the file allows it."""

import errno
import logging
import os
import subprocess
import sys
import threading

import pytest

from controller.storage import owed as owed_module
from controller.storage.owed import FILE_NAME, SLOT_OFFSETS, SLOT_SIZE, OwedFile


def made(tmp_path, *, background=False, kept=None):
    return OwedFile(tmp_path, on_kept=kept or (lambda: None), background=background)


def slow_disk(monkeypatch):
    """fdatasync waits for `go_on`, once `syncing` is set."""
    real_sync = os.fdatasync
    syncing, go_on = threading.Event(), threading.Event()

    def slow_sync(fd):
        syncing.set()
        go_on.wait(5)
        real_sync(fd)

    monkeypatch.setattr(owed_module.os, "fdatasync", slow_sync)
    return syncing, go_on


def failing(code):
    """A stand-in for a call of the os that fails with `code`."""

    def fail(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    return fail


def test_a_writer_left_running_keeps_no_process_from_ending(tmp_path):
    """A daemon that ends without closing the file (a crash) is not held by its thread."""
    ends = (
        "import pathlib, sys; from controller.storage.owed import OwedFile; "
        "OwedFile(pathlib.Path(sys.argv[1]), on_kept=lambda: None, background=True)"
    )
    subprocess.run([sys.executable, "-c", ends, str(tmp_path)], check=True, timeout=60)


def test_a_count_left_from_before_is_read_at_start(tmp_path):
    owed = made(tmp_path)
    owed.save((3, "jam"))
    owed.close()
    assert made(tmp_path).at_start == (3, "jam")


def test_the_last_count_wins_even_while_a_slow_write_is_under_way(tmp_path, monkeypatch):
    syncing, go_on = slow_disk(monkeypatch)
    kept = threading.Event()
    owed = made(tmp_path, background=True, kept=kept.set)
    owed.save((1, None))  # a one-card dispense is asked for...
    assert syncing.wait(5)
    assert not owed.allows(1)  # ...not on the disk yet: the card must not go
    owed.save((0, None))  # ...and a later count is asked for before the disk has the 1
    assert not owed.allows(0)
    go_on.set()
    owed.close()
    assert kept.is_set()
    assert made(tmp_path).at_start == (0, None)


def test_a_card_may_go_only_once_the_disk_has_its_count(tmp_path):
    owed = made(tmp_path)
    assert owed.allows(0) and not owed.allows(2)
    owed.save((2, None))
    assert owed.allows(2) and not owed.allows(3)


def test_a_torn_write_leaves_the_count_before_it(tmp_path):
    owed = made(tmp_path)
    owed.save((3, None))
    owed.save((2, None))  # torn by a power cut, below: the card it allowed never left
    owed.close()
    path = tmp_path / FILE_NAME
    data = bytearray(path.read_bytes())
    newest = max(SLOT_OFFSETS, key=lambda at: data[at : at + SLOT_SIZE].count(b'"owed": 2'))
    data[newest + 10 : newest + 30] = b"\0" * 20
    path.write_bytes(bytes(data))
    again = made(tmp_path)
    assert again.at_start == (3, None) and again.problem is None


def test_a_full_disk_still_takes_the_count_in_place(tmp_path, monkeypatch):
    owed = made(tmp_path)

    no_space = failing(errno.ENOSPC)
    # A new file could not be made now; the count is written over the old bytes.
    monkeypatch.setattr(owed_module, "write_atomic", no_space)
    owed.save((4, None))
    owed.save((1, None))
    assert owed.refused is None and owed.allows(1)
    owed.close()
    assert made(tmp_path).at_start == (1, None)


def test_a_file_that_cannot_be_made_keeps_nothing_and_lets_the_cards_go(tmp_path, monkeypatch):
    no_space = failing(errno.ENOSPC)
    monkeypatch.setattr(owed_module, "write_atomic", no_space)
    owed = made(tmp_path)
    assert owed.refused is not None and owed.refused.errno == errno.ENOSPC
    assert owed.allows(5)  # a restart owes nothing: it can only err by cards fewer
    assert owed.holds((7, 5, 0))  # a serial dispense may leave too
    owed.save((5, None))
    assert not (tmp_path / FILE_NAME).exists()


@pytest.mark.parametrize("close_fails", [False, True], ids=["closed", "close fails too"])
def test_a_failed_write_removes_the_count_so_no_restart_deals_it_again(
    tmp_path, monkeypatch, caplog, close_fails
):
    owed = made(tmp_path)
    owed.save((4, None))
    monkeypatch.setattr(owed_module.os, "pwrite", failing(errno.EIO))
    if close_fails:  # Linux lets go of the file all the same
        monkeypatch.setattr(owed_module.os, "close", failing(errno.EIO))
    owed.save((3, None))
    assert owed.refused is not None and owed.allows(3) and owed.holds((7, 3, 0))
    path = tmp_path / FILE_NAME
    said = [(f"cannot keep the cards owed in {path}: input/output error", logging.ERROR)]
    if close_fails:
        said.append((f"cannot close {path}: input/output error", logging.ERROR))
    assert [(r.getMessage(), r.levelno) for r in caplog.records] == said
    assert not path.exists()
    monkeypatch.undo()
    assert made(tmp_path).at_start == (0, None)


def test_a_count_that_can_be_neither_replaced_nor_removed_holds_the_launcher(
    tmp_path, monkeypatch, caplog
):
    owed = made(tmp_path)
    owed.save((4, None))

    broken = failing(errno.EROFS)
    monkeypatch.setattr(owed_module.os, "pwrite", broken)
    monkeypatch.setattr(owed_module.Path, "unlink", broken)
    owed.save((3, None))
    # 4 stays on the disk: a card dealt now would be dealt again after a restart.
    assert not owed.allows(3) and not owed.allows(4)
    assert not owed.holds((7, 3, 0))
    path = tmp_path / FILE_NAME
    assert [(r.getMessage(), r.levelno) for r in caplog.records] == [
        (f"cannot keep the cards owed in {path}: read-only file system", logging.ERROR),
        (f"cannot remove {path}: read-only file system", logging.ERROR),
    ]


def test_the_writer_thread_goes_on_past_a_fault_of_its_own(tmp_path, caplog):
    """Telling the table a count is on the disk fails once: the next count is still written."""
    first_kept, second_kept = threading.Event(), threading.Event()

    def kept():
        if not first_kept.is_set():
            first_kept.set()
            raise RuntimeError("the table was not told")
        second_kept.set()

    owed = made(tmp_path, background=True, kept=kept)
    owed.save((2, None))
    assert first_kept.wait(30)  # the first write reached the disk and its answer failed
    owed.save((1, None))
    assert second_kept.wait(30)
    assert owed.allows(1)
    owed.close()
    assert made(tmp_path).at_start == (1, None)
    failed = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert [r.getMessage() for r in failed] == [
        f"writing the cards owed to {tmp_path / FILE_NAME} failed"
    ]
    assert "the table was not told" in caplog.text


def test_a_record_written_for_years_keeps_its_size_and_its_count(tmp_path):
    """Sequence numbers grow by one a write: the longest record still fits its slot."""
    seq = 10**19 - 1  # far more writes than a table makes in its life: 20 digits
    data = bytearray(b" " * (owed_module.FILE_SIZE - 1) + b"\n")
    for n in (seq - 1, seq):
        offset = SLOT_OFFSETS[n % 2]
        slot = owed_module._slot(n, (owed_module.MAX_OWED, "empty"), LONGEST_SENT)
        data[offset : offset + SLOT_SIZE] = slot
    (tmp_path / FILE_NAME).write_bytes(bytes(data))
    owed = made(tmp_path)
    assert owed.at_start == (owed_module.MAX_OWED, "empty")
    assert owed.sent_at_start == LONGEST_SENT
    owed.save((owed_module.MAX_OWED - 1, "empty"), LONGEST_SENT)
    owed.close()
    assert (tmp_path / FILE_NAME).stat().st_size == owed_module.FILE_SIZE
    assert made(tmp_path).at_start == (owed_module.MAX_OWED - 1, "empty")


LONGEST_SENT = (2**32 - 1, 255, 255)


def test_a_serial_dispense_is_kept_with_the_count_and_a_record_without_one_still_reads(tmp_path):
    owed = made(tmp_path)
    owed.save((5, None))
    owed.close()
    assert made(tmp_path).sent_at_start is None  # as a record from before dispenses were kept
    owed = made(tmp_path)
    assert owed.save_sent((0x1234ABCD, 5, 0))  # on the disk before the DISPENSE leaves
    owed.save((3, None), (0x1234ABCD, 5, 2))
    owed.close()
    again = made(tmp_path)
    assert (again.at_start, again.sent_at_start) == ((3, None), (0x1234ABCD, 5, 2))


def test_a_serial_dispense_may_leave_only_once_it_is_on_the_disk(tmp_path, monkeypatch):
    syncing, go_on = slow_disk(monkeypatch)
    kept = threading.Event()
    owed = made(tmp_path, background=True, kept=kept.set)
    assert not owed.save_sent((7, 3, 0))
    assert syncing.wait(5) and not owed.holds((7, 3, 0))
    go_on.set()
    assert kept.wait(5) and owed.holds((7, 3, 0))
    owed.close()


def written_with(tmp_path, sent) -> OwedFile:
    """The cards-owed file as a table left it, 3 cards owed and `sent` in play, read back."""
    data = bytearray(b" " * (owed_module.FILE_SIZE - 1) + b"\n")
    data[0:SLOT_SIZE] = owed_module._slot(1, (3, None), sent)
    (tmp_path / FILE_NAME).write_bytes(bytes(data))
    return made(tmp_path)


# The protocol's ids are 1 to 2**32 - 1, a DISPENSE asks 1 to 255 cards.
@pytest.mark.parametrize(
    "sent", [(0, 3, 0), (7, 0, 0), (7, 3, 4), (2**32, 3, 0), (7, 256, 0), (True, 3, 0)]
)
def test_a_record_with_an_impossible_dispense_is_not_trusted(tmp_path, sent):
    owed = written_with(tmp_path, sent)
    assert (owed.at_start, owed.sent_at_start) == ((0, None), None)
    assert owed.problem is not None
    owed.close()


@pytest.mark.parametrize("sent", [(1, 1, 0), (1, 1, 1), (2**32 - 1, 255, 255)])
def test_a_record_with_a_dispense_at_the_bounds_is_trusted(tmp_path, sent):
    owed = written_with(tmp_path, sent)
    assert (owed.at_start, owed.sent_at_start, owed.problem) == ((3, None), sent, None)
    owed.close()


def test_a_whole_record_that_no_table_writes_damages_the_file_and_the_older_is_no_truth(
    tmp_path, caplog
):
    # The newer slot is whole (its check matches), yet its dispense counted more cards than
    # it asked for: the file is damaged, not torn, and the older count may be stale.
    data = bytearray(b" " * (owed_module.FILE_SIZE - 1) + b"\n")
    data[SLOT_OFFSETS[1] : SLOT_OFFSETS[1] + SLOT_SIZE] = owed_module._slot(5, (6, None))
    data[SLOT_OFFSETS[0] : SLOT_OFFSETS[0] + SLOT_SIZE] = owed_module._slot(6, (3, None), (7, 3, 4))
    (tmp_path / FILE_NAME).write_bytes(bytes(data))
    owed = made(tmp_path)
    assert (owed.at_start, owed.sent_at_start) == ((0, None), None)
    assert owed.problem is not None and "a whole record no table writes" in str(owed.problem)
    assert "a whole record no table writes" in caplog.text
    assert (tmp_path / f"{FILE_NAME}.bad").read_bytes() == bytes(data)
    owed.close()


def test_a_slot_torn_by_a_power_cut_leaves_the_other_one_the_truth_without_a_word(tmp_path, caplog):
    data = bytearray(b" " * (owed_module.FILE_SIZE - 1) + b"\n")
    data[SLOT_OFFSETS[1] : SLOT_OFFSETS[1] + SLOT_SIZE] = owed_module._slot(5, (6, None))
    newer = owed_module._slot(6, (3, None))
    data[SLOT_OFFSETS[0] : SLOT_OFFSETS[0] + 40] = newer[:40]
    (tmp_path / FILE_NAME).write_bytes(bytes(data))
    owed = made(tmp_path)
    assert owed.at_start == (6, None) and owed.problem is None
    assert caplog.text == ""
    owed.close()
