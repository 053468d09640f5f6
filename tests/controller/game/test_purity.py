"""The rules engine and the menu stay pure: no event loop, no clock, no hardware, no hidden
chance. Every import they make, in any form, and every import of the project's modules they
reach by any chain of imports, resolves to a module on the list below."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import controller

ROOT = Path(controller.__file__).parent
PURE_PACKAGES = ("controller.game", "controller.menu")
# The standard library's pure parts, and the project's own pure modules.
ALLOWED = {
    "__future__",
    "collections",
    "collections.abc",
    "dataclasses",
    "enum",
    "functools",
    "itertools",
    "math",
    "pathlib",  # a type: the file a state file error names (controller.errors)
    "re",  # the settings' names and values
    "textwrap",  # the menu's explanations, in lines of the LCD's width
    "random",  # for the type of the generator passed in; see the test of chance below
    "types",
    "unicodedata",  # players' names: their characters' categories, composed as NFC
    "typing",
    "gettext",  # the LCD's texts, in the table's language: read once, like a module
    "controller.catalogs",
    "controller.errors",
    "controller.requests",
    "controller.settings",
    "controller.settings.meanings",
}


def source(module: str) -> tuple[str, Path]:
    """The package that `module`'s relative imports start from, and its file."""
    path = ROOT.parent.joinpath(*module.split("."))
    if path.is_dir():
        return module, path / "__init__.py"
    return module.rpartition(".")[0], path.with_suffix(".py")


def imported(package: str, node: ast.AST) -> list[tuple[str, list[str]]]:
    """(module, names) for an import statement, relative imports resolved."""
    if isinstance(node, ast.Import):
        return [(alias.name, []) for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
        module = ".".join([*base, *([node.module] if node.module else [])])
        return [(module, [alias.name for alias in node.names])]
    return []


def ours(module: str, names: list[str]) -> list[str]:
    """The project's modules an import of `names` from `module` loads."""
    if module.split(".")[0] not in ("controller", "hardware"):
        return []
    found = [module] if source(module)[1].exists() else []
    return found + [f"{module}.{name}" for name in names if source(f"{module}.{name}")[1].exists()]


def modules():
    """Each module of the engine and the menu, and each of the project's modules they reach
    by any chain of imports: (its package, its file, its parsed source)."""
    todo = [
        f"{package}.{path.stem}"
        for package in PURE_PACKAGES
        for path in sorted(ROOT.parent.joinpath(*package.split(".")).glob("*.py"))
    ]
    seen = set(todo)
    while todo:
        package, path = source(todo.pop(0))
        tree = ast.parse(path.read_text())
        yield package, path, tree
        for node in ast.walk(tree):
            for module, names in imported(package, node):
                for reached in ours(module, names):
                    if reached not in seen and reached != "controller":
                        seen.add(reached)
                        todo.append(reached)


def allowed(module: str) -> bool:
    return (
        module in ALLOWED
        or module.startswith(tuple(p + "." for p in PURE_PACKAGES))
        or (module in PURE_PACKAGES)
    )


def test_every_import_of_the_engine_and_the_menu_is_pure():
    for package, path, tree in modules():
        for node in ast.walk(tree):
            for module, _ in imported(package, node):
                assert allowed(module), f"{path.name} imports {module}"


def test_no_module_is_imported_at_run_time_by_name():
    for _, path, tree in modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
                name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                assert name not in ("__import__", "import_module"), path.name


def test_chance_comes_only_from_the_generator_passed_in():
    for package, path, tree in modules():
        for node in ast.walk(tree):
            for module, names in imported(package, node):
                if module == "random":
                    assert set(names) <= {"Random"}, f"{path.name} imports random.{names}"
            named = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            if named and node.value.id == "random":
                assert node.attr == "Random", (path.name, node.attr)


@pytest.mark.parametrize(
    "statement",
    [
        "from .. import statefile",
        "from ..statefile import write_json",
        "from random import random",
        "import time",
        "from hardware.clock import Clock",
        "import controller.shell.daemon",
    ],
)
def test_the_checks_catch_each_form_of_impure_import(statement):
    tree = ast.parse(statement)
    found = []
    for node in ast.walk(tree):
        for module, names in imported("controller.game", node):
            random_names = module == "random" and not set(names) <= {"Random"}
            found.append(not allowed(module) or random_names)
    assert any(found), statement


def test_importing_the_engine_and_the_menu_loads_no_hardware_library():
    code = (
        "import sys, controller.game, controller.menu; "
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        ).stdout.split()
    )
    assert "controller" in loaded
    assert not loaded & {"gpiozero", "RPLCD", "smbus2", "hardware", "asyncio", "textual"}
