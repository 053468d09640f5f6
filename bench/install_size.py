"""What a Pi install costs on disk: this checkout installed as the Pi installs it.

Makes a fresh virtual environment, installs the checkout with `pip install '.[pi]'` (the
Pi's GPIO backends install only on ARM Linux), and prints the size of each distribution it
brought and their total; then the same with the simulated table's view (`[pi,sim]`), which a
Pi does not need. Sizes are those of the files each package's RECORD lists, bytecode included.
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


def installed(extras: str, folder: Path) -> dict[str, int]:
    venv = folder / extras.replace(",", "-")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    # Run apart from the checkout, whose own metadata would count as installed.
    bare = json.loads(
        subprocess.run([python, "-c", SIZES], capture_output=True, check=True, cwd=folder).stdout
    )
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", f"{ROOT}[{extras}]"],
        check=True,
    )
    after = json.loads(
        subprocess.run([python, "-c", SIZES], capture_output=True, check=True, cwd=folder).stdout
    )
    return {name: size for name, size in after.items() if name not in bare}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for extras in ("pi", "pi,sim"):
            sizes = installed(extras, Path(folder))
            print(f"pip install '.[{extras}]' on Python {sys.version.split()[0]}:")
            for name, size in sorted(sizes.items(), key=lambda item: -item[1]):
                print(f"  {name:<24} {size / 1e6:6.2f} MB")
            print(f"  {'total':<24} {sum(sizes.values()) / 1e6:6.2f} MB in {len(sizes)} packages")


if __name__ == "__main__":
    main()
