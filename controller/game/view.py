"""What the table shows for a state: each seat's light pattern and the LCD's two lines.

`render` is a pure function of the state, so the daemon simply makes the hardware match it
and a replayed game shows exactly what the original showed. Light patterns are the values of
hardware.outputs.Pattern ("off", "on", "dim", "pulse", "blink", "blink_fast", "flash").
"""

from __future__ import annotations

from dataclasses import dataclass

from ..settings import Settings
from .engine import WARN_SECONDS
from .state import Phase, Table

MODE_NAMES = {"flash": "Flash", "extreme": "Extreme", "table": "Table"}


@dataclass(frozen=True)
class View:
    lights: tuple[str, ...]  # seat 1 first
    lines: tuple[str, str]


def render(table: Table) -> View:
    return View(_lights(table), _lines(table))


def _lights(table: Table) -> tuple[str, ...]:
    lights = []
    for seat in range(1, table.stations + 1):
        seated = seat in table.seated
        if table.phase is Phase.SEATING:
            lights.append("on" if seated else "off")
        elif table.phase is Phase.PAUSED:
            lights.append("dim" if seated else "off")
        elif table.phase is Phase.NOTICE and table.notice is not None:
            lights.append("flash" if seat == table.notice.seat else ("dim" if seated else "off"))
        elif table.turn is not None and seat == table.turn.seat:
            warn = table.turn.shown is not None and table.turn.shown <= WARN_SECONDS
            lights.append("blink_fast" if warn else "pulse")
        else:
            lights.append("dim" if seated else "off")
    return tuple(lights)


def _lines(table: Table) -> tuple[str, str]:
    if table.message is not None:
        return table.message.lines
    if table.phase is Phase.SEATING:
        seats = "".join(str(s) for s in sorted(table.seated))
        return ("Press to join", f"Seats {seats}" if seats else "No seats yet")
    if table.phase is Phase.NOTICE and table.notice is not None:
        return table.notice.lines
    turn = table.turn
    assert turn is not None
    if table.phase is Phase.PAUSED:
        left = "" if turn.shown is None else f"{turn.shown}s left"
        return ("Paused", f"Seat {turn.seat} {left:>9}")
    seconds = "" if turn.shown is None else f"{turn.shown}s"
    return (header(table.settings), f"Seat {turn.seat} turn {seconds:>4}")


def header(settings: Settings) -> str:
    """The first line in play: the mode and the timer setting."""
    timer = settings.turn_timer
    timer_text = "no timer" if timer == "off" else f"timer {timer}s"
    return f"{MODE_NAMES[str(settings.mode)]:<8}{timer_text:>8}"
