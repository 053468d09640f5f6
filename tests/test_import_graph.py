"""The house has no import circle: the modules of controller/ and hardware/ form a tree of
one-way arrows (counting imports made only for type checking, too)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("controller", "hardware")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def graph() -> dict[str, set[str]]:
    modules = {
        module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
    }
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*(base if node.level else []), *filter(None, [node.module])])
                targets = [module, *(f"{module}.{alias.name}" for alias in node.names)]
            else:
                continue
            # A package is imported before its modules anyway: that is no arrow.
            edges[name] |= {
                t for t in targets if t in modules and t != name and not name.startswith(t + ".")
            }
    return edges


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle, if there is any."""
    state: dict[str, int] = {}  # 1 while on the path, 2 when done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_module_imports_itself_round_a_circle():
    assert cycle(graph()) is None


def test_the_circle_finder_finds_a_circle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_hardware_never_imports_the_controller_nor_its_own_simulation():
    for name, targets in graph().items():
        if name.startswith("hardware"):
            assert not {t for t in targets if t.startswith("controller")}, name
        if name.startswith("hardware") and not name.startswith("hardware.sim"):
            assert not {t for t in targets if t.startswith("hardware.sim")}, name
