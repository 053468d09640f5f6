"""The house keeps its floors: every module of controller/, hardware/ and firmware/ reaches,
by any chain of imports (those made only for type checking counted too), only modules of its
own floor or a lower one, as the floors in docs/architecture.md stand; the two remotes side by
side never reach each other; and no module imports itself round a circle."""

from __future__ import annotations

import ast
import re
from collections import deque
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("controller", "hardware", "firmware")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def graph() -> dict[str, set[str]]:
    """Every module of the house, with the modules of the house it imports: the files of its
    packages (the build's own step in controller/locale/, in no package, is none)."""
    modules = {
        module_name(path): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if (path.parent / "__init__.py").exists()
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


def chains(edges: dict[str, set[str]], start: str) -> dict[str, list[str]]:
    """Every module `start` reaches, each with one shortest chain of imports to it."""
    found = {start: [start]}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for target in sorted(edges[here]):
            if target not in found:
                found[target] = [*found[here], target]
                todo.append(target)
    return found


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


def floors() -> list[list[str]]:
    """The floors of docs/architecture.md, from the top down: each a list of units (a
    package or top-level module of controller/, written `shell`, `config`; or `hardware/`,
    `hardware/sim/`, `firmware/`; `controller` is the package's own entry)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("## Floors", 1)[1].split("```")[1]
    return [
        [unit.strip() for unit in line.split("  ")[0].split(",")]
        for line in block.strip("\n").splitlines()
        if not line.startswith(" ")  # a line that goes on with the one above
    ]


def unit_of(module: str) -> str:
    """The unit of `module` as the floors name it."""
    parts = module.split(".")
    if parts[0] == "hardware":
        return "hardware/sim/" if parts[1:2] == ["sim"] else "hardware/"
    if parts[0] == "firmware":
        return "firmware/"
    return parts[1] if len(parts) > 1 and parts[1] != "__main__" else "controller"


def floor_of() -> dict[str, int]:
    """Each unit's floor, counted from the ground (0)."""
    stack = floors()
    return {unit: len(stack) - 1 - level for level, units in enumerate(stack) for unit in units}


def climbs(edges: dict[str, set[str]], floor: dict[str, int]) -> list[str]:
    """Every module that reaches a module on a higher floor, or one beside it on its own
    floor in another unit, with the chain that does."""
    found = []
    for name in sorted(edges):
        unit = unit_of(name)
        for target, chain in chains(edges, name).items():
            other = unit_of(target)
            if floor[other] > floor[unit] or (floor[other] == floor[unit] and other != unit):
                found.append(" -> ".join(chain))
                break
    return found


def test_every_module_of_the_house_stands_on_a_floor():
    units = floor_of()
    assert sorted({unit_of(name) for name in graph()} - units.keys()) == []
    assert sorted(units.keys() - {unit_of(name) for name in graph()}) == []


def test_no_module_reaches_a_higher_floor_or_a_unit_beside_its_own():
    assert climbs(graph(), floor_of()) == []


def test_the_floor_check_follows_a_chain_to_its_end():
    # settings on floor 1 imports only storage.safe_read on floor 0 ... which imports shell.
    edges = {
        "controller.settings": {"controller.storage.safe_read"},
        "controller.storage.safe_read": {"controller.shell.inbox"},
        "controller.shell.inbox": set(),
        "controller.mqtt.link": {"controller.web.feed"},
        "controller.web.feed": set(),
    }
    floor = {"web": 4, "mqtt": 4, "shell": 3, "settings": 2, "storage": 1}
    assert climbs(edges, floor) == [
        "controller.mqtt.link -> controller.web.feed",
        "controller.settings -> controller.storage.safe_read -> controller.shell.inbox",
        "controller.storage.safe_read -> controller.shell.inbox",
    ]


def test_no_module_imports_itself_round_a_circle():
    assert cycle(graph()) is None


def test_the_circle_finder_finds_a_circle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_the_floors_name_units_by_their_paths():
    for units in floors():
        for unit in units:
            assert re.fullmatch(r"[a-z_]+(/[a-z_]+)*/?", unit), unit
