"""The rules: `step(table, event, now, rng) -> (table, effects)` and `next_wakeup(table)`.

`now` is when the daemon handles the event; an input event's own `time` is its pin edge.
Before an input counts, the table is brought up to its edge time, so a press is judged by
when it happened (a timer that ran out first, a hold that completed first), never by when
the software got round to it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..settings import Settings
from . import holds, landing, launch, places, rest, rounds, slap, standings, summary, turns
from .effects import Announce, Effect, Sound
from .events import (
    CardOut,
    Command,
    Configure,
    Event,
    ExactDraw,
    HandPoints,
    LauncherStopped,
    Press,
    Release,
    SeatName,
    Stuck,
)
from .frozen import replace
from .rounds import MESSAGE_TIME
from .score import enter as enter_points
from .seat_names import button_name, rename
from .state import ROUND_PHASES, Message, Phase, Table
from .text import COLUMNS, lcd_words
from .turns import WARN_SECONDS
from .view import MODE_NAMES

__all__ = [
    "MESSAGE_TIME",
    "STUCK_AFTER",
    "WARN_SECONDS",
    "new_table",
    "next_wakeup",
    "seat_of",
    "step",
]

STUCK_AFTER = 8.0  # a seat button held this long while seating is stuck, not a player
WAITS = "waits"  # Message.kind: a mode or a finish chosen during a round, for the next one
PLAY_INPUTS = frozenset({"play_pause", "encoder.push"})  # the encoder push is Play/Pause too

Result = tuple[Table, list[Effect]]


def new_table(settings: Settings, stations: int, *, has_launcher: bool = False) -> Table:
    return Table(settings=settings, stations=stations, has_launcher=has_launcher)


def seat_of(name: str) -> int | None:
    """3 for "seat3", None for any other input."""
    if name.startswith("seat") and name[4:].isdigit():
        return int(name[4:])
    return None


def step(table: Table, event: Event, now: float, rng: random.Random) -> Result:
    """The table after `event`, and what the daemon must do about it."""
    effects: list[Effect] = []
    if table.last_input is None:
        table = replace(table, last_input=event.time)  # idle time counts from the first event
    table = _on_time(table, min(event.time, now), rng, effects)
    if isinstance(event, Configure | ExactDraw) and event.by_hand:
        table = replace(table, last_input=max(event.time, table.last_input or event.time))
    if isinstance(event, Configure):
        changes = {k: v for k, v in event.settings.items() if table.settings[k] != v}
        if changes:
            effects.append(Announce("settings_changed", {"changes": changes}))
        table = replace(table, settings=event.settings)
        if ("mode" in changes or "finish" in changes) and not table.menu_open:
            table = _waits(table, event.time)
    elif isinstance(event, Command):
        table = _command(table, event, rng, effects)
    elif isinstance(event, SeatName):
        table = rename(table, event.seat, event.name, event.time, effects)
    elif isinstance(event, HandPoints):
        table = enter_points(table, event.seat, event.points, event.time, effects)
    elif isinstance(event, Stuck):
        table = _mark_stuck(table, event.input, now, effects)
    elif isinstance(event, Release):
        table = _release(table, event, effects)
    elif isinstance(event, Press):
        table = _press(table, event, rng, effects)
    elif isinstance(event, CardOut):
        table = launch.card_out(table, effects)
    elif isinstance(event, LauncherStopped):
        table = launch.stopped(table, event.reason, event.time, effects)
    elif isinstance(event, ExactDraw):
        table = launch.owe(table, None, event.cards, event.reason, effects)
    # A card out, a resume, an OK: whatever the event, a burst may have landed by now, or a
    # player going out let go.
    at = min(event.time, now)
    table = holds.settle(landing.check(table, at, rng, effects), at)
    table = _on_time(table, now, rng, effects)
    return table, effects


def next_wakeup(table: Table) -> float | None:
    """The next moment the engine needs a Tick at, or None while nothing is timed."""
    first = _first_due(table)
    return None if first is None else first[0]


# -- time --------------------------------------------------------------------------------

# A timed rule: when it is next due (None: not now), and what happens then. `fire` gets the
# moment it was due and the `now` being caught up to, which may be later.
Due = Callable[[Table], float | None]
Fire = Callable[[Table, float, float, random.Random, list[Effect]], Table]


def _first_due(table: Table) -> tuple[float, Fire] | None:
    """The timed rule due first, and when; of two due at the same moment, the one TIMED
    lists first. Called for every step and every wakeup: plain loops, no lists."""
    first: tuple[float, Fire] | None = None
    for due, fire in TIMED:
        when = due(table)
        if when is not None and (first is None or when < first[0]):
            first = (when, fire)
    return first


def _on_time(table: Table, now: float, rng: random.Random, effects: list[Effect]) -> Table:
    """Everything that `now` has made due, earliest first (each may make more due)."""
    while (first := _first_due(table)) is not None and first[0] <= now:
        when, fire = first
        table = fire(table, when, now, rng, effects)
    return table


def _message_due(table: Table) -> float | None:
    return None if table.message is None else table.message.until


def _message_fire(
    table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]
) -> Table:
    return replace(table, message=None)


def _stuck_due(table: Table) -> float | None:
    if table.phase is not Phase.SEATING:
        return None
    moments = [since + STUCK_AFTER for name, since in table.held.items() if seat_of(name)]
    return min(moments) if moments else None


def _stuck_fire(
    table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]
) -> Table:
    name = min(
        (n for n, since in table.held.items() if seat_of(n) and since + STUCK_AFTER <= when),
        key=lambda n: (table.held[n], n),
    )
    return _mark_stuck(table, name, when, effects)


def _notice_due(table: Table) -> float | None:
    notice = table.notice
    if table.phase is not Phase.NOTICE or notice is None:
        return None
    return notice.started + notice.page_time * (notice.page + 1)


def _notice_fire(
    table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]
) -> Table:
    notice = table.notice
    assert notice is not None
    if now >= notice.until:
        table = turns.next_turn(table, notice.until, rng, effects)
        return rest.hold_for_menu(table, notice.until, effects)
    page = min(int((now - notice.started) // notice.page_time), len(notice.pages) - 1)
    return replace(table, notice=replace(notice, page=max(page, notice.page + 1)))


def _chime_fire(
    table: Table, when: float, now: float, rng: random.Random, effects: list[Effect]
) -> Table:
    table = launch.chime_fire(table, when, now, rng, effects)
    return landing.check(table, when, rng, effects)


TIMED: tuple[tuple[Due, Fire], ...] = (
    (launch.hold_due, launch.hold_fire),
    (_message_due, _message_fire),
    (_stuck_due, _stuck_fire),
    (holds.due, holds.fire),
    (slap.due, slap.fire),
    (_notice_due, _notice_fire),
    (turns.countdown_due, turns.countdown_fire),
    (turns.banner_due, turns.banner_fire),
    (summary.due, summary.fire),
    (launch.chime_due, _chime_fire),
    (standings.idle_due, standings.idle_fire),
    (rest.sleep_due, rest.fall_asleep),
)


# -- inputs ------------------------------------------------------------------------------


def _press(table: Table, event: Press, rng: random.Random, effects: list[Effect]) -> Table:
    name, at = event.input, event.time
    seat = seat_of(name)
    if name in table.stuck or (seat is not None and seat > table.stations):
        return table
    table = replace(
        table,
        held={**table.held, name: at},
        last_input=max(at, table.last_input or at),
    )
    if table.asleep:
        return rest.wake(table, at, effects)
    if table.launcher.fault is not None and seat is None:
        # The launcher waits for OK; the players' own buttons still race and hold.
        return launch.ok(table, at, effects) if name == "encoder.push" else table
    phase, seated = table.phase, seat in table.seated
    # In a round only the players still in play: a player out with a place has finished.
    playing = seat in table.in_play
    if name == "launcher":
        if launch.answers(table):
            return landing.hold(launch.hit(table, at, rng, effects), at)
        return launch.refuse(table, at, effects)
    if name in PLAY_INPUTS:
        return rounds.play(table, at, rng, effects)
    if name == "slap" and phase is not Phase.TURN:
        return slap.refuse(table, at, effects)
    if phase is Phase.SEATING:
        if seat is not None:
            return _toggle_seat(standings.idle_from(table, at), seat, effects)
    elif phase is Phase.TURN and table.turn is not None:
        if name == "slap":
            return slap.start(table, at, effects)
        if playing and seat is not None:
            was_lit = seat == table.turn.seat
            if was_lit:
                table = turns.end(table, at, rng, effects)
            return holds.begin(table, seat, at, was_lit=was_lit)
    elif phase is Phase.SLAP and seat is not None:
        return slap.press(table, seat, at, effects)
    elif phase in (Phase.NOTICE, Phase.EXTREME) and playing and seat is not None:
        return holds.begin(table, seat, at, was_lit=False)
    elif phase is Phase.ROUND_OVER and seated and seat is not None:
        return summary.show_seat(table, seat, at)
    return table


def _command(table: Table, event: Command, rng: random.Random, effects: list[Effect]) -> Table:
    at = event.time
    # The menu closing is not someone at the table (it closes by itself when left alone): it
    # neither wakes nor keeps awake. It opens at a turn of the encoder: someone is there.
    if event.name == "menu_closed":
        return _waits(rest.menu_closed(table, at, effects), at)
    table = replace(table, last_input=max(at, table.last_input or at))
    if event.name == "menu_opened":
        return rest.menu_opened(table, at, effects)
    if event.name in rounds.INTENTS:
        return rounds.intend(table, event.name, at, rng, effects)
    if table.asleep:
        return rest.wake(table, at, effects)
    if event.name == "new_round" and table.phase in ROUND_PHASES:
        # A round still going ends first, with its summary: its statistics are not lost.
        return summary.round_over(table, None, at, effects)
    if event.name == "new_round" and table.phase is Phase.ROUND_OVER:
        return rounds.start(table, at, rng, effects)
    if event.name == "bring_back" and event.seat is not None:
        return places.bring_back(table, event.seat, at, effects)
    if event.name == "reset_standings":
        return standings.reset(table, "menu", at, effects)
    if event.name == "seating":
        effects.append(Announce("seating", {"seats": sorted(table.seated)}))
        table = replace(table, summary=None, places=(), idle_page=0, idle_since=at)
        return summary.out_of_play(table, Phase.SEATING)
    return table


def _release(table: Table, event: Release, effects: list[Effect]) -> Table:
    held = {k: v for k, v in table.held.items() if k != event.input}
    table = replace(table, held=held)
    if not table.asleep and event.input not in table.stuck:
        table = replace(table, last_input=max(event.time, table.last_input or event.time))
    seat = seat_of(event.input)
    if seat is not None:
        table = holds.end(table, seat)
    if event.input in table.stuck:
        effects.append(Announce("button_freed", {"input": event.input}))
        table = replace(table, stuck=table.stuck - {event.input})
    return table


def _mark_stuck(table: Table, name: str, now: float, effects: list[Effect]) -> Table:
    effects += [Sound("refuse"), Announce("button_stuck", {"input": name})]
    seat, t = seat_of(name), lcd_words(table.settings)
    label = button_name(t, name, seat)
    first = t.gettext("{input} button").format(input=label)
    first = first if len(first) <= COLUMNS else label
    # Only while seating does a stuck button cost the seat; in play it is just ignored.
    unseat = seat is not None and table.phase is Phase.SEATING
    return replace(
        table,
        stuck=table.stuck | {name},
        seated=table.seated - {seat} if unseat else table.seated,
        held={k: v for k, v in table.held.items() if k != name},
        holds={s: h for s, h in table.holds.items() if s != seat},
        message=Message((first, t.gettext("stuck: check it")), now + MESSAGE_TIME),
    )


# -- seating -----------------------------------------------------------------------------


def _toggle_seat(table: Table, seat: int, effects: list[Effect]) -> Table:
    if seat in table.seated:
        effects += [Sound("leave"), Announce("seat_released", {"seat": seat})]
        return replace(table, seated=table.seated - {seat})
    effects += [Sound("join"), Announce("seat_claimed", {"seat": seat})]
    return replace(table, seated=table.seated | {seat})


def _waits(table: Table, at: float) -> Table:
    """A mode or a finish chosen during a round is for the next one: say so, once the menu is
    closed; a change taken back says nothing more."""
    said = table.message is not None and table.message.kind == WAITS
    t = lcd_words(table.settings)
    if table.mode_waits:
        mode = t.gettext(MODE_NAMES[str(table.settings.mode)])
        lines = (t.gettext("{mode} from").format(mode=mode), t.gettext("next round"))
    elif table.finish_waits:
        finish = t.gettext(str(table.settings.finish))
        lines = (t.gettext("Finish: {finish}").format(finish=finish), t.gettext("from next round"))
    else:
        return replace(table, message=None) if said else table
    return replace(table, message=Message(lines, at + MESSAGE_TIME, WAITS))
