"""Test-wide set-up: `async def` tests run on a fresh event loop each; `memory_path`.

The suite runs in parallel workers (pytest-xdist, as `./dev test` runs it): a fixture that
starts something on the machine (a broker, a tmux server, a pseudo-terminal) or writes a file
takes a port, name or path of its own, never a fixed one, and its temporary files are in
`tmp_path`, which is each worker's own.

A worker is handed a whole file at a time, in the order collected (`./dev test` turns off
pytest-xdist's own order, most tests first: a file of few tests may take the longest). The
files marked `long` (their tests take 15 s or more in all on a quiet machine) are collected
first, so that none of them starts last and holds up its suite's end alone."""

import asyncio
import inspect
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# `pytest --hypothesis-profile=thorough` tries thousands of cases where the suite tries 100.
settings.register_profile("thorough", max_examples=2000)

MEMORY = Path("/dev/shm")  # a tmpfs on Linux: files in memory


@pytest.fixture
def memory_path(tmp_path: Path) -> Iterator[Path]:
    """A fresh directory in memory where the machine has one (else `tmp_path`): for a test
    that writes state files thousands of times. On a disk, every atomic write of the table
    waits for its fsyncs, and what such a test checks (a process killed: whatever it wrote
    is kept, a half-written file never is) does not depend on the disk."""
    if not MEMORY.is_dir():
        yield tmp_path
        return
    path = Path(tempfile.mkdtemp(prefix="flashtable-test-", dir=MEMORY))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of the files marked `long` first, each file's in its own order."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function):
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
        return True
    return None
