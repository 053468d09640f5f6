"""The table's first steps, as `Daemon.run` begins, and its last, as it ends.

First: cards owed from before come first, so the saved count is never lowered before they
are owed again; then the idle clock starts, and buttons held down are stuck. A resumed game
that fails there (a snapshot that passed every check, yet cannot be played or drawn) is set
aside and a new game starts: a table that restarted on it would fail the same way at every
start. Last: the motor stops for good, and the cards already through the beam count (their
edges still on the queue are handed on first), then every part lets go, and the hardware is
left dark and still.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from hardware.clock import Clock

from ..game import Event, Stuck, Table, Tick
from ..storage.snapshot import RESUMED, SET_ASIDE, Snapshots
from .answers import Answers
from .control_socket import ControlSocket
from .game_log import GameLog
from .inbox import Item
from .launcher_link import LauncherLink
from .panel import Panel
from .renderer import Renderer
from .switches import Switches
from .wakeup import Wakeup

if TYPE_CHECKING:
    from hardware.board import Board  # gpiozero: it loads with the board, not before


class Daemon(Protocol):
    """The daemon as its first and last steps need it."""

    clock: Clock
    rng: random.Random
    board: Board
    table: Table
    fresh: Table | None
    game_log: GameLog
    snapshots: Snapshots
    renderer: Renderer
    door: ControlSocket | None
    launcher: LauncherLink
    wakeup: Wakeup
    answers: Answers
    switches: Switches
    panel: Panel

    def feed(self, event: Event) -> object: ...

    def handle_item(self, item: Item) -> None: ...


log = logging.getLogger(__name__)


def first_steps(
    daemon: Daemon, owed_from_before: list[Event], notices: Sequence[tuple[str, str]]
) -> None:
    """Show `notices` and take the first steps; the resumed game's fresh stand-in is let go."""
    now = daemon.clock.now()
    pressed = daemon.board.pressed_now()
    first = [*owed_from_before, Tick(now), *(Stuck(name, now) for name in pressed)]
    try:
        # Drawn at once, step by step: a screen that cannot be drawn fails here, before
        # the step's table is handed to the snapshot (the bad game is kept as it was).
        for lines in notices:
            daemon.renderer.notice(lines, while_paused=lines == RESUMED)
        for event in first:
            daemon.feed(event)
    except Exception as err:
        if daemon.fresh is None:
            raise
        log.exception("the resumed game failed on its first step")
        daemon.table = daemon.snapshots.give_up(daemon.table, daemon.fresh, err)
        daemon.fresh = None
        daemon.game_log = GameLog(daemon.table, daemon.rng)
        daemon.renderer.withdraw(RESUMED)
        daemon.renderer.notice(SET_ASIDE)
        for event in first:
            daemon.feed(event)
    daemon.fresh = None


async def last_steps(daemon: Daemon) -> None:
    """Stop: the shell's door closes, the launcher's last cards are counted, every part
    lets go, and the board is left dark with the LCD saying so."""
    if daemon.door is not None:
        daemon.door.close()
    # The motor stops for good; the cards already through the beam count.
    await daemon.launcher.stop(daemon.handle_item)
    for event in daemon.launcher.left_in_slot(daemon.table.launcher.owed):
        daemon.feed(event)
    daemon.launcher.close(daemon.table.launcher)
    await daemon.launcher.closed()  # nothing of the table is left open once `run` returns
    daemon.snapshots.close(daemon.table)
    daemon.wakeup.cancel()
    daemon.answers.cancel()
    daemon.switches.close()
    daemon.renderer.cancel()
    daemon.panel.shut()
    daemon.board.shut_down(("Flash Table", "stopped"))
