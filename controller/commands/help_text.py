"""The flashtable command's parsers and how their help is laid out."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any


class HelpFormatter(argparse.HelpFormatter):
    """Prose is wrapped to the terminal, never inside a word: a path such as
    docs/sim-script.md or an option such as --state-dir stays whole. A paragraph of indented
    lines (the how-to-play table) keeps its columns."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = text.split("\n\n")
        return "\n\n".join(
            p if "\n  " in p else "\n".join(_wrap(p, width, indent)) for p in paragraphs
        )

    def _split_lines(self, text: str, width: int) -> list[str]:
        return _wrap(text, width, "")


def _wrap(text: str, width: int, indent: str) -> list[str]:
    return textwrap.wrap(
        " ".join(text.split()),
        width,
        initial_indent=indent,
        subsequent_indent=indent,
        break_on_hyphens=False,
    )


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help, and its commands' help, is laid out by HelpFormatter."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
