"""The daemon: the thin shell around the rules engine.

Pin edges and requests from outside the pins (`submit`) cross to the event loop through one
queue (`Inbox`). On the loop, debounced edges become presses and releases at their edge
times, the engine steps, and the shell carries out what it asks: the lights first, then
sounds, game events, dispenses (`LauncherLink`) and the LCD's text (`Renderer`). A press's
lights, or a wakeup's, are often known before the step (`Answers`): then they come first.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import random
from collections.abc import Sequence
from pathlib import Path

from hardware.clock import Clock
from hardware.debounce import Change
from hardware.display import TextDisplay
from hardware.ejector import Report
from hardware.pinmap import PinMap

from . import game
from .answers import Answers
from .config import LauncherConfig
from .game import Announce, Command, Configure, Event, Press, Release, Sound, Stuck, Tick
from .game.effects import Dispense, ResumeLauncher
from .game_log import GameLog
from .inbox import Asked, Call, Edge, EncoderTurn, Inbox, Settle, Stop, Wake
from .launcher_link import LauncherLink
from .panel import Panel
from .publish import Publisher
from .renderer import Renderer
from .requests import DealCards, GameCommand, Request
from .settings import Settings
from .settings_keeper import HardwareSettings, SettingsKeeper
from .settings_store import SettingsStore
from .snapshot import RESUMED, SET_ASIDE, Snapshots
from .statefile import prepare
from .switches import Switches
from .tunes import TUNES
from .wakeup import Wakeup

log = logging.getLogger(__name__)

REAL_TIME_GRACE = 0.02  # a wakeup this late lets an earlier edge cross from its thread first


class Daemon:
    """Runs one table. Create it inside the running event loop; `run` until `stop`."""

    def __init__(
        self,
        *,
        pinmap: PinMap,
        pin_factory: object,
        display: TextDisplay,
        clock: Clock,
        rng: random.Random,
        settings: Settings,
        grace: float = REAL_TIME_GRACE,
        state_dir: Path | None = None,
        store: SettingsStore | None = None,
        notices: Sequence[tuple[str, str]] = (),
        launcher: LauncherConfig | None = None,
    ) -> None:
        self._inbox = Inbox(asyncio.get_running_loop())
        self.clock, self.rng = clock, rng
        from hardware.board import Board  # gpiozero loads with the board: start-up time

        self.board = Board(
            pinmap,
            pin_factory=pin_factory,
            clock=clock,
            display=display,
            on_edge=self._edge_from_pin,
            on_turn=self._turn_from_pin,
        )
        notices = [*notices, *([] if state_dir is None else prepare(state_dir))]
        self.renderer = Renderer(self.board, clock, redraw=self.refresh)
        self.launcher = LauncherLink(
            self.board,
            clock=clock,
            inbox=self._inbox,
            state_dir=state_dir,
            launcher=launcher,
            on_notice=self.renderer.notice,
            on_link=self.renderer.launcher_link,
        )
        fresh = game.new_table(settings, pinmap.seats, has_launcher=self.launcher.wired)
        self.snapshots = Snapshots(state_dir, clock, self._inbox, self.renderer.notice)
        self.table, resumed = self.snapshots.resume(fresh, rng, self.launcher.owed_at_start)
        self._fresh = None if self.table is fresh else fresh  # until the resumed game has run
        self.log = GameLog(self.table, rng)
        self.settings = SettingsKeeper(store, settings)
        self._hardware = HardwareSettings(self.board, self.launcher)
        self._hardware.follow(settings)
        if not self.launcher.wired and settings.mode != "flash":
            log.warning("no launcher is wired: penalties are shown on the LCD, not dispensed")
        self.publisher = Publisher()
        self.publisher.watch(self.snapshots.note)
        self.mqtt_status = "not set up"  # the Info screen's; the MQTT link keeps it
        self._switches = Switches(
            self.board.inputs, clock, lambda *asked: self._inbox.deliver(Settle(*asked)), grace
        )
        self._wakeup = Wakeup(clock, grace, lambda: self._inbox.deliver(Wake()))
        self.answers = Answers(asyncio.get_running_loop(), self.board.inputs, rng)
        self.panel = Panel(self, clock)
        self._notices = [*notices, *resumed, *self.launcher.notices()]  # shown as `run` starts

    # -- the border: these run on other threads ------------------------------------------
    def _edge_from_pin(self, name: str, active: bool, time: float) -> None:
        self._inbox.post(Edge(name, active, time))

    def _turn_from_pin(self, steps: int) -> None:
        self._inbox.post(EncoderTurn(steps))

    def submit(self, request: Request) -> concurrent.futures.Future[object]:
        """Hand a request to the table from any thread, task or signal handler, in order with
        the pins' events; the future tells the outcome (docs/architecture.md)."""
        return self._inbox.ask(request)

    def stop(self) -> None:
        """Ask `run` to finish (safe from any thread and from signal handlers)."""
        self._inbox.post(Stop())

    # -- the loop ------------------------------------------------------------------------
    async def run(self) -> None:
        """Handle events until `stop` is called, then leave the hardware dark and still."""
        try:
            self._begin(self.launcher.at_start(self.table.launcher))
            await self._inbox.serve(self._handle_item)
        finally:
            with contextlib.suppress(asyncio.CancelledError):
                # Edges already handed over from the pin threads get onto the queue first.
                await asyncio.sleep(0)
            await self._shutdown()

    def _begin(self, owed_from_before: list[Event]) -> None:
        """The first steps. Cards owed from before come first, so the saved count is never
        lowered before they are owed again; then the idle clock starts, and buttons held
        down are stuck. A resumed game that fails here (a snapshot that passed every check,
        yet cannot be played or drawn) is set aside and a new game starts: a table that
        restarted on it would fail the same way at every start."""
        now = self.clock.now()
        first = [*owed_from_before, Tick(now), *(Stuck(n, now) for n in self.board.pressed_now())]
        try:
            for lines in self._notices:
                self.renderer.notice(lines)
            for event in first:
                self.feed(event)
        except Exception as err:
            if self._fresh is None:
                raise
            log.exception("the resumed game failed on its first step")
            self.table = self.snapshots.give_up(self.table, self._fresh, err)
            self._fresh = None
            self.log = GameLog(self.table, self.rng)
            self.renderer.withdraw(RESUMED)
            self.renderer.notice(SET_ASIDE)
            for event in first:
                self.feed(event)
        self._fresh = None

    async def idle(self) -> None:
        """Wait until every event handed over so far has been handled (for simulations)."""
        await self._inbox.idle()

    def _handle_item(self, item: object) -> None:
        if isinstance(item, Edge) and item.input in self._switches:
            self._changed(item.input, self._switches.edge(item.input, item.active, item.time))
        elif isinstance(item, Edge):
            self.launcher.edge(item.input, item.active, item.time)
            if item.input == "launcher.beam" and self.panel.testing == "beam":
                self.refresh()
        elif isinstance(item, Settle):
            self._changed(item.input, self._switches.settled(item.input, item.window))
        elif isinstance(item, Wake):
            self._wakeup.fired()
            self.feed(Tick(self._inbox.known_until(self.clock.now())))
        elif isinstance(item, Report):
            self.feed(self.launcher.event_for(item))
        elif isinstance(item, Call):
            item.work()
        elif isinstance(item, EncoderTurn):
            self.panel.encoder_turned(item.steps)
        elif isinstance(item, Asked):
            item.carry_out(self.handle)

    def _changed(self, name: str, changes: list[Change]) -> None:
        for change in changes:
            if not self.panel.took(name, change):
                self.feed((Press if change.active else Release)(name, change.time))

    # -- requests: the menu's directly, the rest through `submit` --------------------------
    def handle(self, request: Request) -> Settings | None:
        """Carry out a request now (loop thread only); see `submit`."""
        now = self.clock.now()
        if isinstance(request, GameCommand | DealCards):
            self.feed(request.event(now))
            return None
        settings, notice = self.settings.answer(request, self.table.settings)
        if notice is not None:
            self.renderer.notice(notice)
        if settings != self.table.settings:
            self.feed(Configure(settings, now))
        return self.table.settings

    def menu_shown(self, shown: bool) -> None:
        self.feed(Command("menu_opened" if shown else "menu_closed", self.clock.now()))

    def play_tune(self, name: str) -> None:
        self.board.buzzer.play(name, TUNES[name])

    def beam_clear(self) -> bool | None:
        return self.launcher.beam_clear()

    # -- the engine ----------------------------------------------------------------------
    def feed(self, event: Event) -> None:
        """Step the engine with one event and carry out the result (loop thread only)."""
        now = max(event.time, self._inbox.known_until(self.clock.now()))
        testing = self.panel.light_test is not None  # the light test has the lights
        ahead = None if testing else self.answers.ahead(self.table, event, now)
        if ahead is not None:
            self.renderer.light_ahead(ahead)  # a press's lights, or a wakeup's, known already
        self.log.record(self.table, now, event, self.rng)
        self.table, effects = game.step(self.table, event, now, self.rng)
        # First: the lights are the table's answer to a press.
        self.answers.followed(self.renderer.light(self.table, self.panel))
        for effect in effects:
            if isinstance(effect, Sound):
                self.play_tune(effect.name)
            elif isinstance(effect, Announce):
                self.publisher.announce(effect.type, effect.data)
            elif isinstance(effect, Dispense | ResumeLauncher):
                self.launcher.carry_out(effect)
        self._hardware.follow(self.table.settings)
        wakeup = game.next_wakeup(self.table)
        self._wakeup.at(wakeup)
        self.launcher.keep(self.table.launcher)
        self.refresh()
        self.publisher.stepped(self.table)
        self.answers.prepare(self.table, now, wakeup)

    def refresh(self) -> None:
        """Make the lights and the LCD show what they should now."""
        if self.panel.is_open and (self.table.launcher.fault or self.table.asleep):
            self.panel.close()  # the launcher waits for OK, or the table sleeps: no menu
        self.renderer.draw(self.table, self.panel)
        self.publisher.showing(self.renderer.shown, self.launcher.link_up)

    async def _shutdown(self) -> None:
        # Cards already through the beam count before the motor stops for good.
        await self.launcher.stop(self._handle_item)
        for event in self.launcher.left_in_slot(self.table.launcher.owed):
            self.feed(event)
        self.launcher.close(self.table.launcher)
        self.snapshots.close(self.table)
        self._wakeup.cancel()
        self.answers.cancel()
        self._switches.close()
        self.renderer.cancel()
        self.panel.shut()
        self.board.shut_down(("Flash Table", "stopped"))
