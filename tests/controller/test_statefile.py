"""State files survive a power cut at any moment of a write: the old file or the new, whole."""

import errno
import json
import os
import random
import re

import pytest

from controller.errors import DamagedFile
from controller.settings import Settings
from controller.storage import safe_read, statefile
from controller.storage.safe_read import MAX_DEPTH, parse_json, read_regular
from controller.storage.settings_store import SettingsStore

OLD = {"turn_timer": 4}
NEW = {"turn_timer": 9, "picker": "fair"}


@pytest.fixture
def store(tmp_path):
    store = SettingsStore(tmp_path, Settings())
    store.set(OLD)
    return store


def test_a_killed_writers_temp_file_of_any_length_is_never_read_and_is_swept(store):
    old = store.path.read_bytes()
    rng = random.Random(3)
    new_bytes = b'{\n  "picker": "fair",\n  "turn_timer": 9\n}\n'
    for _ in range(50):
        # What a writer killed before its rename leaves: a temp file with a prefix of the data.
        cut = rng.randrange(len(new_bytes) + 1)
        temp = store.path.with_name(f"{store.path.name}.x{cut}{statefile.TEMP_SUFFIX}")
        temp.write_bytes(new_bytes[:cut])
        loaded = SettingsStore(store.path.parent, Settings()).load()
        assert loaded.settings.turn_timer == 4
        assert loaded.problems == []
        statefile.sweep(store.path.parent)  # what the daemon does when it starts
        assert not temp.exists()
    assert store.path.read_bytes() == old


class _Disk:
    """Records the order in which write_atomic makes data and names durable."""

    def __init__(self, monkeypatch):
        self.ops: list[tuple[str, str]] = []
        real_fsync, real_replace = os.fsync, os.replace

        def fsync(fd):
            self.ops.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
            real_fsync(fd)

        def replace(src, dst):
            self.ops.append(("rename", str(src)))
            real_replace(src, dst)

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "replace", replace)


def test_the_new_data_is_on_the_disk_before_its_name_and_both_before_the_write_returns(
    tmp_path, monkeypatch
):
    disk = _Disk(monkeypatch)
    statefile.write_atomic(tmp_path / "launcher.json", b'{"owed": 3}')
    [rename] = [op for op in disk.ops if op[0] == "rename"]
    at = disk.ops.index(rename)
    # Without the file's fsync, a power cut after the rename can leave an empty file.
    assert ("fsync", rename[1]) in disk.ops[:at]
    # Without the directory's fsync, a power cut after returning can bring back the old file.
    assert ("fsync", str(tmp_path)) in disk.ops[at + 1 :]
    assert (tmp_path / "launcher.json").read_bytes() == b'{"owed": 3}'


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_write_failing_at_any_step_leaves_the_old_file_and_no_temp(store, monkeypatch, failing):
    def fail(*args):
        raise OSError(f"{failing} failed")

    monkeypatch.setattr(os, failing, fail)
    with pytest.raises(OSError):
        store.set(NEW)
    monkeypatch.undo()
    assert SettingsStore(store.path.parent, Settings()).load().settings.turn_timer == 4
    assert list(store.path.parent.glob("*" + statefile.TEMP_SUFFIX)) == []


def test_after_the_rename_the_new_settings_are_whole(store):
    store.set(NEW)
    loaded = SettingsStore(store.path.parent, Settings()).load().settings
    assert (loaded.turn_timer, loaded.picker) == (9, "fair")


def test_the_settings_file_is_for_people_too_a_setting_a_line_in_the_order_of_its_names(store):
    """docs/state.md: indented by two spaces, its names in order, so that a person reads it
    and two of them compare line by line, whatever order the changes came in."""
    store.set(NEW)
    assert store.path.read_text() == '{\n  "picker": "fair",\n  "turn_timer": 9\n}\n'


def test_a_corrupt_file_is_kept_aside_and_defaults_are_used(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b'{"turn_timer": 9, "pick')
    loaded = SettingsStore(tmp_path, Settings()).load()
    assert loaded.settings == Settings()
    [problem] = loaded.problems
    assert problem.startswith(f"{path}: not valid JSON (Unterminated string")
    assert problem.endswith("; kept as settings.json.bad; defaults used")
    assert (tmp_path / "settings.json.bad").read_bytes() == b'{"turn_timer": 9, "pick'
    assert not path.exists()


def test_an_out_of_range_value_is_named_and_the_rest_kept(tmp_path, caplog):
    (tmp_path / "settings.json").write_text('{"turn_timer": 99, "picker": "fair"}')
    loaded = SettingsStore(tmp_path, Settings()).load()
    assert (loaded.settings.turn_timer, loaded.settings.picker) == (6, "fair")
    said = "turn_timer cannot be 99; allowed: off, 2-30 s, surprise"
    assert loaded.problems == [said]
    path = tmp_path / "settings.json"
    assert caplog.messages == [f"{path}: {said}; that setting keeps its value"]


def test_only_changes_from_the_config_are_stored(tmp_path):
    base = Settings({"turn_timer": 10})
    store = SettingsStore(tmp_path, base)
    store.set({"turn_timer": 10, "picker": "fair"})
    assert statefile.read_json(store.path) == {"picker": "fair"}
    assert store.reset() == base
    assert statefile.read_json(store.path) == {}


def test_crossed_surprise_bounds_in_the_file_keep_their_values_and_the_rest_applies(
    tmp_path, caplog
):
    (tmp_path / "settings.json").write_text(
        '{"surprise_min": 9, "surprise_max": 5, "slap_window": 4}'
    )
    loaded = SettingsStore(tmp_path, Settings()).load()
    settings = loaded.settings
    assert (settings.surprise_min, settings.surprise_max, settings.slap_window) == (3, 8, 4)
    said = "surprise_min (9) cannot be above surprise_max (5)"
    assert loaded.problems == [said]
    path = tmp_path / "settings.json"
    assert caplog.messages == [f"{path}: {said}; both keep their values"]


def test_a_bound_in_the_file_crossing_one_in_the_config_keeps_the_configs(tmp_path):
    (tmp_path / "settings.json").write_text('{"surprise_min": 9}')
    loaded = SettingsStore(tmp_path, Settings({"surprise_max": 5})).load()
    assert (loaded.settings.surprise_min, loaded.settings.surprise_max) == (3, 5)
    assert loaded.problems == ["surprise_min (9) cannot be above surprise_max (5)"]


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda path: path.mkdir(), "not a regular file (a directory)"),
        (os.mkfifo, "not a regular file (a FIFO)"),
        (lambda path: path.symlink_to("/dev/zero"), "not a regular file (a device)"),
        (lambda path: path.write_bytes(b"x" * 11), "larger than 10 bytes"),
    ],
    ids=["a directory", "a FIFO", "a device", "too large"],
)
def test_a_state_file_that_is_no_regular_file_of_its_size_is_named_for_what_it_is(
    tmp_path, make, said
):
    path = tmp_path / "settings.json"
    make(path)
    with pytest.raises(DamagedFile, match=f"^{re.escape(said)}$"):
        read_regular(path, 10)


def test_a_state_file_read_without_following_links_refuses_a_link(tmp_path):
    (tmp_path / "settings.json").symlink_to(tmp_path / "elsewhere.json")
    (tmp_path / "elsewhere.json").write_text("{}")
    assert read_regular(tmp_path / "settings.json", 10) == b"{}"
    with pytest.raises(DamagedFile, match=r"^a symbolic link, not a file$"):
        read_regular(tmp_path / "settings.json", 10, follow_links=False)


def test_a_state_file_that_is_a_link_even_to_good_settings_is_set_aside_unread(tmp_path):
    (tmp_path / "elsewhere.json").write_text('{"turn_timer": 8}')
    (tmp_path / "settings.json").symlink_to(tmp_path / "elsewhere.json")
    loaded = SettingsStore(tmp_path, Settings()).load()
    assert loaded.settings == Settings()
    [problem] = loaded.problems
    assert "settings.json: a symbolic link, not a file; kept as settings.json.bad" in problem
    assert (tmp_path / "settings.json.bad").is_symlink()


def test_a_state_directory_is_made_with_its_parents_and_nothing_written_in_it(tmp_path):
    state_dir = tmp_path / "var" / "lib" / "flashtable"
    assert statefile.prepare(state_dir) == []
    assert state_dir.is_dir() and list(state_dir.iterdir()) == []


def not_writable(path, mode):
    """os.access as a read-only disk, or a directory of another user's, answers it (root
    passes every permission, so a test run as root cannot make such a directory)."""
    return not mode & os.W_OK


def disk(*, blocks: int = 1, inodes: int = 1, read_only: bool = False):
    """os.statvfs as a disk with `blocks` and `inodes` left, and read-only or not, says it."""
    real = os.statvfs

    def statvfs(path):
        space = list(real(path))
        space[4], space[7] = blocks, inodes  # f_bavail, f_favail
        if read_only:
            space[8] |= os.ST_RDONLY  # f_flag
        return os.statvfs_result(space)

    return statvfs


@pytest.mark.parametrize(
    ("access", "statvfs", "code", "shown"),
    [
        (not_writable, disk(), errno.EACCES, ("Not saving:", "no permission")),
        (not_writable, disk(read_only=True), errno.EROFS, ("Not saving:", "disk read-only")),
        (os.access, disk(blocks=0), errno.ENOSPC, ("Not saving:", "disk full")),
        (os.access, disk(inodes=0), errno.ENOSPC, ("Not saving:", "disk full")),
    ],
    ids=["no permission", "read-only", "no block left", "no inode left"],
)
def test_a_state_directory_that_will_not_keep_the_table_is_named_with_why(
    tmp_path, monkeypatch, caplog, access, statvfs, code, shown
):
    monkeypatch.setattr(statefile.os, "access", access)
    monkeypatch.setattr(statefile.os, "statvfs", statvfs)
    refused = statefile.probe(tmp_path)
    assert refused is not None
    assert (refused.errno, refused.strerror, refused.filename) == (
        code,
        os.strerror(code),
        str(tmp_path),
    )
    assert statefile.prepare(tmp_path) == [shown]
    said = f"not saving to {tmp_path}: {os.strerror(code).lower()}"
    assert [r.getMessage() for r in caplog.records] == [said]


def test_a_leftover_that_cannot_be_removed_is_left_and_the_start_goes_on(tmp_path):
    (tmp_path / "settings.json.x1.tmp").write_bytes(b"{")
    (tmp_path / "game.json.x2.tmp").mkdir()  # no file: unlink refuses it
    assert statefile.prepare(tmp_path) == []
    assert [path.name for path in tmp_path.iterdir()] == ["game.json.x2.tmp"]


def test_what_a_write_cut_short_leaves_is_named_for_its_file_and_swept_at_the_next_start(
    tmp_path, monkeypatch
):
    during: set[str] = set()
    real = os.fsync

    def fsync(fd):
        during.update(path.name for path in tmp_path.iterdir())
        real(fd)

    monkeypatch.setattr(statefile.os, "fsync", fsync)
    statefile.write_atomic(tmp_path / "settings.json", b"{}\n")
    monkeypatch.undo()
    [temporary] = during - {"settings.json"}
    assert re.fullmatch(r"settings\.json\.\w{8}\.tmp", temporary), temporary
    (tmp_path / temporary).write_bytes(b"{")  # as a power cut in the write leaves it
    assert statefile.prepare(tmp_path) == []
    assert [path.name for path in tmp_path.iterdir()] == ["settings.json"]


@pytest.mark.parametrize(
    "text",
    [
        "[" * MAX_DEPTH + "]" * MAX_DEPTH,
        '{"a": ' * MAX_DEPTH + "1" + "}" * MAX_DEPTH,
        "[" + "[]," * MAX_DEPTH + "[]]",  # side by side, each closed: two deep
        "[" + "{}," * MAX_DEPTH + "{}]",
    ],
    ids=["arrays", "objects", "arrays side by side", "objects side by side"],
)
def test_a_state_file_nested_as_deep_as_the_bound_is_read(text):
    assert parse_json(text.encode()) == json.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
        '{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1),
        # ten deep, an empty list closed there, and seven deeper beside it
        "[" * 10 + "[]," + "[" * (MAX_DEPTH - 9) + "]" * (MAX_DEPTH - 9) + "]" * 10,
    ],
    ids=["arrays", "objects", "after a list closed"],
)
def test_a_state_file_nested_one_level_past_the_bound_is_refused(text):
    with pytest.raises(DamagedFile, match=f"^nested deeper than {MAX_DEPTH}$"):
        parse_json(text.encode())


def test_a_state_file_read_in_pieces_is_read_whole_and_refused_past_its_limit(
    tmp_path, monkeypatch
):
    """A read may return less than it was asked for (a network file system's does): the
    pieces make the file, and it is measured whole."""
    real = os.read
    monkeypatch.setattr(safe_read.os, "read", lambda fd, n: real(fd, min(n, 5)))
    path = tmp_path / "settings.json"
    path.write_bytes(b"0123456789")
    assert read_regular(path, 10) == b"0123456789"
    path.write_bytes(b"0123456789A")
    with pytest.raises(DamagedFile, match=r"^larger than 10 bytes$"):
        read_regular(path, 10)


def test_a_state_file_that_cannot_be_opened_is_refused_in_the_systems_words(tmp_path):
    with pytest.raises(OSError) as raised:
        read_regular(tmp_path / ("x" * 300), 10, follow_links=False)
    assert raised.value.errno == errno.ENAMETOOLONG
