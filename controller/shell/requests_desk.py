"""How the daemon carries out a request from outside its pins (the menu's, and through
`submit` a remote's, the shell's, the view's): a game command or a deal is one engine step,
answered with what that step did; a settings request is kept and stepped in as one
`Configure`, answered with the settings after it; the link's status only goes on the Info
screen."""

from __future__ import annotations

from typing import Protocol, assert_never

from hardware.clock import Clock

from ..game import Configure, Event, Table
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
from .publish import GameEvent, Stepped
from .renderer import Renderer
from .settings_keeper import SettingsKeeper


class Daemon(Protocol):
    """The daemon as a request needs it."""

    clock: Clock
    table: Table
    mqtt_status: str
    settings_keeper: SettingsKeeper
    renderer: Renderer

    def feed(self, event: Event) -> list[GameEvent]: ...

    def refresh(self) -> None: ...


def carry_out(daemon: Daemon, request: Request, *, by_hand: bool) -> Settings | Stepped | None:
    """`request` carried out now, on the loop; `by_hand`: asked at the table's own menu."""
    now = daemon.clock.now()
    match request:
        case GameCommand() | NameSeat() | EnterPoints():
            return Stepped(tuple(daemon.feed(request.event(now))), daemon.table)
        case DealCards():
            return Stepped(tuple(daemon.feed(request.event(now, by_hand=by_hand))), daemon.table)
        case ShowLinkStatus():
            daemon.mqtt_status = request.status
            daemon.refresh()
        case ChangeSettings() | ResetSettings() | RereadSettings():
            settings, notice = daemon.settings_keeper.answer(request, daemon.table.settings)
            if notice is not None:
                daemon.renderer.notice(notice)
            if settings != daemon.table.settings:
                daemon.feed(Configure(settings, now, by_hand))
            return daemon.table.settings
        case _:
            assert_never(request)
    return None
