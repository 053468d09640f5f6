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


def test_the_quick_start_is_the_two_commands_and_a_few_lines():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme[readme.index("## Quick start\n") :]
    quick = quick[len("## Quick start\n") : quick.index("\n## ")]
    blocks = re.findall(r"```sh\n(.*?)```", quick, re.S)
    assert [line.split()[:2] for line in blocks[0].splitlines()] == [
        ["./dev", "sim"],
        ["./dev", "test"],
    ]
    prose = [line for line in re.sub(r"```.*?```", "", quick, flags=re.S).splitlines() if line]
    assert len(prose) <= 11  # the line before the commands, and at most ten after
    assert "docs/testing.md" in quick and (ROOT / "docs" / "testing.md").is_file()
