"""What the MQTT side may see and do of a running table: a narrow `TableControl`, and its
implementation on the daemon, through the daemon's one way in for requests (`submit`), so a
command from the broker is carried out in order with the pins' events, as the menu's are.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..errors import MessageRefused
from ..game import Phase, Table
from ..requests import ChangeSettings, DealCards, GameCommand, Request, ShowLinkStatus
from ..settings import Settings
from .inbound import Order

if TYPE_CHECKING:
    from ..shell.daemon import Daemon
    from ..shell.publish import GameEvent


class TableControl(Protocol):
    """The table as the MQTT link sees it."""

    @property
    def table(self) -> Table: ...

    def watch(
        self, on_event: Callable[[GameEvent], None], on_step: Callable[[Table], None]
    ) -> None:
        """Call `on_event` for each game event and `on_step` after each engine step."""

    async def use_settings(self, settings: Settings) -> None:
        """Apply and keep settings checked by the settings model, as the menu does."""

    async def carry_out(self, order: Order) -> None:
        """Do what a command asks, or raise MessageRefused when the table cannot now."""

    def show_link(self, status: str) -> None:
        """The link's state for the Info screen ("connected", "connecting", ...)."""


# Which phases each command makes sense in; outside them it is refused, with the reason.
WHEN = {
    "start": ({Phase.SEATING, Phase.ROUND_OVER}, "a round is already running"),
    "pause": ({Phase.TURN}, "no turn is running"),
    "resume": ({Phase.PAUSED}, "the table is not paused"),
    "new_round": (set(Phase) - {Phase.SEATING}, "no round has started yet"),
}


class DaemonControl:
    """`TableControl` on the daemon: commands go in as the menu's actions do."""

    def __init__(self, daemon: Daemon) -> None:
        self._daemon = daemon

    @property
    def table(self) -> Table:
        return self._daemon.table

    def watch(
        self, on_event: Callable[[GameEvent], None], on_step: Callable[[Table], None]
    ) -> None:
        self._daemon.publisher.listen(on_event)
        self._daemon.publisher.watch(on_step)

    async def use_settings(self, settings: Settings) -> None:
        await self._ask(ChangeSettings(dict(settings)))

    async def carry_out(self, order: Order) -> None:
        table = self._daemon.table
        if order.action == "dispense":
            if not table.has_launcher:
                raise MessageRefused("dispense: this table has no launcher")
            await self._ask(DealCards(order.cards, "quick"))
            return
        phases, why = WHEN[order.action]
        if table.phase not in phases:
            raise MessageRefused(f"{order.action}: {why} (phase {table.phase.value})")
        if table.asleep:
            await self._ask(GameCommand("wake"))  # as a press would: it only wakes the table
        if order.action != "new_round":
            await self._ask(GameCommand("play"))
            return
        # A round still going ends first, with its summary (as from the menu); then the
        # new one starts, since nobody stands at the table to press Start.
        await self._ask(GameCommand("new_round"))
        if self._daemon.table.phase is Phase.ROUND_OVER:
            await self._ask(GameCommand("new_round"))

    async def _ask(self, request: Request) -> None:
        await asyncio.wrap_future(self._daemon.submit(request))

    def show_link(self, status: str) -> None:
        self._daemon.submit(ShowLinkStatus(status))
