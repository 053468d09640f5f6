"""The view as plain text, exactly as laid out on screen: for tests, docs and bug reports."""

from __future__ import annotations

import io
from typing import TypeVar

from rich.console import Console
from textual.app import App

_R = TypeVar("_R")


def screen_text(app: App[_R]) -> str:
    """Every cell of the running app's current screen, without colour, one line per row."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        force_terminal=True,
        color_system=None,
        legacy_windows=False,
    )
    # Textual's own screenshot export renders the compositor's full update the same way;
    # recording it as text instead of SVG keeps every character where the terminal has it.
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)
