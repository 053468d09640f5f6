"""The daemon: the thin shell around the rules engine.

Pin edges arrive on gpiozero's threads and are only handed to the event loop there
(`loop.call_soon_threadsafe`). On the loop, one queue feeds everything in order: raw edges go
through our debounce and become presses and releases at their edge times, the engine steps,
and the shell carries out what it asks: sounds, game events, and the lights and LCD text of
its `View`. Time comes from the injected clock, chance from the injected generator.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from hardware.board import Board
from hardware.clock import Clock, Timer
from hardware.display import TextDisplay
from hardware.ejector import CardOut as CardCounted
from hardware.ejector import GpioEjector, Halted
from hardware.inputs import Change, Debouncer
from hardware.outputs import Pattern
from hardware.pinmap import PinMap

from . import game
from .game import Announce, Command, Configure, Event, Phase, Press, Release, Sound, Stuck, Tick
from .game.effects import Dispense, ResumeLauncher
from .game.events import CardOut, ExactDraw, LauncherStopped
from .owed import OwedFile
from .panel import Panel
from .settings import SettingError, Settings
from .settings_store import SettingsStore, settings_notice
from .statefile import sweep
from .tunes import TUNES

log = logging.getLogger(__name__)

# In real time a timer may fire a moment before an edge that happened earlier has crossed
# from the pin thread; waking this much later lets that edge be handled first.
REAL_TIME_GRACE = 0.02
SETTINGS_NOTICE_TIME = 5.0  # how long the LCD tells of a damaged settings file
LOG_LIMIT = 20_000  # events kept for replay before the log starts over between rounds


@dataclass(frozen=True)
class GameEvent:
    """A game event as published: its sequence number, type and data."""

    seq: int
    type: str
    data: dict


@dataclass(frozen=True)
class _Edge:
    input: str
    active: bool
    time: float


@dataclass(frozen=True)
class _Settle:
    input: str


@dataclass(frozen=True)
class _Wake:
    pass


@dataclass(frozen=True)
class _Stop:
    pass


@dataclass(frozen=True)
class _EncoderTurn:
    steps: int


@dataclass(frozen=True)
class _Reload:
    pass


class Daemon:
    """Runs one table. Create it inside the running event loop; `run` until `stop`."""

    def __init__(
        self,
        *,
        pinmap: PinMap,
        pin_factory,
        display: TextDisplay,
        clock: Clock,
        rng: random.Random,
        settings: Settings,
        grace: float = REAL_TIME_GRACE,
        state_dir: Path | None = None,
        store: SettingsStore | None = None,
        notice: tuple[str, str] | None = None,
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self.loop_thread = threading.get_ident()
        self._queue: asyncio.Queue = asyncio.Queue()
        self.clock = clock
        self.rng = rng
        self._grace = grace
        self.board = Board(
            pinmap,
            pin_factory=pin_factory,
            clock=clock,
            display=display,
            on_edge=self._edge_from_pin,
            on_turn=self._turn_from_pin,
        )
        self.ejector: GpioEjector | None = None
        if self.board.motor is not None and self.board.beam is not None:
            beam, empty = self.board.beam, self.board.empty
            self.ejector = GpioEjector(
                self.board.motor,
                clock=clock,
                on_report=self._queue.put_nowait,
                beam_clear=lambda: bool(beam.is_active),
                hopper_empty=lambda: empty is not None and bool(empty.is_active),
            )
        self.table = game.new_table(settings, pinmap.seats, has_launcher=self.ejector is not None)
        # Replaying `log` from `start` with `start_rng()` plays this game again, exactly.
        self.start = self.table
        self._start_rng_state = rng.getstate()
        if state_dir is not None and state_dir.is_dir():
            sweep(state_dir)
        self._owed = None if state_dir is None else OwedFile(state_dir)
        self._apply_settings(settings)
        if self.ejector is None and settings.mode != "flash":
            log.warning("no launcher is wired: penalties are shown on the LCD, not dispensed")
        self.log: list[tuple[float, Event]] = []
        self.listeners: list[Callable[[GameEvent], None]] = []
        self._seq = 0
        self._debounce = {
            name: Debouncer(active=device.is_active) for name, device in self.board.inputs.items()
        }
        self._wakeup: Timer | None = None
        self._wakeup_at: float | None = None
        self._shown: game.View | None = None
        self.store = store
        self._base_settings = store.base if store is not None else settings
        self.panel = Panel(self)
        self._notice: tuple[str, str] | None = None
        self._notice_timer: Timer | None = None
        if notice is not None:
            self._show_notice(notice)

    # -- the border: these two run on the pin factory's threads --------------------------

    def _edge_from_pin(self, name: str, active: bool, time: float) -> None:
        self._loop.call_soon_threadsafe(self._queue.put_nowait, _Edge(name, active, time))

    def _turn_from_pin(self, steps: int) -> None:
        self._loop.call_soon_threadsafe(self._queue.put_nowait, _EncoderTurn(steps))

    def reload_settings(self) -> None:
        """Reread the settings file (safe from any thread and from signal handlers)."""
        self._loop.call_soon_threadsafe(self._queue.put_nowait, _Reload())

    # -- the loop ------------------------------------------------------------------------

    async def run(self) -> None:
        """Handle events until `stop` is called, then leave the hardware dark and still."""
        try:
            # Cards owed from before come first, so the saved count is never lowered
            # before they are owed again; the first event also starts the idle clock.
            self._owed_at_start()
            self.feed(Tick(self.clock.now()))
            for name in self.board.pressed_now():
                self.feed(Stuck(name, self.clock.now()))
            while True:
                item = await self._queue.get()
                try:
                    if isinstance(item, _Stop):
                        return
                    self._handle(item)
                except Exception:
                    # One bad event must not stop the table; the log says what happened.
                    log.exception("handling %r failed", item)
                finally:
                    self._queue.task_done()
        finally:
            with contextlib.suppress(asyncio.CancelledError):
                # Edges already handed over from the pin threads get onto the queue first.
                await asyncio.sleep(0)
            self._shutdown()

    def stop(self) -> None:
        """Ask `run` to finish (safe from any thread and from signal handlers)."""
        self._loop.call_soon_threadsafe(self._queue.put_nowait, _Stop())

    async def idle(self) -> None:
        """Wait until every event handed over so far has been handled (for simulations)."""
        for _ in range(3):
            await asyncio.sleep(0)
        await self._queue.join()

    def _handle(self, item) -> None:
        if isinstance(item, _Edge):
            debouncer = self._debounce.get(item.input)
            if debouncer is None:
                self._launcher_edge(item)
                return
            self._changed(item.input, debouncer.edge(item.active, item.time))
            settle = _Settle(item.input)
            self.clock.call_at(debouncer.quiet_at, lambda: self._queue.put_nowait(settle))
        elif isinstance(item, _Settle):
            debouncer = self._debounce[item.input]
            if self.clock.now() >= debouncer.quiet_at:
                self._changed(item.input, debouncer.settle())
        elif isinstance(item, _Wake):
            self._wakeup_at = None
            self.feed(Tick(self.clock.now()))
        elif isinstance(item, CardCounted):
            self.feed(CardOut(item.time))
        elif isinstance(item, Halted):
            self.feed(LauncherStopped(item.reason, item.time))
        elif isinstance(item, _EncoderTurn):
            self._encoder_turned(item.steps)
        elif isinstance(item, _Reload):
            self._reload()

    def _drain_launcher(self) -> None:
        """Handle the beam edges and launcher reports still queued (at shutdown)."""
        while not self._queue.empty():
            item = self._queue.get_nowait()
            self._queue.task_done()
            if isinstance(item, CardCounted | Halted) or (
                isinstance(item, _Edge) and item.input not in self._debounce
            ):
                self._handle(item)

    def _launcher_edge(self, edge: _Edge) -> None:
        """The beam and the hopper switch belong to the ejector, not to the players."""
        if self.ejector is None:
            return
        if edge.input == "launcher.beam":
            self.ejector.beam(edge.active, edge.time)
            if self.panel.testing == "beam":
                self.refresh()
        elif edge.input == "launcher.empty" and edge.active:
            self.ejector.hopper_emptied()

    def _changed(self, name: str, change: Change | None) -> None:
        if change is None:
            return
        if name == "encoder.push" and self.panel.is_open:
            self._activity()
            if change.active:
                self.panel.push_down(change.time)
            else:
                self.panel.push_up()
            return
        if self.panel.testing == "buttons":
            if change.active:
                self._activity()
                self.panel.button(name)
            return
        self.feed(Press(name, change.time) if change.active else Release(name, change.time))

    # -- the menu ------------------------------------------------------------------------

    def _encoder_turned(self, steps: int) -> None:
        if self.table.asleep:
            self._activity()  # a turn that wakes the table only wakes it
        elif self.table.launcher.fault is None:
            self._activity()
            self.panel.turn(steps)

    def _activity(self) -> None:
        # Someone at the menu is someone at the table: the sleep timer starts over.
        self.feed(Command("wake", self.clock.now()))

    def reset_settings(self) -> None:
        """Back to the config's settings (the menu's Reset settings)."""
        self._keep_and_use(self._base_settings)

    def change_settings(self, changes: dict[str, object]) -> None:
        """Apply and keep setting changes (from the menu); a bad one is logged and dropped."""
        try:
            settings = self.table.settings.replace(changes)
        except SettingError as err:
            log.warning("setting refused: %s", err)
            return
        self._keep_and_use(settings)

    def _keep_and_use(self, settings: Settings) -> None:
        # The table plays on what the LCD shows even when the disk refuses the write.
        if self.store is not None:
            try:
                self.store.save(settings)
            except OSError as err:
                log.error("cannot save the settings to %s: %s", self.store.path, err)
        self._use_settings(settings)

    def _use_settings(self, settings: Settings) -> None:
        if settings != self.table.settings:
            self.feed(Configure(settings, self.clock.now()))

    def _reload(self) -> None:
        if self.store is None:
            return
        loaded = self.store.load()
        log.info("settings reread from %s", self.store.path)
        if loaded.problems:
            self._show_notice(settings_notice(loaded))
        self._use_settings(loaded.settings)

    def _show_notice(self, lines: tuple[str, str]) -> None:
        """A message over the game's screen for a moment (a damaged settings file)."""
        if self._notice_timer is not None:
            self._notice_timer.cancel()
        self._notice = lines

        def done() -> None:
            self._notice, self._notice_timer = None, None
            self.refresh()

        self._notice_timer = self.clock.call_at(self.clock.now() + SETTINGS_NOTICE_TIME, done)
        self.refresh()

    def start_rng(self) -> random.Random:
        """A generator in the state the game's generator had at `start`."""
        rng = random.Random()
        rng.setstate(self._start_rng_state)
        return rng

    def feed(self, event: Event) -> None:
        """Step the engine with one event and carry out the result (loop thread only)."""
        if len(self.log) >= LOG_LIMIT and self.table.phase in (Phase.SEATING, Phase.ROUND_OVER):
            # Between rounds the log starts over, so a table left on for weeks keeps a
            # bounded log that still replays from `start`.
            self.start, self._start_rng_state = self.table, self.rng.getstate()
            self.log.clear()
        now = self.clock.now()
        self.log.append((now, event))
        self.table, effects = game.step(self.table, event, now, self.rng)
        for effect in effects:
            if isinstance(effect, Sound):
                self.board.buzzer.play(effect.name, TUNES[effect.name])
            elif isinstance(effect, Announce):
                self._announce(effect)
            elif isinstance(effect, Dispense | ResumeLauncher):
                self._launch(effect)
        if self.table.settings is not self._applied:
            self._apply_settings(self.table.settings)
        self._schedule_wakeup()
        if self._owed is not None and self.ejector is not None:
            launcher = self.table.launcher
            self._owed.save((launcher.owed, launcher.fault))
        self.refresh()

    def _owed_at_start(self) -> None:
        """Cards the launcher still owed when the daemon last stopped: owed, not forgotten.
        A jam or an empty hopper it was waiting on still waits for OK: the roller must not
        start with a card stuck, or a hand, in the slot."""
        if self._owed is None or self.ejector is None:
            return
        owed, fault = self._owed.at_start
        if not owed:
            return
        now = self.clock.now()
        self.ejector.fault = fault
        self.feed(ExactDraw(owed, "restart", now))
        if fault is not None:
            self.feed(LauncherStopped(fault, now))

    def _launch(self, effect: Dispense | ResumeLauncher) -> None:
        if self.ejector is None:
            log.warning("no launcher is wired: %r not carried out", effect)
        elif isinstance(effect, Dispense):
            self.ejector.dispense(effect.cards)
        else:
            self.ejector.resume()

    def _apply_settings(self, settings: Settings) -> None:
        """The settings the hardware itself follows (the game reads the rest from its state)."""
        self._applied = settings
        self.board.buzzer.volume = str(settings.volume)
        for light in self.board.lights.values():
            light.brightness = int(settings.brightness) / 100  # type: ignore[arg-type]
        if self.ejector is not None:
            self.ejector.jam_time = int(settings.jam_time) / 1000  # type: ignore[arg-type]

    def _announce(self, announce: Announce) -> None:
        self._seq += 1
        event = GameEvent(self._seq, announce.type, dict(announce.data))
        log.info("%s %s", event.type, " ".join(f"{k}={v}" for k, v in event.data.items()))
        for listener in self.listeners:
            listener(event)

    def refresh(self) -> None:
        """Make the lights and the LCD show what they should now."""
        if self.panel.is_open and (self.table.launcher.fault or self.table.asleep):
            self.panel.close()  # the launcher waits for OK, or the table sleeps: no menu
        view = game.render(self.table)
        try:
            lines = self.panel.lines() or self._notice
        except Exception:  # a menu that cannot draw itself must not take the table down
            log.exception("the menu failed to draw; closed")
            self.panel.close()
            return
        if lines is not None:
            view = replace(view, lines=lines)
        if self.panel.light_test is not None:
            seats = range(1, self.table.stations + 1)
            lit = self.panel.light_test
            view = replace(view, lights=tuple("on" if s == lit else "off" for s in seats))
        if view == self._shown:
            return
        for seat, pattern in enumerate(view.lights, start=1):
            self.board.lights[seat].show(Pattern(pattern))
        if self._shown is None or view.lines != self._shown.lines:
            self.board.display.show(view.lines)
        if self._shown is None or view.backlight != self._shown.backlight:
            self.board.display.backlight(view.backlight)
        self._shown = view

    def _schedule_wakeup(self) -> None:
        when = game.next_wakeup(self.table)
        if when == self._wakeup_at:
            return
        if self._wakeup is not None:
            self._wakeup.cancel()
            self._wakeup = None
        self._wakeup_at = when
        if when is not None:
            self._wakeup = self.clock.call_at(
                when + self._grace, lambda: self._queue.put_nowait(_Wake())
            )

    def _shutdown(self) -> None:
        if self.ejector is not None:
            # Cards already through the beam count before the motor stops for good.
            self._drain_launcher()
            self.ejector.stop()
            self._drain_launcher()
            beam = self.board.beam
            if beam is not None and not beam.is_active and self.table.launcher.owed:
                # A card left sticking out of the slot belongs to the presser: it is dealt.
                self.feed(CardOut(self.clock.now()))
        if self._owed is not None:
            self._owed.close()
        if self._wakeup is not None:
            self._wakeup.cancel()
        self.panel.close()
        try:
            self.board.all_off()
            self.board.display.show(("Flash Table", "stopped"))
            self.board.display.backlight(False)
        finally:
            self.board.display.close()
            self.board.close()
