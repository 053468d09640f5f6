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
from typing import assert_never

from hardware.debounce import Change
from hardware.ejector import CardCounted, Halted

from .. import game
from ..config import Config
from ..game import Announce, Command, Configure, Event, Press, Release, Sound, Stuck, Tick
from ..game.effects import Dispense, ResumeLauncher
from ..requests import (
    ChangeSettings,
    DealCards,
    EnterPoints,
    GameCommand,
    NameSeat,
    Request,
    RereadSettings,
    ResetSettings,
    ShowLinkStatus,
)
from ..settings import Settings
from ..storage.settings_store import Loaded, SettingsStore, settings_notice
from ..storage.snapshot import RESUMED, SET_ASIDE, Snapshots
from ..storage.statefile import prepare
from .answers import Answers
from .control_socket import ControlSocket
from .game_log import GameLog
from .inbox import Asked, Call, Edge, EncoderTurn, Inbox, Item, Settle, Stop, Wake
from .launcher_link import LauncherLink
from .loop_thread import LoopThread
from .panel import Panel
from .publish import GameEvent, Publisher, Stepped
from .renderer import Renderer
from .settings_keeper import HardwareSettings, SettingsKeeper
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
        self._inbox = Inbox(asyncio.get_running_loop())
        self._loop_thread = LoopThread()
        pinmap, clock = wiring.pinmap, wiring.clock
        self.clock, self.rng = clock, rng
        from hardware.board import Board  # gpiozero loads with the board: start-up time

        self.board = Board(
            pinmap,
            pin_factory=wiring.pin_factory,
            clock=clock,
            display=wiring.display,
            on_edge=self._edge_from_pin,
            on_turn=self._turn_from_pin,
        )
        prepared = [] if state_dir is None else prepare(state_dir)
        # Before the settings are read: a change the shell asks from now on reaches this table.
        self._door = None if state_dir is None else ControlSocket(state_dir)
        store = None if state_dir is None else SettingsStore(state_dir, config.settings)
        loaded = store.load() if store is not None else Loaded(config.settings)
        settings = loaded.settings
        problems = [settings_notice(loaded)] if loaded.problems else []
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
        self.snapshots = Snapshots(state_dir, clock, self._inbox, self.renderer.notice)
        self.table, resumed = self.snapshots.resume(fresh, rng, self.launcher.owed_at_start)
        self._fresh = None if self.table is fresh else fresh  # until the resumed game has run
        self.game_log = GameLog(self.table, rng)
        self.settings_keeper = SettingsKeeper(store, settings)
        self._hardware = HardwareSettings(self.board, self.launcher)
        self._hardware.follow(settings)
        if not self.launcher.wired and settings.mode != "flash":
            log.warning("no launcher is wired: penalties are shown on the LCD, not dispensed")
        self.publisher = Publisher()
        self.mqtt_status = "not set up"  # the Info screen's; the MQTT link tells it
        self._drawing_held = False  # while an item is handled: it draws once, at its end
        self._draw_due = False
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
            if self._door is not None:
                await self._door.serve(self)
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
            # Drawn at once, step by step: a screen that cannot be drawn fails here, before
            # the step's table is handed to the snapshot (the bad game is kept as it was).
            for lines in self._notices:
                self.renderer.notice(lines, while_paused=lines == RESUMED)
            for event in first:
                self.feed(event)
        except Exception as err:
            if self._fresh is None:
                raise
            log.exception("the resumed game failed on its first step")
            self.table = self.snapshots.give_up(self.table, self._fresh, err)
            self._fresh = None
            self.game_log = GameLog(self.table, self.rng)
            self.renderer.withdraw(RESUMED)
            self.renderer.notice(SET_ASIDE)
            for event in first:
                self.feed(event)
        self._fresh = None

    async def idle(self) -> None:
        """Wait until every event handed over so far has been handled (for simulations)."""
        await self._inbox.idle()

    def _handle_item(self, item: Item) -> None:
        """One item off the queue; whatever it changes is drawn once, when it is done."""
        with self._one_drawing():
            match item:
                case Edge() if item.input in self._switches:
                    changes = self._switches.edge(item.input, item.active, item.time)
                    self._changed(item.input, changes)
                case Edge():
                    self.launcher.edge(item.input, item.active, item.time)
                    if item.input == "launcher.beam" and self.panel.testing == "beam":
                        self.refresh()
                case Settle():
                    self._changed(item.input, self._switches.settled(item.input, item.window))
                case Wake():
                    self._wakeup.fired()
                    self.feed(Tick(self._inbox.known_until(self.clock.now())))
                case CardCounted() | Halted():
                    self.feed(self.launcher.event_for(item))
                case Call():
                    item.work()
                case EncoderTurn():
                    self.panel.encoder_turned(item.steps)
                case Asked():
                    item.carry_out(self.handle)
                case Stop():
                    pass  # the inbox ends `serve` at a Stop before it reaches here
                case _:
                    assert_never(item)

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

    def _changed(self, name: str, changes: list[Change]) -> None:
        for change in changes:
            if not self.panel.claims(name, change):
                self.feed((Press if change.active else Release)(name, change.time))

    # -- requests: the menu's directly, the rest through `submit` --------------------------
    def handle(self, request: Request, *, by_hand: bool = False) -> Settings | Stepped | None:
        """Carry out a request now (loop thread only); see `submit`. `by_hand`: asked at the
        table's own menu, so someone is there (the sleep timer starts over). A settings
        request answers with the settings after it, a game command or a deal with what its
        step did."""
        self._loop_thread.check("Daemon.handle")
        now = self.clock.now()
        match request:
            case GameCommand() | NameSeat() | EnterPoints():
                return Stepped(tuple(self.feed(request.event(now))), self.table)
            case DealCards():
                return Stepped(tuple(self.feed(request.event(now, by_hand=by_hand))), self.table)
            case ShowLinkStatus():
                self.mqtt_status = request.status
                self.refresh()
            case ChangeSettings() | ResetSettings() | RereadSettings():
                settings, notice = self.settings_keeper.answer(request, self.table.settings)
                if notice is not None:
                    self.renderer.notice(notice)
                if settings != self.table.settings:
                    self.feed(Configure(settings, now, by_hand))
                return self.table.settings
            case _:
                assert_never(request)
        return None

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
        now = max(event.time, self._inbox.known_until(self.clock.now()))
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
        self._wakeup.at(wakeup)
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

    async def _shutdown(self) -> None:
        if self._door is not None:
            self._door.close()
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
