"""The launcher on screen: the hopper's cards, the count shot out, cards in flight, the motor.

The counts and the motor come from the simulated launcher's mechanics (what the beam really
counted, what is really left in the hopper); the chime and the cards still owed come from
the game, as the daemon keeps them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from controller.catalogs import N_, Words, translation
from controller.simulation.table import SimTable

from .buttons import TableButton
from .faults import FULL_DECK

FULL_HOPPER = FULL_DECK  # the gauge is full with one deck in the hopper
HOPPER_CELLS = 12
FLIGHT_TIME = 0.8  # game seconds a card is drawn flying out of the slot
FLIGHT_TRACK = 16  # cells after the slot that the cards fly across
MOST_CARDS_DRAWN = 6  # a burst counted in one frame is drawn as at most this many cards
# Enter on a jam is what a person does there: free the card, then OK (`c` frees it alone).
FAULT_KEYS_TEXT = N_("j jam   c clear\ne empty r refill\n⏎ JAM: clear, OK")


@dataclass(frozen=True)
class Reading:
    """What the launcher shows at one moment; `out` and `left` are None with no launcher."""

    out: int | None
    left: int | None
    motor: float = 0.0  # net drive, -1.0 (backwards) to 1.0
    jammed: bool = False  # a card is stuck in the slot
    owed: int = 0  # cards the game still waits for
    chiming: bool = False  # a hit's chime is sounding


def reading(table: SimTable) -> Reading:
    """The launcher of a running simulated table, as it is now."""
    game = table.daemon.table.launcher
    model = table.launcher
    if model is None:
        return Reading(None, None, owed=game.owed, chiming=bool(game.chimes))
    return Reading(
        out=model.cards_out,
        left=model.cards_left,
        motor=model.motor_speed,
        jammed=model.jammed,
        owed=game.owed,
        chiming=bool(game.chimes),
    )


def hopper_text(left: int | None, words: Words | None = None) -> str:
    """`hopper ▮▮▮▮▮▯▯▯▯▯▯▯  22`: a gauge and the cards left, or `--` with no model."""
    hopper = (words or translation("en")).gettext("hopper")
    if left is None:
        return f"{hopper}  --"
    filled = min(HOPPER_CELLS, math.ceil(max(left, 0) / FULL_HOPPER * HOPPER_CELLS))
    return f"{hopper} {'▮' * filled}{'▯' * (HOPPER_CELLS - filled)} {left:>3}"


def flight_text(
    out: int | None, flights: Sequence[tuple[float, int]] = (), words: Words | None = None
) -> str:
    """`out   12 ⊐  ▭ ▭▭`: the cards counted out and the cards still flying from the slot.

    Each flight is (progress from 0 to 1, cards that left together); a card moves away from
    the slot as its flight progresses and is gone at 1.
    """
    counted = (words or translation("en")).gettext("out")
    if out is None:
        return f"{counted}     --"
    track = [" "] * FLIGHT_TRACK
    for progress, cards in flights:
        if cards <= 0 or not 0 <= progress < 1:
            continue
        start = 1 + int(progress * (FLIGHT_TRACK - 1))
        for cell in range(start, min(start + min(cards, MOST_CARDS_DRAWN), FLIGHT_TRACK)):
            track[cell] = "▭"
    return f"{counted}  {out:>4} ⊐{''.join(track)}".rstrip()


def motor_text(speed: float, jammed: bool = False, words: Words | None = None) -> str:
    """`motor ▶ running`, `motor ◀ reverse` or `motor ■ stopped`, and whether the slot jams."""
    t = words or translation("en")
    if speed > 0:
        text = t.gettext("motor ▶ running")
    elif speed < 0:
        text = t.gettext("motor ◀ reverse")
    else:
        text = t.gettext("motor ■ stopped")
    return f"{text} · " + t.gettext("JAM") if jammed else text


def title_text(owed: int, chiming: bool, words: Words | None = None) -> str:
    """The panel's title: `launcher`, with the chime while it sounds and the cards owed."""
    t = words or translation("en")
    parts = [t.gettext("launcher")]
    if chiming:
        parts.append(t.gettext("♪ chime"))
    if owed:
        parts.append(t.gettext("{cards} owed").format(cards=owed))
    return " · ".join(parts)


class LauncherPanel(Vertical):
    """The card launcher: its button, hopper gauge, out counter with cards in flight, motor."""

    DEFAULT_CSS = """
    LauncherPanel { height: 7; border: round $foreground 60%; padding: 0 1; }
    LauncherPanel > Static { height: 1; }
    LauncherPanel > Horizontal { height: 3; }
    LauncherPanel #faults { width: 1fr; height: 3; content-align: right middle; }
    """

    def __init__(self) -> None:
        super().__init__(id="launcher_panel")
        self.border_title = title_text(0, False)
        self.border_subtitle = motor_text(0.0)
        self.shown = Reading(None, None)
        # Cards counted out between two frames leave together: (when seen, how many).
        self._flights: list[tuple[float, int]] = []
        self._lines: tuple[str, str] | None = None
        self._words: Words | None = None  # the language the fixed texts are in

    def compose(self) -> ComposeResult:
        yield Static(hopper_text(None), id="hopper")
        yield Static(flight_text(None), id="flight")
        with Horizontal():
            yield TableButton("launcher", "LAUNCH", id="launcher")
            yield Static(FAULT_KEYS_TEXT, id="faults")

    def show(self, now: Reading, game_time: float, words: Words) -> None:
        """Show the launcher as `now`, in the language of `words`; cards counted since the
        last call start flying."""
        before = self.shown.out
        if now.out is not None and before is not None and now.out > before:
            self._flights.append((game_time, now.out - before))
        self._flights = [(t, n) for t, n in self._flights if game_time - t < FLIGHT_TIME]
        self.shown = now
        flying = [((game_time - t) / FLIGHT_TIME, n) for t, n in self._flights]
        lines = (hopper_text(now.left, words), flight_text(now.out, flying, words))
        if lines != self._lines:
            self._lines = lines
            self.query_one("#hopper", Static).update(lines[0])
            self.query_one("#flight", Static).update(lines[1])
        if words is not self._words:
            self._words = words
            self.query_one("#faults", Static).update(words.gettext(FAULT_KEYS_TEXT))
            self.query_one("#launcher", TableButton).update(words.gettext("LAUNCH"))
        title = title_text(now.owed, now.chiming, words)
        if title != self.border_title:
            self.border_title = title
        subtitle = motor_text(now.motor, now.jammed, words) if now.out is not None else None
        if subtitle != self.border_subtitle:
            self.border_subtitle = subtitle
