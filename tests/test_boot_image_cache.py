"""The booted tests' image cache (tests/boot/image.py), shared by every checkout on the machine:
a build for one recipe keeps the images other checkouts used last, so the next booted run of
another branch finds its own image warm."""

import json
import os
from pathlib import Path

import pytest

from tests.boot import image


def made(root: Path, name: str, used: float) -> Path:
    directory = root / name
    directory.mkdir(parents=True)
    (directory / "info.json").write_text(json.dumps({"kernel": "k"}), encoding="utf-8")
    os.utime(directory / "info.json", (used, used))
    return directory


def test_a_build_keeps_the_images_used_last_and_a_use_counts_as_one(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    root = image.cache_root()
    monkeypatch.setattr(image, "key", lambda: "today")
    monkeypatch.setattr(image, "cannot_build", lambda: None)
    monkeypatch.setattr(image, "build", lambda work, say: "k")
    # Built long ago, but the one another checkout ran its tests on last.
    used_last = made(root, "another-branch", 1_000)
    older = [made(root, f"older{n}", 2_000 + n) for n in range(3)]
    assert image.cached() is None
    os.utime(used_last / "info.json")  # that checkout's run: image.cached() found it

    built = image.ensure_image(say=lambda text: None)

    assert built.directory == root / "today"
    kept = sorted(path.name for path in root.iterdir() if path.is_dir())
    assert kept == sorted(["today", "another-branch", older[-1].name])
    assert image.cached() == built


@pytest.mark.parametrize("present", [False, True])
def test_the_cache_finds_todays_image_only(tmp_path, monkeypatch, present):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(image, "key", lambda: "today")
    made(image.cache_root(), "yesterday", 1_000)
    if present:
        made(image.cache_root(), "today", 1_000)
    found = image.cached()
    assert (found is not None) == present
