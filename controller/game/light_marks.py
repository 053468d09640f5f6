"""How each light pattern reads without colour: the marks around the seat number and what
the pattern means. The terminal view and the web page both draw the lights with these."""

from __future__ import annotations

from collections.abc import Mapping

from ..catalogs import N_

# pattern: (left mark, right mark, meaning for the legend)
# The meanings in English, marked for the catalogs: the view shows them translated.
LIGHT_MARKS: Mapping[str, tuple[str, str, str]] = {
    "off": (" ", " ", N_("off: free seat")),
    "on": ("(", ")", N_("steady: seated, or out")),
    "dim": ("·", "·", N_("dim: waiting, paused")),
    "pulse": ("<", ">", N_("pulsing: their turn")),
    "blink": ("*", "*", N_("blinking: press on")),
    "blink_fast": ("!", "!", N_("fast blink: last 2 s")),
    "flash": ("#", "#", N_("flashing: timeout")),
}


def seat_label(seat: int, pattern: str) -> str:
    """The seat number between the marks of its light's pattern, e.g. "<3>"."""
    left, right, _ = LIGHT_MARKS.get(pattern, ("?", "?", ""))
    return f"{left}{seat}{right}"
