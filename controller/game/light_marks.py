"""How each light pattern reads without colour: the marks around the seat number and what
the pattern means. The terminal view and the web page both draw the lights with these."""

from __future__ import annotations

from collections.abc import Mapping

# pattern: (left mark, right mark, meaning for the legend)
LIGHT_MARKS: Mapping[str, tuple[str, str, str]] = {
    "off": (" ", " ", "off: free seat"),
    "on": ("(", ")", "steady: seated, or out"),
    "dim": ("·", "·", "dim: waiting, paused"),
    "pulse": ("<", ">", "pulsing: their turn"),
    "blink": ("*", "*", "blinking: press on"),
    "blink_fast": ("!", "!", "fast blink: last 2 s"),
    "flash": ("#", "#", "flashing: timeout"),
}


def seat_label(seat: int, pattern: str) -> str:
    """The seat number between the marks of its light's pattern, e.g. "<3>"."""
    left, right, _ = LIGHT_MARKS.get(pattern, ("?", "?", ""))
    return f"{left}{seat}{right}"
