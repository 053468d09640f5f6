"""The simulated table on screen: the real daemon on simulated pins, drawn and played live.

Game time is the SimTable's virtual clock. Every frame it moves on by the real time that
passed, times the time scale, so timers run at scaled real time; tests stop that and move
game time themselves with `advance`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from controller.catalogs import N_, Words, decimal, translation
from controller.config import Config
from controller.simulation.table import SimTable

from ..errors import FaultRefused
from .buttons import SeatButton, TableButton
from .eventlog import Recorder
from .faults import apply_fault, clear_for_ok
from .fingers import Fingers
from .help import HelpScreen
from .keys import Move, move_for
from .launcher_panel import LauncherPanel, reading
from .lcd import Encoder, Lcd, backlit
from .logroute import LogRoute
from .logview import EventLog
from .options_screen import OptionsScreen
from .standings_screen import StandingsScreen
from .tabletop import TableTop

FRAME = 0.05  # seconds between frames: smooth enough for a 0.12 s fast blink

SMALLEST = (80, 24)  # columns, rows: the whole table, its side panels, log and keys
HINTS = N_("1-8 seat ⇧ hold  space SLAP  l launch  p play  ←→ turn  ⏎ push  ? help  q quit")


# The keys that open the view's screens of text (help, options, standings) or quit.
OVERLAY_KEYS = frozenset({"help", "options", "standings", "quit"})


class TableApp(App[int]):
    """One simulated table with the config's seats, its daemon seeded with `seed`."""

    TITLE = "Flash Table"
    CSS = """
    #top { height: 1; background: $primary-background; padding: 0 1; }
    #main { height: 2fr; min-height: 15; }
    #side { width: 32; height: 100%; margin: 0 0 0 1; }
    #side > Lcd { margin: 0 0 0 6; }
    #side > Encoder { margin: 0 0 0 1; }
    #hints { height: 1; background: $primary-background; padding: 0 0 0 1; }
    #too_small { height: 1fr; content-align: center middle; text-align: center; }
    """

    def __init__(
        self,
        config: Config,
        *,
        seed: int,
        time_scale: float = 1.0,
        run_clock: bool = True,
        state_dir: Path | None = None,
        real_time: Callable[[], float] = time.monotonic,
        firmware: bool = False,
    ) -> None:
        super().__init__()
        self.config = config
        self.seats = config.seat_count(simulated=True)
        self.state_dir = state_dir
        self.seed = seed
        self.time_scale = time_scale
        self.firmware = firmware
        self.run_clock = run_clock
        self._real_time = real_time
        self._real_last = real_time()
        self._hold_next = False
        self._shown_status = ""
        self._words: Words | None = None  # the language the view's fixed texts are in
        self._exits = contextlib.AsyncExitStack()
        self._route = LogRoute()
        self.table: SimTable | None = None
        self.fingers: Fingers | None = None
        self.recorder: Recorder | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="main"):
            yield TableTop(self.seats)
            with Vertical(id="side"):
                yield Lcd()
                yield Encoder()
                yield LauncherPanel()
        yield EventLog()
        yield Static(HINTS, id="hints")
        yield Static(id="too_small")

    async def on_mount(self) -> None:
        self._exits.enter_context(self._route)
        self.table = await self._exits.enter_async_context(
            SimTable(self.config, seed=self.seed, state_dir=self.state_dir, firmware=self.firmware)
        )
        self.fingers = Fingers(self.table)
        self.recorder = Recorder(self.table)
        snapshots = self.table.daemon.snapshots
        if snapshots.resumed is not None and self.state_dir is not None:
            # Else a round's summary, or a paused turn, would greet an empty log unexplained;
            # where and when say whose game it is.
            saved = (
                ""
                if snapshots.saved_at is None
                else time.strftime(", saved %d %b %H:%M", time.localtime(snapshots.saved_at))
            )
            self.log_view.note(
                f"resumed the game kept in {self.state_dir}{saved}"
                f" ({snapshots.resumed.value.replace('_', ' ')}):"
                " New round in the menu, or --state-dir elsewhere, to start afresh"
            )
        if self.table.web is not None:
            self.log_view.note(f"web page on {' '.join(self.table.web.urls())}")
        self._real_last = self._real_time()
        self.set_interval(FRAME, self.frame)
        self.refresh_view()

    def on_resize(self, event: events.Resize) -> None:
        """Below SMALLEST the table would lose its seats, log and keys off the edges: say so
        instead of showing a part of it. The table plays on; a larger terminal shows it."""
        width, height = event.size
        small = width < SMALLEST[0] or height < SMALLEST[1]
        for widget in self.query("#main, EventLog, #hints"):
            widget.display = not small
        note = self.query_one("#too_small", Static)
        note.display = small
        words = self._words or translation(str(self.config.settings.language))
        needs = words.gettext(
            "The table needs a terminal of {least} or more; this one is {size}."
            " Make it larger (q quits)."
        )
        note.update(needs.format(least=f"{SMALLEST[0]}x{SMALLEST[1]}", size=f"{width}x{height}"))

    async def on_unmount(self) -> None:
        await self._exits.aclose()

    # -- time --------------------------------------------------------------------------

    async def frame(self) -> None:
        """One frame: game time catches up with scaled real time, then the view is redrawn."""
        await self._catch_up()
        self.refresh_view()

    async def _catch_up(self) -> None:
        now = self._real_time()
        elapsed, self._real_last = now - self._real_last, now
        if self.run_clock and self.fingers is not None and elapsed > 0:
            await self.fingers.advance(elapsed * self.time_scale)

    async def advance(self, seconds: float) -> None:
        """Let `seconds` of game time pass at once (for tests and demos), then redraw."""
        assert self.fingers is not None
        await self.fingers.advance(seconds)
        self.refresh_view()

    # -- input -------------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        if self.fingers is None:
            return
        move = move_for(event.key, event.character, seats=self.seats, armed=self._hold_next)
        if move is None:
            return
        if len(self.screen_stack) > 1:
            if move.kind in OVERLAY_KEYS:
                return  # the help or the standings open: their own keys close them
            # Any of the table's keys closes it and does what it does: play never waits
            # behind a screen of text, and no key is lost.
            while len(self.screen_stack) > 1:
                self.pop_screen()
        # Handled here: no binding of a screen opened by this key may take it again.
        event.stop()
        event.prevent_default()
        self._hold_next = move.kind == "arm_hold"
        await self.play(move)

    async def play(self, move: Move) -> None:
        """Carry out a move on the table, in game time as of now."""
        assert self.fingers is not None and self.table is not None
        await self._catch_up()
        if move.name == "encoder.push" and move.kind in ("tap", "hold"):
            await self._clear_for_ok()
        if move.kind == "tap":
            await self.fingers.tap(move.name)
        elif move.kind == "hold":
            await self.fingers.tap(move.name, hold=move.seconds)
        elif move.kind == "turn":
            await self.fingers.turn(move.steps)
        elif move.kind == "fault":
            await self._fault(move.name)
        elif move.kind == "help":
            self.push_screen(HelpScreen(self._words or translation("en")))
        elif move.kind == "standings":
            self.push_screen(
                StandingsScreen(self.table.daemon.table, self._words or translation("en"))
            )
        elif move.kind == "options":
            self.push_screen(OptionsScreen(self._words or translation("en")))
        elif move.kind == "arm_hold":
            self.log_view.note("hold: the next button is held down")
        elif move.kind == "missing":
            self.log_view.note(f"no {move.name}: {self.seats} seats here (--seats for up to 8)")
        elif move.kind == "quit":
            self.exit(0)
        self.refresh_view()

    async def _fault(self, command: str) -> None:
        assert self.fingers is not None and self.table is not None
        async with self.fingers.lock:
            try:
                self.log_view.note(await apply_fault(self.table, command))
            except FaultRefused as err:
                self.log_view.note(str(err))

    async def _clear_for_ok(self) -> None:
        """OK pushed while the table shows a jam: the person freed the card first."""
        assert self.fingers is not None and self.table is not None
        async with self.fingers.lock:
            done = await clear_for_ok(self.table)
        if done is not None:
            self.log_view.note(done)

    async def on_table_button_pushed(self, message: TableButton.Pushed) -> None:
        if self.fingers is None:
            return
        await self._catch_up()
        if message.down and message.button == "encoder.push":
            await self._clear_for_ok()
        if message.down:
            await self.fingers.down(message.button)
        else:
            await self.fingers.up(message.button)
        self.refresh_view()

    async def on_encoder_turned(self, message: Encoder.Turned) -> None:
        await self.play(Move("turn", steps=message.steps))

    # -- drawing -----------------------------------------------------------------------

    @property
    def log_view(self) -> EventLog:
        return self.query_one(EventLog)

    def refresh_view(self) -> None:
        """Make every widget show the table as it is now."""
        table, fingers, recorder = self.table, self.fingers, self.recorder
        # While the app shuts down its widgets go away before its last frames have run.
        if table is None or fingers is None or recorder is None or not self.is_running:
            return
        game_time = recorder.seconds
        names = table.daemon.table.names
        # The view speaks the table's language, Chinese too (the LCD shows its own glass).
        words = translation(str(table.daemon.table.settings.language))
        if words is not self._words:
            self._words = words
            self.query_one("#hints", Static).update(words.gettext(HINTS))
        for seat, pattern in table.lights.items():
            button = self.query_one(f"#seat{seat}", SeatButton)
            button.show(pattern, game_time, names.get(seat, ""))
        for pressable in self.query(TableButton):
            pressable.down = fingers.is_down(pressable.input_name)
        # The model of the LCD's controller is the glass itself, custom characters and all.
        glass = table.lcd_model
        lit = backlit(glass)
        self.query_one(Lcd).show(table.lcd, lit=lit, custom=glass.custom_chars, words=words)
        self.query_one(Encoder).show(table.daemon.board.encoder.steps, words)
        self.query_one(LauncherPanel).show(reading(table), game_time, words)
        log = self.log_view
        for entry in recorder.take(inputs=True):
            log.add(entry)
        for line in self._route.take():
            log.note(line)
        status = self._status(game_time, words)
        if status != self._shown_status:
            self._shown_status = status
            self.query_one("#top", Static).update(status)

    def _status(self, game_time: float, words: Words) -> str:
        hold = "  " + words.gettext("HOLD armed") if self._hold_next else ""
        # A seat box has no room for its place: the places go up here, first place first.
        out = self.table.daemon.table.places if self.table is not None else ()
        places = words.gettext("places {seats}").format(seats=" ".join(map(str, out)))
        status = words.gettext("Flash Table sim  {seats} seats  seed {seed}  time x{scale}")
        scale = decimal(words, f"{self.time_scale:g}")
        status = status.format(seats=self.seats, seed=self.seed, scale=scale)
        clock = decimal(words, f"{game_time:7.1f}")
        return f"{status}  {clock} s{'  ' + places if out else ''}{hold}"
