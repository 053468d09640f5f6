"""What a Pi install costs on disk: this checkout installed as the Pi installs it.

Makes a fresh virtual environment, installs the checkout with `pip install .` (its pins'
backend, gpiod, included), and prints the size of each distribution it brought and their
total; then the same with the simulated table's view (`[sim]`), which a Pi does not need.
Sizes are those of the files each package's RECORD lists, bytecode included.
The web page's share is counted apart: aiohttp and the packages only it brings.
Usage: python bench/install_size.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run by the environment's own Python: {distribution: bytes on disk} for every installed
# one, counting each file its RECORD lists, the compiled bytecode included.
SIZES = """
import json, os
from importlib.metadata import distributions
sizes = {}
for dist in distributions():
    paths = (dist.locate_file(f) for f in dist.files or [])
    sizes[dist.metadata["Name"]] = sum(os.path.getsize(p) for p in paths if os.path.isfile(p))
print(json.dumps(sizes))
"""
# Run the same way: {distribution: [the distributions it requires, extras left out]}.
REQUIRES = """
import json, re
from importlib.metadata import distributions
needs = {}
for dist in distributions():
    wanted = [r for r in dist.requires or [] if "extra ==" not in r]
    needs[dist.metadata["Name"].lower()] = [re.split(r"[^A-Za-z0-9._-]", r, 1)[0].lower()
                                            for r in wanted]
print(json.dumps(needs))
"""
WEB = "aiohttp"  # the web page's server


def brought_by(top: str, needs: dict[str, list[str]], others: list[str]) -> set[str]:
    """The distributions installed for `top` alone: what it needs, less what `others` need."""

    def closure(names: list[str]) -> set[str]:
        seen: set[str] = set()
        todo = [n.replace("_", "-") for n in names]
        while todo:
            name = todo.pop()
            if name not in seen and name in needs:
                seen.add(name)
                todo += [n.replace("_", "-") for n in needs[name]]
        return seen

    return closure([top]) - closure(others)


def installed(extras: str, folder: Path) -> tuple[dict[str, int], set[str]]:
    venv = folder / (extras.replace(",", "-") or "table")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    # Run apart from the checkout, whose own metadata would count as installed.
    bare = json.loads(
        subprocess.run([python, "-c", SIZES], capture_output=True, check=True, cwd=folder).stdout
    )
    subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            f"{ROOT}[{extras}]" if extras else str(ROOT),
        ],
        check=True,
    )
    after = json.loads(
        subprocess.run([python, "-c", SIZES], capture_output=True, check=True, cwd=folder).stdout
    )
    sizes = {name: size for name, size in after.items() if name not in bare}
    needs = json.loads(
        subprocess.run([python, "-c", REQUIRES], capture_output=True, check=True, cwd=folder).stdout
    )
    own = [n for n in needs.get("flashtable", []) if n != WEB]
    web = brought_by(WEB, {k.replace("_", "-"): v for k, v in needs.items()}, own)
    return sizes, web


def normal(name: str) -> str:
    return name.lower().replace("_", "-")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for extras in ("", "sim"):
            sizes, web = installed(extras, Path(folder))
            what = f"'.[{extras}]'" if extras else "."
            print(f"pip install {what} on Python {sys.version.split()[0]}:")
            for name, size in sorted(sizes.items(), key=lambda item: -item[1]):
                print(f"  {name:<24} {size / 1e6:6.2f} MB")
            print(f"  {'total':<24} {sum(sizes.values()) / 1e6:6.2f} MB in {len(sizes)} packages")
            served = {name: size for name, size in sizes.items() if normal(name) in web}
            print(
                f"  of which the web page    {sum(served.values()) / 1e6:6.2f} MB in "
                f"{len(served)} packages ({', '.join(sorted(served))})"
            )


if __name__ == "__main__":
    main()
