"""The rules engine stays pure: no event loop, no clock, no hardware, no hidden chance."""

import ast
from pathlib import Path

import controller.game

FORBIDDEN = {"asyncio", "time", "threading", "datetime", "hardware", "gpiozero", "os"}


def modules():
    for path in sorted(Path(controller.game.__file__).parent.glob("*.py")):
        yield path.name, ast.parse(path.read_text())


def test_the_engine_imports_no_loop_clock_or_hardware():
    for name, tree in modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = {(node.module or "").split(".")[0]}
            else:
                continue
            assert not roots & FORBIDDEN, (name, roots)


def test_chance_comes_only_from_the_generator_passed_in():
    for name, tree in modules():
        for node in ast.walk(tree):
            named = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            if named and node.value.id == "random":
                assert node.attr == "Random", (name, node.attr)
