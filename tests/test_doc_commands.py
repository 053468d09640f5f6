"""Every `flashtable` command line the docs show works as typed in a clone after the README's
two commands: `./dev flashtable ...` runs it, each names a command and options the program
has, and the ones that finish by themselves (a headless script, the help) run to the end."""

import argparse
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from controller.commands.cli import build_parser
from tests.docs_text import code_blocks

ROOT = Path(__file__).parents[1]
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "firmware" / "README.md",
    ROOT / "docs" / "examples" / "full-round.txt",
]
# A command line in a code block or a script's comment: "flashtable ...", "$ flashtable ...",
# "sudo flashtable ..." (the service's own files are root's).
COMMAND = re.compile(r"^[ \t#]*(?:\$ )?(?:sudo )?(flashtable [^#\n]*?)\s*(?:#.*)?$", re.M)


def shown_commands() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for block in [text] if doc.suffix == ".txt" else code_blocks(text):
            found += [(doc.name, line) for line in COMMAND.findall(block)]
    return found


COMMANDS = shown_commands()


def test_the_docs_show_commands():
    assert len(COMMANDS) >= 10
    assert (
        "sim-script.md",
        "flashtable sim --headless --script docs/examples/full-round.txt --seed 1",
    ) in COMMANDS


@pytest.mark.parametrize(("doc", "line"), COMMANDS, ids=[line for _, line in COMMANDS])
def test_each_command_the_docs_show_is_one_the_program_has(doc, line):
    parser = build_parser()
    words = shlex.split(line)[1:]
    try:
        parser.parse_args(words)
    except SystemExit as stop:
        # --help and --version end the parse with 0; anything else is a usage error.
        assert stop.code == 0, f"{doc}: {line}"
    except argparse.ArgumentError as err:
        pytest.fail(f"{doc}: {line}: {err}")


def test_a_command_runs_in_a_clone_as_dev_flashtable():
    done = subprocess.run(
        ["./dev", "flashtable", "--version"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("flashtable ")


@pytest.mark.parametrize(
    "line", [line for _, line in COMMANDS if "--headless" in line], ids=lambda line: line
)
def test_a_headless_script_the_docs_show_plays_to_its_end(line):
    done = subprocess.run(
        ["./dev", *shlex.split(line)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert "round_over" in done.stdout
