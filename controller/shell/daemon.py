"""The daemon: the thin shell around the rules engine.

Pin edges and requests from outside the pins (`submit`) cross to the event loop through one
queue (`Inbox`). On the loop, debounced edges become presses and releases at their edge
times, the engine steps, and the shell carries out what it asks: what changes the world
first (the lights, sounds, dispenses and the cards owed through `LauncherLink`, the wakeup,
the snapshot, the LCD's text through `Renderer`), then it tells the listeners (`Publisher`),
each alone. A press's lights, or a wakeup's, are often known before the step (`Answers`):
then they come first. Every call meant for the loop's thread checks that it runs there.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

from .. import game
from ..catalogs import N_
from ..config import Config
from ..game import Announce, Command, Event, Sound
from ..game.effects import Dispense, ResumeLauncher
from ..requests import Request
from ..settings import Settings
from ..storage.snapshot import Snapshots
from ..storage.statefile import prepare
from . import queue_items
from .answers import Answers
from .control_socket import ControlSocket
from .game_log import GameLog
from .inbox import Call, Edge, EncoderTurn, Inbox, Item, Settle, Stop, Wake
from .launcher_link import LauncherLink
from .loop_thread import LoopThread
from .panel import Panel
from .publish import GameEvent, Publisher, Stepped
from .renderer import Renderer
from .requests_desk import carry_out
from .settings_keeper import HardwareSettings, SettingsKeeper
from .start_stop import first_steps, last_steps
from .switches import Switches
from .tunes import TUNES
from .wakeup import Wakeup
from .wiring import Wiring

log = logging.getLogger(__name__)

REAL_TIME_GRACE = 0.02  # a wakeup this late lets an earlier edge cross from its thread first


class Daemon:
    """Runs one table. Create it inside the running event loop; `run` until `stop`.

    The one builder of a table, for `flashtable run` and the simulation alike: the config's
    settings, the changed ones kept in `state_dir` (none without it), and its launcher;
    `notices` to show as it starts."""

    def __init__(
        self,
        config: Config,
        wiring: Wiring,
        *,
        rng: random.Random,
        state_dir: Path | None = None,
        grace: float = REAL_TIME_GRACE,
        notices: Sequence[tuple[str, str]] = (),
    ) -> None:
        self._inbox = Inbox()
        self._loop_thread = LoopThread()
        pinmap, clock, base = wiring.pinmap, wiring.clock, config.settings
        self.clock, self.rng = clock, rng
        from hardware.board import Board  # gpiozero loads with the board: start-up time

        self.board = Board(
            pinmap,
            pin_factory=wiring.pin_factory,
            clock=clock,
            display=wiring.display,
            # The pins' threads: what they tell only crosses to the loop.
            on_edge=lambda *edge: self._inbox.from_any_thread(Edge(*edge)),
            on_turn=lambda steps: self._inbox.from_any_thread(EncoderTurn(steps)),
        )
        prepared = [] if state_dir is None else prepare(state_dir)
        # Before the settings are read: a change the shell asks from now on reaches this table.
        self.door = None if state_dir is None else ControlSocket(state_dir)
        self.settings_keeper, settings, problems = SettingsKeeper.at_start(state_dir, base)
        notices = [*notices, *problems, *prepared]
        self.renderer = Renderer(self.board, clock, redraw=self.refresh)
        self.launcher = LauncherLink(
            self.board,
            clock=clock,
            inbox=self._inbox,
            state_dir=state_dir,
            launcher=config.launcher,
            on_notice=self.renderer.notice,
            on_link=self.renderer.launcher_link,
        )
        fresh = game.new_table(settings, pinmap.seats, has_launcher=self.launcher.wired)
        self.snapshots = Snapshots(
            state_dir,
            clock,
            on_notice=lambda lines: self._inbox.from_any_thread(
                Call(lambda: self.renderer.notice(lines))
            ),
        )
        self.table, resumed = self.snapshots.resume(fresh, rng, self.launcher.owed_at_start)
        # The new game a resumed one gives way to if its first step fails; until it has run.
        self.fresh = None if self.table is fresh else fresh
        self.game_log = GameLog(self.table, rng)
        self._hardware = HardwareSettings(self.board, self.launcher)
        self._hardware.follow(settings)
        if not self.launcher.wired and settings.mode != "flash":
            log.warning("no launcher is wired: penalties are shown on the LCD, not dispensed")
        self.publisher = Publisher()
        self.mqtt_status = N_("not set up")  # the Info screen's; the MQTT link tells it
        self._drawing_held = False  # while an item is handled: it draws once, at its end
        self._draw_due = False
        self.switches = Switches(
            self.board.inputs, clock, lambda *asked: self._inbox.on_loop(Settle(*asked)), grace
        )
        self.wakeup = Wakeup(clock, grace, lambda: self._inbox.on_loop(Wake()))
        self.answers = Answers(asyncio.get_running_loop(), self.board.inputs, rng)
        self.panel = Panel(self, clock)
        self._notices = [*notices, *resumed, *self.launcher.notices()]  # shown as `run` starts

    # -- the border: these run on any thread ---------------------------------------------
    def submit(self, request: Request) -> concurrent.futures.Future[object]:
        """Hand a request to the table from any thread, task or signal handler, in order with
        the pins' events; the future tells the outcome (docs/architecture.md)."""
        return self._inbox.ask(request)

    def stop(self) -> None:
        """Ask `run` to finish (safe from any thread and from signal handlers)."""
        self._inbox.from_any_thread(Stop())

    # -- the loop ------------------------------------------------------------------------
    async def run(self) -> None:
        """Handle events until `stop` is called, then leave the hardware dark and still."""
        try:
            if self.door is not None:
                await self.door.serve(self)
            first_steps(self, self.launcher.at_start(self.table.launcher), self._notices)
            await self._inbox.serve(self.handle_item)
        finally:
            with contextlib.suppress(asyncio.CancelledError):
                # Edges already handed over from the pin threads get onto the queue first.
                await self._inbox.landed()
            await last_steps(self)

    async def idle(self) -> None:
        """Wait until every event handed over so far has been handled (for simulations)."""
        await self._inbox.idle()

    def handle_item(self, item: Item) -> None:
        """One item off the queue (loop thread only; shell/queue_items.py); whatever it
        changes is drawn once, when it is done."""
        self._loop_thread.check("Daemon.handle_item")
        with self._one_drawing():
            queue_items.handle(self, item)

    def known_now(self) -> float:
        """The present, or the earliest edge not yet handled if earlier (`known_until`)."""
        return self._inbox.known_until(self.clock.now())

    @contextlib.contextmanager
    def _one_drawing(self) -> Iterator[None]:
        """Inside, `refresh` only notes that the LCD and lights are due to be drawn; they are
        drawn once on the way out."""
        if self._drawing_held:
            yield
            return
        self._drawing_held = True
        try:
            yield
        finally:
            self._drawing_held = False
            if self._draw_due:
                self.refresh()

    # -- requests: the menu's directly, the rest through `submit` --------------------------
    def handle(self, request: Request, *, by_hand: bool = False) -> Settings | Stepped | None:
        """Carry out a request now (loop thread only); see `submit` and shell/requests_desk.py.
        `by_hand`: asked at the table's own menu, so someone is there (the sleep timer starts
        over)."""
        self._loop_thread.check("Daemon.handle")
        return carry_out(self, request, by_hand=by_hand)

    def menu_shown(self, shown: bool) -> None:
        self.feed(Command("menu_opened" if shown else "menu_closed", self.clock.now()))

    def play_tune(self, name: str) -> None:
        self.board.buzzer.play(name, TUNES[name])

    def beam_clear(self) -> bool | None:
        return self.launcher.beam_clear()

    # -- the engine ----------------------------------------------------------------------
    def feed(self, event: Event) -> list[GameEvent]:
        """Step the engine with one event and carry out the result (loop thread only): what
        changes the world first (the lights, sounds, the motor, the cards owed, the wakeup,
        the snapshot, the LCD), then the listeners are told, each alone. The game events
        announced, in order."""
        self._loop_thread.check("Daemon.feed")
        now = max(event.time, self.known_now())
        testing = self.panel.light_test is not None  # the light test has the lights
        ahead = None if testing else self.answers.ahead(self.table, event, now)
        if ahead is not None:
            self.renderer.light_ahead(ahead)  # a press's lights, or a wakeup's, known already
        self.game_log.record(self.table, now, event, self.rng)
        self.table, effects = game.step(self.table, event, now, self.rng)
        # First: the lights are the table's answer to a press.
        self.answers.check_given(self.renderer.light(self.table, self.panel))
        announced: list[Announce] = []
        for effect in effects:
            if isinstance(effect, Sound):
                self.play_tune(effect.name)
            elif isinstance(effect, Announce):
                announced.append(effect)
            elif isinstance(effect, Dispense | ResumeLauncher):
                self.launcher.carry_out(effect)
        self._hardware.follow(self.table.settings)
        wakeup = game.next_wakeup(self.table)
        self.wakeup.at(wakeup)
        self.launcher.save_owed(self.table.launcher)
        self.snapshots.note(self.table)
        self.refresh()
        events = [self.publisher.announce(a.type, a.data) for a in announced]
        self.publisher.show_table(self.table)
        self.answers.prepare(self.table, now, wakeup)
        return events

    def refresh(self) -> None:
        """Make the lights and the LCD show what they should now (at the end of the item
        being handled, if one is)."""
        self._loop_thread.check("Daemon.refresh")
        if self._drawing_held:
            self._draw_due = True
            return
        self._draw_due = False
        if self.panel.is_open and (
            self.table.launcher.fault or self.table.asleep or not self.table.menu_open
        ):
            # The launcher waits for OK, the table sleeps, or Play/Pause closed the menu.
            self.panel.close()
        self.renderer.draw(self.table, self.panel)
        self.publisher.showing(self.renderer.shown, self.launcher.link_up)
