"""The cards-owed file always ends up holding the last count, however slow the disk."""

import threading

from controller import owed as owed_module
from controller.owed import OwedFile
from controller.statefile import read_json


def test_the_last_count_wins_even_while_a_slow_write_is_under_way(tmp_path, monkeypatch):
    real_write = owed_module.write_json
    writing = threading.Event()
    go_on = threading.Event()

    def slow_write(path, value):
        writing.set()
        go_on.wait(5)
        real_write(path, value)

    monkeypatch.setattr(owed_module, "write_json", slow_write)
    owed = OwedFile(tmp_path)
    owed.save((1, None))  # a one-card dispense is asked for...
    assert writing.wait(5)
    owed.save((0, None))  # ...and has left before the disk has taken the 1
    go_on.set()
    owed.close()
    assert read_json(tmp_path / "launcher.json") == {"owed": 0, "fault": None}
    assert OwedFile(tmp_path).at_start == (0, None)


def test_a_count_left_from_before_is_read_at_start(tmp_path):
    owed = OwedFile(tmp_path)
    owed.save((3, "jam"))
    owed.close()
    assert OwedFile(tmp_path).at_start == (3, "jam")


def test_a_damaged_file_means_nothing_owed(tmp_path):
    (tmp_path / "launcher.json").write_text("{not json")
    assert OwedFile(tmp_path).at_start == (0, None)
    assert (tmp_path / "launcher.json.bad").exists()
