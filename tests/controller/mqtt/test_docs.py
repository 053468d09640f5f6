"""docs/mqtt.md documents every event type the engine can announce, with its fields."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[3]


def announced() -> dict[str, set[str]]:
    """Each event type in controller/game/ with the keys of its data, read from the code."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "controller" / "game").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Announce":
                kind, data = node.args
                assert isinstance(kind, ast.Constant), f"{path.name}: an event type not literal"
                assert isinstance(data, ast.Dict), f"{path.name}: {kind.value}'s data not literal"
                keys = {key.value for key in data.keys if isinstance(key, ast.Constant)}
                found.setdefault(kind.value, set()).update(keys)
    return found


def documented() -> dict[str, set[str]]:
    text = (ROOT / "docs" / "mqtt.md").read_text(encoding="utf-8")
    section = text.split("## `event`", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, set[str]] = {}
    for match in re.finditer(r"^\| `(\w+)` \| ([^|]*) \|", section, re.MULTILINE):
        rows[match.group(1)] = set(re.findall(r"`(\w+)`", match.group(2)))
    return rows


def test_every_event_type_is_documented_with_its_fields():
    code, docs = announced(), documented()
    assert len(code) > 20  # the reader found the engine's events
    for kind, fields in code.items():
        assert kind in docs, f"event {kind!r} is not in docs/mqtt.md"
        assert fields == docs[kind], f"event {kind!r}: fields {sorted(fields)} in the code"
    assert set(docs) <= set(code), f"documented but never announced: {set(docs) - set(code)}"
