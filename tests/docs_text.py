"""What the docs show, read as the tests that follow them need it: fenced code blocks."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).parents[1]


def code_blocks(text: str) -> list[str]:
    """The fenced code blocks of a Markdown text, with their language left out."""
    blocks, inside = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if inside is None:
                inside = []
            else:
                blocks.append("".join(inside))
                inside = None
        elif inside is not None:
            inside.append(line)
    return blocks


def block_after(doc: str, words: str) -> str:
    """The first code block of `doc` (a path from the repository's root) after `words`."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    at = text.index(words)
    return code_blocks(text[at:])[0]
