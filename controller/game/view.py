"""What the table shows for a state: each seat's light pattern, the LCD's two lines, and
whether the LCD's backlight is on.

`render` is a pure function of the state, so the daemon simply makes the hardware match it
and a replayed game shows exactly what the original showed. Light patterns are the values of
hardware.patterns.Pattern ("off", "on", "dim", "pulse", "blink", "blink_fast", "flash").
"""

from __future__ import annotations

from dataclasses import dataclass

from ..catalogs import N_, Words
from . import launch, standings, summary
from .seat_names import lcd_row
from .state import ROUND_PHASES, Lines, Phase, Table, Turn
from .text import COLUMNS, lcd_words, row, seat_numbers
from .turns import warning

# In English, marked for the catalogs: each is shown in the table's language (text.lcd_words).
MODE_NAMES = {"flash": N_("Flash"), "extreme": N_("Extreme"), "table": N_("Table")}
SLAP_LINES = (N_("SLAP!"), N_("Hit your button!"))
SLEEP_LINES = (N_("Sleeping"), N_("Press any button"))
IDLE_JOIN = N_("Press to join")
IDLE_HIT = N_("Press launcher")


@dataclass(frozen=True)
class View:
    lights: tuple[str, ...]  # seat 1 first
    lines: Lines
    backlight: bool = True


def render(table: Table) -> View:
    if table.asleep:
        t = lcd_words(table.settings)
        return View(lights(table), _each(t, SLEEP_LINES), backlight=False)
    return View(lights(table), _lines(table))


def _each(t: Words, lines: Lines) -> Lines:
    return (t.gettext(lines[0]), t.gettext(lines[1]))


def lights(table: Table) -> tuple[str, ...]:
    """`render`'s lights alone, seat 1 first, without the text for the LCD."""
    if table.asleep:
        return ("off",) * table.stations
    return tuple(_light(table, seat) for seat in range(1, table.stations + 1))


def _light(table: Table, seat: int) -> str:
    seated = seat in table.seated
    resting = "dim" if seated else "off"
    phase = table.phase
    if phase is Phase.SEATING:
        return "on" if seated else "off"
    if phase in ROUND_PHASES and seat in table.places:
        # Out with a place: a steady light that takes no more turns. In Extreme the players
        # still in are lit steadily, so there theirs is dim; a pause dims every light.
        return "dim" if phase in (Phase.PAUSED, Phase.EXTREME) else "on"
    if phase is Phase.TURN and table.turn is not None and seat == table.turn.seat:
        turn = table.turn
        if turn.waits_for == "out":
            return "dim"  # their turn waits for the player who may be going out
        if warning(turn) and not turn.waits_for:  # a timer that waits asks for no hurry
            return "blink_fast"
        # Blinking: press on (picked again, or their cards have landed).
        return "blink" if turn.again or turn.landed else "pulse"
    if phase is Phase.SLAP and table.race is not None and seat in table.race.racers:
        return "on" if seat in table.race.presses else "blink"
    if phase is Phase.NOTICE and table.notice is not None and seat in table.notice.flash:
        return "flash"
    if phase is Phase.ROUND_OVER and table.summary is not None:
        if seat == table.summary.winner:
            return "blink"
        if seat == summary.shown_seat(table):
            return "on"
    if phase is Phase.EXTREME and seated:
        return _chime_light(table) if table.launcher.chimes else "on"
    return resting


def _chime_light(table: Table) -> str:
    # Lights quicken with every miss on the ascending profile, as on the newest originals:
    # with the chime sounding now, which counts the misses before it, not what it will do.
    if table.settings.launcher_profile != "ascending":
        return "blink"
    misses = table.launcher.chimes[-1].misses
    return ("blink", "blink_fast", "flash", "flash")[min(misses, 3)]


def _lines(table: Table) -> Lines:
    if table.launcher.fault is not None:
        return launch.fault_lines(table)
    if table.message is not None:
        return table.message.lines
    phase = table.phase
    if phase is Phase.SEATING:
        return _idle_lines(table)
    if phase is Phase.NOTICE and table.notice is not None:
        return table.notice.lines
    t = lcd_words(table.settings)
    if phase is Phase.SLAP:
        return _each(t, SLAP_LINES)
    if phase is Phase.ROUND_OVER and table.summary is not None:
        pages = summary.pages(table)
        return pages[table.summary.page % len(pages)]
    if phase is Phase.EXTREME:
        return (_extreme_header(table), _launcher_line(table) or t.gettext(IDLE_HIT))
    turn = table.turn
    assert turn is not None
    if phase is Phase.PAUSED:
        left = "" if turn.shown is None else t.gettext("{time} left").format(time=_seconds(turn))
        return (t.gettext("Paused"), lcd_row(table, turn.seat, right=left))
    # A launcher burst: its timer waits while the cards fly, then asks for their button.
    if turn.waits_for:
        doing = t.gettext("wait")
    else:
        doing = t.gettext("press") if turn.landed else t.gettext("turn")
    return (turn.banner or header(table), lcd_row(table, turn.seat, doing, _seconds(turn)))


def _idle_lines(table: Table) -> Lines:
    """Before a round: what the table is set to play, and who has joined (SPEC §3); with
    standings for the evening, their pages in turn."""
    if table.idle_page and standings.paging(table):
        pages = standings.pages(table)
        return pages[(table.idle_page - 1) % len(pages)]
    # "Seats 1 3 5", never "Seats 135", which reads as a number (run together only when
    # spaced they would not fit: seven or eight seats).
    t = lcd_words(table.settings)
    seats_word = t.gettext("Seats")
    seats = seat_numbers(table.seated, COLUMNS - len(seats_word) - 1)
    joined = f"{seats_word} {seats}" if seats else ""
    if table.mode == "extreme" and launch.in_use(table):
        # No seating needed: the launcher answers from here (SPEC §2).
        hit = t.gettext(IDLE_HIT)
        return (_extreme_header(table), _launcher_line(table) or joined or hit)
    return (header(table), joined or t.gettext(IDLE_JOIN))


def _launcher_line(table: Table) -> str:
    """Extreme's second line: the last hit's result, or while a chime sounds, that a hit is
    on its way (never the previous hit's result just before the new one's)."""
    if table.launcher.chimes:
        return lcd_words(table.settings).gettext(launch.CHIMING)
    return table.launcher.result


def _extreme_header(table: Table) -> str:
    # Extreme has no timer: its launcher profile is what the players want to know.
    t = lcd_words(table.settings)
    profile = t.gettext(str(table.settings.launcher_profile))
    extreme = t.gettext(MODE_NAMES["extreme"])
    if len(extreme) + len(profile) < COLUMNS:
        return row(extreme, profile)
    return t.gettext("Ext. {profile}").format(profile=profile)


def _seconds(turn: Turn) -> str:
    if turn.shown is None:
        return ""
    # A surprise limit stays a surprise until the last seconds.
    return "?s" if turn.hidden and not warning(turn) else f"{turn.shown}s"


def header(table: Table) -> str:
    """The first line in play: the mode played and the timer setting."""
    t = lcd_words(table.settings)
    timer = table.settings.turn_timer
    if timer == "off":
        timer_text = t.gettext("no timer")
    elif timer == "surprise":
        timer_text = t.gettext("surprise")
    else:
        timer_text = t.gettext("timer {seconds}s").format(seconds=timer)
    return row(t.gettext(MODE_NAMES[table.mode]), timer_text)
