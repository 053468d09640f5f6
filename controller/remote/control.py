"""What a remote (the MQTT link, the web page) may see and do of a running table: a narrow
`TableControl`, and its implementation on the daemon, through the daemon's one way in for
requests (`submit`), so a remote's request is carried out in order with the pins' events, as
the menu's are.

A request carries the change and the intent, never a whole computed outside the loop: a
settings change names only the settings it changes, and start, pause and resume say what is
wanted; the table checks each in the one step that carries it out, and the answer is told
from what that step did. Two remotes at once, or a remote and a player's press, never undo
each other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..errors import MessageRefused
from ..game import Phase, Table, score, seat_names
from ..game.state import MAX_OWED
from ..requests import (
    ChangeSettings,
    DealCards,
    EnterPoints,
    GameCommand,
    NameSeat,
    Request,
    ShowLinkStatus,
)
from ..settings import Settings
from ..shell.publish import Stepped
from .inbound import MAX_REASON, Order, short

if TYPE_CHECKING:
    from ..shell.daemon import Daemon
    from ..shell.publish import GameEvent


@dataclass(frozen=True)
class Done:
    """A command carried out. `said`, when there is something to know: the table was there
    already (a resume of a running table), or did less than asked (`whole` False: cards the
    launcher's limit cut from a dispense; MQTT answers that on `error`). The remote knows
    which command it sent; an answer names it only in what it says."""

    said: str | None = None
    whole: bool = True


class TableControl(Protocol):
    """The table as a remote sees it."""

    @property
    def table(self) -> Table: ...

    def watch(
        self, on_event: Callable[[GameEvent], None], on_step: Callable[[Table], None]
    ) -> None:
        """Call `on_event` for each game event and `on_step` after each engine step."""

    async def change_settings(self, change: ChangeSettings) -> Settings:
        """Apply and keep the settings `change` names, merged with the table's own in one
        step, as the menu does; the settings after it. Raises MessageRefused with the reason
        when the table refuses it (a bound past the other)."""

    async def carry_out(self, order: Order) -> Done:
        """Do what a command asks, or raise MessageRefused when the table cannot now."""

    def show_link(self, status: str) -> None:
        """The link's state for the Info screen ("connected", "connecting", ...)."""


# The actions of a remote's `command`, as the game's commands: a remote's new round starts
# the next at once, since nobody stands at the table to press Start.
COMMANDS = {"start": "start", "pause": "pause", "resume": "resume", "new_round": "next_round"}
RUNNING = {Phase.TURN, Phase.SLAP, Phase.NOTICE, Phase.EXTREME}


class DaemonControl:
    """`TableControl` on the daemon: requests go in as the menu's actions do."""

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

    async def change_settings(self, change: ChangeSettings) -> Settings:
        try:
            settings = await self._ask(change)
        except ValueError as err:  # the change met settings it cannot go with
            raise MessageRefused(short(str(err), MAX_REASON)) from None
        assert isinstance(settings, Settings)
        return settings

    async def carry_out(self, order: Order) -> Done:
        if order.asked is not None:
            request: Request = order.asked
        elif order.action == "dispense":
            request = DealCards(order.cards)  # a "quick" dispense, as from the menu
        else:
            request = GameCommand(COMMANDS[order.action])
        stepped = await self._ask(request)
        assert isinstance(stepped, Stepped)
        return answer(order, stepped)

    async def _ask(self, request: Request) -> object:
        return await asyncio.wrap_future(self._daemon.submit(request))

    def show_link(self, status: str) -> None:
        self._daemon.submit(ShowLinkStatus(status))


def answer(order: Order, stepped: Stepped) -> Done:
    """What `order` did, told from its step: Done, or MessageRefused when it did nothing."""
    action, table = order.action, stepped.table
    phase = f"phase {table.phase.value}"
    if action == "dispense":
        return _dealt(order.cards, stepped)
    if order.asked is not None:
        return _evening(order.asked, stepped)
    # A table still paused after a resume or a new round is held by the menu open at the
    # table (rounds.intend): every other way there leaves it running.
    if table.phase is Phase.PAUSED and (action == "resume" or stepped.of("round_started")):
        return Done(f"{action}: the turn goes on once the menu at the table closes")
    refused = stepped.of("start_refused")
    if refused:
        seated = refused[0].data["seated"]
        raise MessageRefused(f"{action}: {seated} seat(s) claimed; a round needs 2 or more")
    if action in ("start", "new_round") and stepped.of("round_started"):
        return Done()
    if action == "pause" and stepped.of("paused"):
        return Done()
    if action == "resume" and stepped.of("resumed"):
        return Done()
    if action == "start":  # between rounds a start starts or is refused for its seats
        return Done(f"start: a round is running already ({phase})")
    if action == "pause" and table.phase is Phase.PAUSED:
        return Done("pause: the table is paused already")
    if action == "resume" and table.phase in RUNNING:
        return Done(f"resume: the table is running already ({phase})")
    why = {
        "pause": "no turn is running",
        "resume": "nothing is paused",
        "new_round": "no round has started yet",
    }[action]
    raise MessageRefused(f"{action}: {why} ({phase})")


def _dealt(asked: int, stepped: Stepped) -> Done:
    launcher = stepped.table.launcher
    if not stepped.table.has_launcher:
        raise MessageRefused("dispense: this table has no launcher")
    # The step may also deal what fell due in it (a turn's timeout penalty): only the one
    # "quick" dispense the request made is its answer.
    quick = [e.data["cards"] for e in stepped.of("dispense") if e.data["reason"] == "quick"]
    dealt = quick[0] if quick else 0
    assert isinstance(dealt, int)
    if not dealt:
        raise MessageRefused(
            f"dispense: none dealt; the launcher owes {launcher.owed} cards already, "
            f"the most it owes (a whole deck)"
        )
    if dealt < asked:
        cut = f"dispense: {dealt} of {asked} cards dealt; the launcher owes {MAX_OWED} at most"
        return Done(f"{cut} (a whole deck)", whole=False)
    return Done()


def _evening(asked: NameSeat | EnterPoints, stepped: Stepped) -> Done:
    """A name or a hand's points: taken, or refused with the table's reason."""
    table = stepped.table
    if isinstance(asked, NameSeat):
        if stepped.of("seat_named"):
            return Done()
        why = seat_names.why_not(table, asked.seat)
        if why is None:  # the seat had that name already
            return Done(f"name: seat {asked.seat} is called that already")
        raise MessageRefused(f"name: {why}")
    if stepped.of("points_entered"):
        return Done()
    # Points the table may take are taken, but the step may go on past the moment the points
    # came (the loop's clock read again): a round won in that moment waits for them now.
    why = score.why_not(table, asked.seat) or "no round was waiting for its points as they came"
    raise MessageRefused(f"points: {why}")
