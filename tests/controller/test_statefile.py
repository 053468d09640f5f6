"""State files survive a writer killed at any byte: the old file or the new, never a mix."""

import os
import random

import pytest

from controller import statefile
from controller.settings import Settings
from controller.settings_store import SettingsStore

OLD = {"turn_timer": 4}
NEW = {"turn_timer": 9, "picker": "fair"}


@pytest.fixture
def store(tmp_path):
    store = SettingsStore(tmp_path, Settings())
    store.set(OLD)
    return store


def test_a_write_cut_at_any_byte_leaves_the_old_settings(store, monkeypatch):
    data = (store.path.read_bytes(), None)
    rng = random.Random(3)
    new_bytes = b'{\n  "picker": "fair",\n  "turn_timer": 9\n}\n'
    for _ in range(50):
        # The writer dies after writing a random prefix of the temp file, before the rename.
        cut = rng.randrange(len(new_bytes) + 1)
        temp = store.path.with_name(f"{store.path.name}.x{cut}{statefile.TEMP_SUFFIX}")
        temp.write_bytes(new_bytes[:cut])
        loaded = SettingsStore(store.path.parent, Settings()).load()
        assert loaded.settings.turn_timer == 4
        assert loaded.problems == []
        statefile.sweep(store.path.parent)  # what the daemon does when it starts
        assert not temp.exists()
    assert store.path.read_bytes() == data[0]


def test_a_crash_between_write_and_rename_leaves_the_old_settings(store, monkeypatch):
    def power_cut(src, dst):
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError):
        store.set(NEW)
    monkeypatch.undo()
    assert SettingsStore(store.path.parent, Settings()).load().settings.turn_timer == 4


def test_after_the_rename_the_new_settings_are_whole(store):
    store.set(NEW)
    loaded = SettingsStore(store.path.parent, Settings()).load().settings
    assert (loaded.turn_timer, loaded.picker) == (9, "fair")


def test_a_corrupt_file_is_kept_aside_and_defaults_are_used(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b'{"turn_timer": 9, "pick')
    loaded = SettingsStore(tmp_path, Settings()).load()
    assert loaded.settings == Settings()
    assert loaded.problems == ["Settings file bad: settings.json.bad; defaults used"]
    assert (tmp_path / "settings.json.bad").read_bytes() == b'{"turn_timer": 9, "pick'
    assert not path.exists()


def test_an_out_of_range_value_is_named_and_the_rest_kept(tmp_path, caplog):
    (tmp_path / "settings.json").write_text('{"turn_timer": 99, "picker": "fair"}')
    loaded = SettingsStore(tmp_path, Settings()).load()
    assert (loaded.settings.turn_timer, loaded.settings.picker) == (6, "fair")
    assert "turn_timer cannot be 99" in loaded.problems[0]
    assert "turn_timer cannot be 99" in caplog.text


def test_only_changes_from_the_config_are_stored(tmp_path):
    base = Settings({"turn_timer": 10})
    store = SettingsStore(tmp_path, base)
    store.set({"turn_timer": 10, "picker": "fair"})
    assert statefile.read_json(store.path) == {"picker": "fair"}
    assert store.reset() == base
    assert statefile.read_json(store.path) == {}


def test_crossed_surprise_bounds_in_the_file_keep_their_values_and_the_rest_applies(tmp_path):
    (tmp_path / "settings.json").write_text(
        '{"surprise_min": 9, "surprise_max": 5, "slap_window": 4}'
    )
    loaded = SettingsStore(tmp_path, Settings()).load()
    settings = loaded.settings
    assert (settings.surprise_min, settings.surprise_max, settings.slap_window) == (3, 8, 4)
    assert loaded.problems == ["surprise_min (9) cannot be above surprise_max (5)"]
