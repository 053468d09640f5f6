"""SimTable: the real daemon, in-process, on gpiozero's mock pins and virtual time.

For tests and for your own scripts::

    async with SimTable(seed=1) as table:
        await table.tap("seat1")
        await table.tap("seat3")
        await table.tap("play_pause")
        print(table.lcd, table.lights)
        await table.advance(6.0)      # a 6 s turn timer runs out, without waiting

Inputs are named "seat1".."seat8", "slap", "launcher", "play_pause", "encoder.push".
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from hardware.clock import VirtualClock
from hardware.sim.bounce import chatter
from hardware.sim.firmware_port import FirmwarePort
from hardware.sim.hd44780 import simulated_display
from hardware.sim.launcher_model import LauncherModel
from hardware.sim.pins import SimFactory, SimPin

from ..config import Config, LauncherConfig
from ..game import Phase
from ..game.lcd_glyphs import CUSTOM_CHARS, SUBSTITUTES
from ..mqtt import linked
from ..shell.daemon import Daemon
from ..shell.publish import GameEvent
from ..shell.wiring import Wiring
from ..web import served
from .launcher_firmware import power_on, settle_line

if TYPE_CHECKING:
    from ..mqtt.link import TableLink
    from ..web.server import WebServer

TAP_TIME = 0.12  # how long a finger stays on a button in a tap
EVENTS_KEPT = 1_000


class SimTable:
    """Async context manager running one simulated table."""

    def __init__(
        self,
        config: Config | None = None,
        *,
        seed: int = 0,
        state_dir: Path | None = None,
        firmware: bool = False,
    ) -> None:
        self.config = config or Config()
        self.seed = seed
        self.state_dir = state_dir
        self.clock = VirtualClock()
        self.factory = SimFactory(self.clock)
        # The real LCD driver on a model of the HD44780: the text is what the LCD would show.
        self.display, self.lcd_model = simulated_display(
            glyphs=CUSTOM_CHARS, substitutes=SUBSTITUTES
        )
        self.pinmap = self.config.pinmap(simulated=True)
        # The launcher's mechanics: on the Pi's pins (they claim them before the daemon's
        # devices do), or behind the firmware on a pseudo-terminal (`firmware`). With a
        # config naming a real controller's port, they are that controller's own.
        self.launcher: LauncherModel | None = None
        self.firmware = firmware
        self.firmware_port: FirmwarePort | None = None  # made on entry, with the daemon
        gpio = not firmware and self.config.launcher.link == "gpio"
        if gpio and "launcher.motor.forward" in self.pinmap:
            self.launcher = LauncherModel.for_pinmap(
                self.factory, self.clock, self.pinmap, rng=random.Random(seed)
            )
        # The latest game events, in order; a table left running forgets the oldest.
        self.events: deque[GameEvent] = deque(maxlen=EVENTS_KEPT)
        self._daemon: Daemon | None = None
        self._task: asyncio.Task[None] | None = None
        self.link: TableLink | None = None  # the table's MQTT link, with an [mqtt] section
        self._linked: AbstractAsyncContextManager[TableLink | None] | None = None
        self.web: WebServer | None = None  # the table's web page, with `[web]` enabled
        self._served: AbstractAsyncContextManager[WebServer | None] | None = None

    async def __aenter__(self) -> SimTable:
        try:
            return await self._start()
        except BaseException:
            await self.__aexit__(None, None, None)
            raise

    async def _start(self) -> SimTable:
        config = self.config
        if self.firmware:
            self.firmware_port = FirmwarePort()
            config = replace(config, launcher=LauncherConfig("serial", self.firmware_port.port))
        # With a state directory the table keeps its settings there, as the real one does.
        self._daemon = Daemon(
            config,
            Wiring(self.pinmap, self.factory, self.display, self.clock),
            rng=random.Random(self.seed),
            state_dir=self.state_dir,
            grace=0.0,
        )
        self._daemon.publisher.listen(self.events.append)
        link = linked(self.config, self._daemon)
        self.link = await link.__aenter__()
        self._linked = link
        served_page = served(self.config, self._daemon)
        self.web = await served_page.__aenter__()
        self._served = served_page
        self._task = asyncio.create_task(self._daemon.run())
        # A daemon that fails on its way up would never serve: its error is raised at once.
        coming_up = asyncio.ensure_future(self._come_up())
        await asyncio.wait((coming_up, self._task), return_when=asyncio.FIRST_COMPLETED)
        if not coming_up.done():
            coming_up.cancel()
            await self._task
            raise RuntimeError("the daemon ended before it was up")
        coming_up.result()
        return self

    async def _come_up(self) -> None:
        if self.firmware_port is not None:  # the firmware in the loop: launcher_firmware.py
            assert self._daemon is not None
            self.launcher = await power_on(self.firmware_port, self._daemon, self.clock, self.seed)
        await self.settle()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if self._daemon is not None and self._task is not None:
                self._daemon.stop()
                await self._task
            if self._served is not None:
                await self._served.__aexit__(exc_type, exc, tb)
            if self._linked is not None:
                await self._linked.__aexit__(exc_type, exc, tb)
        finally:
            # The firmware outlives the daemon, so it hears the host's last STOP.
            if self.firmware_port is not None:
                self.firmware_port.close()
            elif self.launcher is not None:
                self.launcher.close()
            self.factory.reset()

    @property
    def daemon(self) -> Daemon:
        if self._daemon is None:
            raise RuntimeError("use SimTable in 'async with'")
        return self._daemon

    # -- inputs --------------------------------------------------------------------------

    def pin(self, role: str) -> SimPin:
        """The mock pin of a role ("seat3" or "seat3.button", "slap", "launcher.beam", ...)."""
        full = f"{role}.button" if f"{role}.button" in self.pinmap else role
        return self.factory.pin(self.pinmap[full])

    async def press(self, name: str, *, bounce: bool = False) -> None:
        """Push a button down (switches pull their pin low)."""
        await self._drive(name, high=False, bounce=bounce)

    async def release(self, name: str, *, bounce: bool = False) -> None:
        await self._drive(name, high=True, bounce=bounce)

    async def tap(self, name: str, hold: float = TAP_TIME) -> None:
        await self.press(name)
        await self.advance(hold)
        await self.release(name)

    async def hold(self, name: str, seconds: float) -> None:
        await self.press(name)
        await self.advance(seconds)
        await self.release(name)

    async def turn(self, steps: int) -> None:
        """Turn the encoder by `steps` detents: positive clockwise, negative anticlockwise."""
        a, b = self.pin("encoder.a"), self.pin("encoder.b")
        first, second = (a, b) if steps > 0 else (b, a)
        for _ in range(abs(steps)):
            # One detent is a full quadrature cycle: the leading contact closes first.
            for drive in (first.drive_low, second.drive_low, first.drive_high, second.drive_high):
                drive()
                await self.advance(0.002)

    async def _drive(self, name: str, *, high: bool, bounce: bool) -> None:
        pin = self.pin(name)
        if bounce:
            settled = chatter(pin, self.clock, high=high, rng=random.Random(self.seed))
            await self.advance_to(settled)
        elif high:
            pin.drive_high()
        else:
            pin.drive_low()
        await self.settle()

    # -- the launcher ------------------------------------------------------------------

    def _model(self) -> LauncherModel:
        if self.launcher is None:
            raise RuntimeError("this table's pin map has no launcher")
        return self.launcher

    @property
    def cards_out(self) -> int:
        """Cards that have left the launcher's slot."""
        return self._model().cards_out

    @property
    def cards_left(self) -> int:
        """Cards still in the launcher's hopper."""
        return self._model().cards_left

    def jam(self) -> None:
        """A card catches in the slot: the roller turns, nothing moves until `clear_jam`."""
        self._model().jam()

    def clear_jam(self) -> None:
        self._model().clear_jam()

    def empty_hopper(self) -> int:
        """Take every card out of the hopper; returns how many there were."""
        return self._model().empty()

    def refill(self, cards: int = 54) -> None:
        self._model().refill(cards)

    # -- time ----------------------------------------------------------------------------

    async def settle(self) -> None:
        """Let the daemon handle everything that has happened so far (and, with the firmware
        in the loop, both ends of the serial line hear everything sent so far)."""
        if self.firmware_port is None:
            await self.daemon.idle()
        else:
            await settle_line(self.firmware_port, self.daemon)

    async def advance(self, seconds: float) -> None:
        """Let `seconds` of virtual time pass, running every timer due on the way in order."""
        await self.advance_to(self.clock.now() + seconds)

    async def advance_to(self, when: float) -> None:
        await self.settle()
        while self.clock.run_next(when):
            await self.settle()
        self.clock.set(max(when, self.clock.now()))
        await self.settle()

    @property
    def now(self) -> float:
        return self.clock.now()

    # -- what the table shows ------------------------------------------------------------

    @property
    def lcd(self) -> tuple[str, str]:
        """The LCD's two lines, each 16 characters, as the display's controller holds them."""
        return self.lcd_model.lines

    def light(self, seat: int) -> str:
        """A seat light's pattern: "off", "on", "dim", "pulse", "blink", "blink_fast", "flash"."""
        return self.daemon.board.lights[seat].pattern.value

    @property
    def lights(self) -> dict[int, str]:
        return {seat: self.light(seat) for seat in self.daemon.board.lights}

    def lit(self) -> list[int]:
        """The seat whose light shows a turn (pulsing, or blinking: picked again, last
        seconds), as a list: empty when no turn runs."""
        turn = self.daemon.table.turn
        if self.daemon.table.phase is not Phase.TURN or turn is None:
            return []
        return [s for s, p in self.lights.items() if p in ("pulse", "blink", "blink_fast")]

    def events_of(self, kind: str) -> list[GameEvent]:
        return [e for e in self.events if e.type == kind]
