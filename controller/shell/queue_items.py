"""What the daemon does with each item off its queue: a switch's edge is debounced into
presses and releases (unless the panel claims it: the encoder's push, a light test), a
launcher's own edge goes to the launcher, a wakeup steps the engine caught up to the
present as far as the edges allow, a launcher's report is the game's event, and a request
from outside the pins is carried out and answered."""

from __future__ import annotations

from typing import Protocol, assert_never

from hardware.debounce import Change
from hardware.ejector import CardCounted, Halted

from ..game import Event, Press, Release, Tick
from ..requests import Request
from .inbox import Asked, Call, Edge, EncoderTurn, Item, Settle, Stop, Wake
from .launcher_link import LauncherLink
from .panel import Panel
from .switches import Switches
from .wakeup import Wakeup


class Daemon(Protocol):
    """The daemon as its items need it."""

    switches: Switches
    wakeup: Wakeup
    launcher: LauncherLink
    panel: Panel

    def feed(self, event: Event) -> object: ...

    def refresh(self) -> None: ...

    def known_now(self) -> float: ...

    def handle(self, request: Request, *, by_hand: bool = False) -> object: ...


def handle(daemon: Daemon, item: Item) -> None:
    """Carry out one item, on the loop."""
    match item:
        case Edge() if item.input in daemon.switches:
            changed(daemon, item.input, daemon.switches.edge(item.input, item.active, item.time))
        case Edge():
            daemon.launcher.edge(item.input, item.active, item.time)
            if item.input == "launcher.beam" and daemon.panel.testing == "beam":
                daemon.refresh()
        case Settle():
            changed(daemon, item.input, daemon.switches.settled(item.input, item.window))
        case Wake():
            daemon.wakeup.fired()
            daemon.feed(Tick(daemon.known_now()))
        case CardCounted() | Halted():
            daemon.feed(daemon.launcher.event_for(item))
        case Call():
            item.work()
        case EncoderTurn():
            daemon.panel.encoder_turned(item.steps)
        case Asked():
            item.carry_out(daemon.handle)
        case Stop():
            pass  # the inbox ends `serve` at a Stop before it reaches here
        case _:
            assert_never(item)


def changed(daemon: Daemon, name: str, changes: list[Change]) -> None:
    """A switch's debounced changes, each a press or a release unless the panel claims it."""
    for change in changes:
        if not daemon.panel.claims(name, change):
            daemon.feed((Press if change.active else Release)(name, change.time))
