"""The folders show the architecture: docs/architecture.md lists every package and top-level
module of controller/ and hardware/, and nothing that is not there; the top of controller/ stays
small; no two modules share a name, so that a name in a log or a traceback says which; every
Python file of controller/ and hardware/ stays a readable size, and the daemon, which only
wires the parts and runs the loop, smaller still."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).parents[1]
TOP = ("controller", "hardware")
MOST_TOP_MODULES = 8  # controller/'s own modules, __init__ and __main__ counted
MOST_LINES = 350  # a file past this is split along a seam a reader would name
MOST_DAEMON_LINES = 250


def documented() -> set[str]:
    """The paths in the map at the top of docs/architecture.md: `controller/game/`, ..."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("## Packages and arrows", 1)[1].split("```")[1]
    paths: set[str] = set()
    parent = ""
    for line in block.splitlines():
        match = re.match(r"( *)(\w+(?:/|\.py))(?= |$)", line)
        if not match:
            continue
        indent, name = match.groups()
        if not indent:
            parent = name if name.endswith("/") else ""
            paths.add(name)
        else:
            paths.add(parent + name)
    return paths


def present() -> set[str]:
    paths = set()
    for top in TOP:
        paths.add(f"{top}/")
        for path in (ROOT / top).iterdir():
            if path.is_dir() and (path / "__init__.py").exists():
                paths.add(f"{top}/{path.name}/")
    for path in (ROOT / "controller").glob("*.py"):
        if path.name not in ("__init__.py", "__main__.py"):
            paths.add(f"controller/{path.name}")
    return paths


def test_the_architecture_map_lists_every_package_and_nothing_else():
    listed = {p for p in documented() if p.split("/")[0] in TOP}
    assert listed == present()


def test_the_top_of_controller_holds_few_modules():
    assert len(list((ROOT / "controller").glob("*.py"))) <= MOST_TOP_MODULES


def test_no_two_modules_share_a_name():
    names = Counter(
        path.stem
        for top in TOP
        for path in (ROOT / top).rglob("*.py")
        if path.name not in ("__init__.py", "__main__.py")
    )
    assert [name for name, count in names.items() if count > 1] == []


def test_the_map_reader_reads_nested_entries():
    assert {"controller/", "controller/game/", "hardware/sim/"} <= documented()


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_every_file_of_controller_and_hardware_stays_a_readable_size():
    sizes = {
        str(path.relative_to(ROOT)): lines(path)
        for top in TOP
        for path in (ROOT / top).rglob("*.py")
    }
    assert {name: n for name, n in sizes.items() if n >= MOST_LINES} == {}


def test_the_daemon_only_wires_its_parts_and_runs_the_loop():
    assert lines(ROOT / "controller" / "shell" / "daemon.py") < MOST_DAEMON_LINES
