"""The operator's panel: the LCD menu on the rotary encoder, as the daemon runs it.

A turn of the encoder opens the menu; while it is open the encoder belongs to it (push to
select, hold 1 s to go back) and the LCD shows it, and no turn runs (the engine pauses it).
It closes by going back from the top, by choosing Start/Pause/Resume, or after IDLE_CLOSE
seconds untouched. A push with the menu closed is Play/Pause, for the game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from hardware.clock import Clock, Timer
from hardware.debounce import Change

from .. import __version__
from ..catalogs import Words
from ..game import Phase, Table, places, score, standings
from ..game.seat_names import lcd_name
from ..game.text import lcd_words
from ..menu import (
    Action,
    Back,
    Close,
    Context,
    Hand,
    HardwareTest,
    Menu,
    Push,
    Turn,
    render,
    step,
)
from ..menu.navigator import PAGE_TIME, next_page
from ..requests import DealCards, GameCommand, Request
from .netinfo import ip_addresses

log = logging.getLogger(__name__)

HOLD_BACK = 1.0
IDLE_CLOSE = 30.0


MENU_PHASES = {
    Phase.SEATING: "seating",
    Phase.TURN: "play",
    # A race or a penalty screen runs its course: nothing to pause until the next turn.
    Phase.SLAP: "busy",
    Phase.NOTICE: "busy",
    Phase.PAUSED: "paused",
    Phase.ROUND_OVER: "over",
    Phase.EXTREME: "extreme",
}


class Host(Protocol):
    """What the panel sees of the running table, and what it may ask of it."""

    @property
    def table(self) -> Table: ...

    @property
    def mqtt_status(self) -> str: ...

    def beam_clear(self) -> bool | None: ...

    def handle(self, request: Request, *, by_hand: bool = False) -> object:
        """Carry out `request`; `by_hand`: asked at the table, so someone is there."""

    def menu_shown(self, shown: bool) -> None:
        """The LCD menu opened or closed: no turn runs while it is open. It opens at a turn
        of the encoder, so someone is there."""

    def play_tune(self, name: str) -> None: ...

    def refresh(self) -> None: ...


class Panel:
    """Menu state, its timers, what it asks of the table, and the hardware tests' state.
    Loop thread only.

    Each input at the panel (a detent, an edge of the push, a button in the button test)
    steps the engine once: with what the menu asks for, as asked at the table (it keeps the
    table awake), or, when the menu asks for nothing, with "wake" (someone is there)."""

    def __init__(self, host: Host, clock: Clock) -> None:
        self._host = host
        self._clock = clock
        self.menu: Menu | None = None
        self.last_button: str | None = None  # the button test's readout
        self.light_test: int | None = None  # the seat the lights test has on
        self._hold: Timer | None = None
        self._pushed_at = 0.0  # the edge time of the push being held
        self._idle: Timer | None = None
        self._page: Timer | None = None  # the next page of what a chosen value does
        self._asked = False  # whether this input has asked the table for something

    @property
    def is_open(self) -> bool:
        return self.menu is not None

    @property
    def testing(self) -> str | None:
        return None if self.menu is None else self.menu.test

    def lines(self) -> tuple[str, str] | None:
        return None if self.menu is None else render(self.menu, self._context())

    # -- the encoder -------------------------------------------------------------------

    def turn(self, steps: int) -> None:
        if self.menu is None:
            self.menu = Menu()
            log.info("menu opened")
            self._asked = True  # opening the menu keeps the table awake
            self._host.menu_shown(True)
            self._touched()
            return
        self._step(Turn(steps))

    def claims(self, name: str, change: Change) -> bool:
        """Whether a switch's change belongs to the panel rather than to the game, which
        then handles it: the encoder's push while the menu is open, any button during the
        button test."""
        if name == "encoder.push" and self.is_open:
            if change.active:
                self._by_hand(lambda: self.push_down(change.time))
            else:
                self._by_hand(lambda: self.push_up(change.time))
            return True
        if self.testing == "buttons":
            if change.active:
                self._by_hand(lambda: self.button(name))
            return True
        return False

    def encoder_turned(self, steps: int) -> None:
        table = self._host.table
        if table.asleep:
            self._by_hand(lambda: None)  # a turn that wakes the table only wakes it
        elif table.launcher.fault is None:
            self._by_hand(lambda: self.turn(steps))

    def _by_hand(self, work: Callable[[], object]) -> None:
        """One input at the panel: its one step of the engine (see the class)."""
        self._asked = False
        work()
        if not self._asked:
            # Someone at the menu is someone at the table: the sleep timer starts over.
            self._ask(GameCommand("wake"))

    def push_down(self, time: float) -> None:
        self._cancel_hold()
        self._pushed_at = time
        self._hold = self._clock.call_at(time + HOLD_BACK, self._held)

    def push_up(self, time: float) -> None:
        if self._hold is None:
            return  # the hold already went back
        self._cancel_hold()
        # The edge times decide: a loop running late may hand over the release of a hold
        # before the hold's own timer has fired, and that is still a hold, not a push.
        self._step(Back() if time - self._pushed_at >= HOLD_BACK else Push())

    def _held(self) -> None:
        self._hold = None
        self._step(Back())

    def button(self, name: str) -> None:
        """A table button during the button test (`claims` hands it here): shown, not
        played."""
        self.last_button = name
        self._touched()

    def close(self) -> None:
        # Closed first: ending a test redraws the table, which must not find the menu open.
        menu, self.menu = self.menu, None
        self._cancel_hold()
        self._cancel_timers()
        if menu is not None and menu.test is not None:
            self._carry_out(HardwareTest(menu.test, False))
        if self._host.table.menu_open:
            self._host.menu_shown(False)  # what it paused goes on
        self._changed()

    def shut(self) -> None:
        """Gone for good (the daemon stops): timers end; nothing is asked of the table."""
        self.menu = None
        self._cancel_hold()
        self._cancel_timers()

    # -- what the menu sees of the table, and what it asks of it -------------------------

    def _context(self) -> Context:
        table = self._host.table
        launcher = table.launcher
        return Context(
            settings=table.settings,
            phase=MENU_PHASES[table.phase],
            stations=table.stations,
            has_launcher=table.has_launcher,
            seated=len(table.seated),
            out=places.out_now(table),
            standings=standings.pages(table),
            hands=tuple(Hand(s, lcd_name(table, s), p) for s, p in score.hands(table)),
            info=lambda: info_lines(
                lcd_words(table.settings),
                mqtt=self._host.mqtt_status,
                cards_out=launcher.cards_out,
                jams=launcher.jams,
            ),
            last_button=self.last_button,
            beam_clear=self._host.beam_clear(),
        )

    def _carry_out(self, action: Action) -> None:
        match action:
            case Close():
                self.close()
            case HardwareTest(name, value):
                self._hardware_test(name, value)
            case _:
                self._ask(action)

    def _ask(self, request: Request) -> None:
        self._asked = True
        try:
            self._host.handle(request, by_hand=True)
        except ValueError as err:  # the menu offers only allowed values; say so if not
            log.warning("menu request refused: %s", err)

    def _hardware_test(self, name: str, value: bool | int) -> None:
        if name == "lights":
            self.light_test = None if value is False else int(value)  # True: seat 1
        elif name == "buzzer":
            self._host.play_tune("start")
        elif name == "eject":
            self._ask(DealCards(1, "test"))
        self._changed()

    def _changed(self) -> None:
        self._host.refresh()

    # -- inside ------------------------------------------------------------------------

    def _step(self, event: Turn | Push | Back) -> None:
        if self.menu is None:
            return
        self.menu, actions = step(self.menu, event, self._context())
        for action in actions:
            self._carry_out(action)
        if self.menu is not None and self.menu.test == "buttons" and isinstance(event, Push):
            self.last_button = None
        self._touched()

    def _touched(self) -> None:
        self._cancel_timers()
        if self.menu is not None:
            now = self._clock.now()
            self._idle = self._clock.call_at(now + IDLE_CLOSE, self._idle_out)
            if self.menu.editing:
                self._page = self._clock.call_at(now + PAGE_TIME, self._next_page)
        self._changed()

    def _next_page(self) -> None:
        """What the value being chosen does, a page on: shown, not a touch of the menu."""
        # Every touch, and every way out of choosing a value, cancels this timer first.
        assert self.menu is not None and self.menu.editing
        self.menu = next_page(self.menu)
        self._page = self._clock.call_at(self._clock.now() + PAGE_TIME, self._next_page)
        self._changed()

    def _cancel_timers(self) -> None:
        for timer in (self._idle, self._page):
            if timer is not None:
                timer.cancel()
        self._idle = self._page = None

    def _idle_out(self) -> None:
        self._idle = None
        log.info("menu closed after %.0f s untouched", IDLE_CLOSE)
        self.close()

    def _cancel_hold(self) -> None:
        if self._hold is not None:
            self._hold.cancel()
            self._hold = None


def info_lines(
    t: Words,
    *,
    mqtt: str,
    cards_out: int,
    jams: int,
    ip: Callable[[], list[str]] = ip_addresses,
) -> tuple[tuple[str, str], ...]:
    """The Info screens: (label, value) pairs, in the language of `t`; `mqtt` is the link's
    state in English (as the log says it), shown translated."""
    addresses = ip() or [t.gettext("no network")]
    return (
        (t.gettext("Version"), __version__),
        *(
            (
                t.gettext("IP address") if n == 1 else t.gettext("IP address {n}").format(n=n),
                address,
            )
            for n, address in enumerate(addresses, start=1)
        ),
        ("MQTT", t.gettext(mqtt)),
        (t.gettext("Cards dispensed"), str(cards_out)),
        (t.gettext("Jams"), str(jams)),
    )
