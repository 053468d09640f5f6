"""The README's two commands: `./dev test --help` answers before it sets anything up."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_dev_test_help_answers_at_once_and_sets_nothing_up(tmp_path):
    shutil.copy(ROOT / "dev", tmp_path / "dev")  # alone: no project to install, no Python needed
    for asked in (["--help"], ["-k", "slap", "-h"]):
        done = subprocess.run(
            ["bash", str(tmp_path / "dev"), "test", *asked],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and done.stderr == ""
        assert done.stdout.startswith("usage: ./dev test [pytest options and paths]")
    assert [p.name for p in tmp_path.iterdir()] == ["dev"]
