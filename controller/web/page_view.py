"""What the page shows beyond the MQTT `state`: each light as it is now, read without colour
(the terminal view's marks), the LCD's two lines as the glass shows them, and the turn's
time for the page's bar. Built from the daemon's published view and table."""

from __future__ import annotations

from ..game import Phase, Table
from ..game.lcd_glyphs import readable
from ..game.light_marks import LIGHT_MARKS, seat_label
from ..game.text import COLUMNS
from ..game.turns import warning
from ..shell.publish import Shown


def board_payload(shown: Shown) -> dict[str, object]:
    """The lights, seat 1 first, the LCD, as they show now, and the launcher's link."""
    view = shown.view
    return {
        "lights": [
            {
                "seat": seat,
                "pattern": pattern,
                "label": seat_label(seat, pattern),
                "meaning": LIGHT_MARKS.get(pattern, ("", "", pattern))[2],
            }
            for seat, pattern in enumerate(view.lights, start=1)
        ],
        "lcd": [readable(line.ljust(COLUMNS)) for line in view.lines],  # as on the glass
        "backlight": view.backlight,
        "launcher_link": shown.launcher_link,
    }


def timer_key(table: Table) -> tuple[object, ...]:
    """What the timer payload depends on, but for the passing time: a new one is sent when
    this changes (at least once a second while a timer counts, with the LCD's seconds)."""
    turn = table.turn
    if turn is None or table.phase not in (Phase.TURN, Phase.PAUSED):
        return (None,)
    return (
        table.phase,
        turn.seat,
        turn.started,
        turn.deadline,
        turn.shown,
        turn.hidden,
        table.paused_left,
    )


def timer_payload(table: Table, now: float) -> dict[str, object] | None:
    """The turn's limit and the seconds left at `now`, for a bar the page runs down itself;
    None outside a timed turn. A surprise limit stays hidden, as on the LCD, until its last
    seconds."""
    turn = table.turn
    if turn is None or turn.deadline is None or table.phase not in (Phase.TURN, Phase.PAUSED):
        return None
    limit = turn.deadline - turn.started
    if table.phase is Phase.PAUSED:
        left = table.paused_left if table.paused_left is not None else limit
    else:
        left = turn.deadline - now
    shown = not turn.hidden or warning(turn)
    return {
        "seat": turn.seat,
        "limit": round(limit, 3) if shown else None,
        "left": round(max(left, 0.0), 3) if shown else None,
        "running": table.phase is Phase.TURN,
        "warning": warning(turn),
    }
