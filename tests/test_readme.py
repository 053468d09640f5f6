"""The README's SimTable example runs and prints what its comments say."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_readme_example_prints_what_it_promises():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.findall(r"```python\n(.*?)```", readme, re.S)[0]
    promised = re.findall(r"print\(table\.lcd\)\s+# (.*)", code)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[: len(promised)] == promised
    assert out[-1] == "2"
