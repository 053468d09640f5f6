"""A table that plays by itself, for the crash test: the real daemon on simulated pins and
virtual time, each game in its own process, on a state directory, until it is killed.

One server process pays for the imports once and forks a fresh process for each game, whose
pid is its first line. Each game prints one line a fact, unbuffered, so that a SIGKILL loses
nothing it has printed:
  pid 4242                                                 the game's process
  start seated=1,2 phase=paused seat=2 left=3.41 owed=0   what it resumed
  state seat=2 left=3.41 owed=0 flight=0                  after each step of play
                                                            (flight: a card on its way)
  press 2 / play                                          before a press that moves the turn
  timeout                                                 before the turn's time runs out
  ask 4 / asked 4                                          around a quick dispense
  setting timer=7 / set timer=7                            around a change of settings
  out 7                                                    cards out of the slot so far
and when its process has ended, the server says "ended STATUS". With "finish" a game deals
what is owed, plays no more, and stops cleanly ("done").

Virtual time runs far faster than any disk, so before each state line the game waits until
the snapshot's writer has written what it was handed: the state on the disk is then what it
is on a table whose disk keeps up with play, which is what a real table's is.

The game plays as people do, so that each line means what it says. A finger lifted from a
button comes back no sooner than the debounce window: pressed again at once, the press would
be bounce until the window closes, and would move the turn only then, after a state line
(hardware/debounce.py). Someone tops up the hopper before it runs out: a game goes on past
the line its kill comes at (the test reads behind it), and an empty hopper would wait for an
OK that no one here presses.

Usage: python crash_table.py STATE_DIR, then one line per game on stdin: SEED [finish]
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import traceback
from pathlib import Path

from controller.config import Config
from controller.game.state import Phase
from controller.requests import ChangeSettings, DealCards
from controller.settings import Settings
from controller.simulation.table import SimTable
from hardware.debounce import DEBOUNCE_WINDOW

# The config says flash mode; the first game sets table mode, which only settings.json keeps.
SETTINGS = Settings(
    {
        "mode": "flash",
        "turn_timer": 6,
        "timeout_penalty": 0,
        "slap_penalty": 0,
        "sleep_time": "off",
    }
)
HOPPER = 54  # a deck's worth, as the simulated launcher starts with
LOW = 20  # topped up below this: more than a game deals in one step


def say(line: str) -> None:
    os.write(1, line.encode() + b"\n")


class Player:
    def __init__(self, table: SimTable) -> None:
        self.t = table
        self.out = 0

    def cards(self) -> None:
        model = self.t.launcher
        assert model is not None
        if model.cards_out != self.out:
            self.out = model.cards_out
            say(f"out {self.out}")
        if model.cards_left < LOW:
            model.refill(HOPPER - model.cards_left)

    def left(self) -> str:
        game = self.t.daemon.table
        if game.phase is Phase.PAUSED:
            left = game.paused_left
        elif game.phase is Phase.TURN and game.turn and game.turn.deadline is not None:
            left = game.turn.deadline - self.t.now
        else:
            return "left=- seat=-"
        seat = game.turn.seat if game.turn else "-"
        return f"left={'-' if left is None else f'{left:.3f}'} seat={seat}"

    def state(self, word: str = "state") -> None:
        self.t.daemon.snapshots.wait()
        game = self.t.daemon.table
        ejector = self.t.daemon.launcher.ejector
        assert ejector is not None
        seated = ",".join(map(str, sorted(game.seated)))
        flight = ejector.in_flight  # a card the record already counts as dealt
        say(
            f"{word} seated={seated} phase={game.phase.value} {self.left()} "
            f"owed={game.launcher.owed} flight={flight} "
            f"mode={game.settings.mode} timer={game.settings.turn_timer}"
        )

    async def advance(self, seconds: float) -> None:
        """Virtual time, with a line for every card out and the time left as it goes."""
        end = self.t.now + seconds
        await self.t.settle()
        while (due := self.t.clock.next_due()) is not None and due <= end:
            # A step at or past the running turn's deadline ends the turn and moves it, as a
            # press does: said before, since a kill can come once that step's snapshot is on
            # the disk and before its line. (A paused turn keeps its old deadline: not due.)
            game = self.t.daemon.table
            deadline = game.turn.deadline if game.phase is Phase.TURN and game.turn else None
            if deadline is not None and deadline <= due:
                say("timeout")
            self.t.clock.run_next(end)
            self.cards()
            await self.t.settle()
            self.cards()
            self.state()
        self.t.clock.set(max(end, self.t.now))
        await self.t.settle()

    async def tap(self, name: str) -> None:
        await self.t.press(name)
        await self.advance(0.05)
        await self.t.release(name)
        await self.advance(DEBOUNCE_WINDOW)


def change(t: SimTable, name: str, value: object) -> None:
    say(f"setting {name}={value}")
    t.daemon.handle(ChangeSettings({"turn_timer" if name == "timer" else name: value}))
    say(f"set {name}={value}")


async def main(state_dir: Path, seed: int, finish: bool) -> None:
    rng = random.Random(seed)
    async with SimTable(Config(seats=4, settings=SETTINGS), seed=seed, state_dir=state_dir) as t:
        p = Player(t)
        p.state("start")
        if finish:
            await p.advance(30.0)
            p.state()
            say("done")
            return
        if t.daemon.table.settings.mode != "table":
            change(t, "mode", "table")
        while True:
            game = t.daemon.table
            idle = game.launcher.owed == 0 and not (t.launcher and t.launcher.card_in_slot)
            if game.phase is Phase.SEATING:
                for seat in range(1, 5):
                    if seat not in game.seated:
                        await p.tap(f"seat{seat}")
                        p.state()
                say("play")
                await p.tap("play_pause")
            elif game.phase is Phase.PAUSED:
                say("play")
                await p.tap("play_pause")
            elif idle and rng.random() < 0.3:
                cards = rng.choice([2, 3, 4, 6])
                say(f"ask {cards}")
                t.daemon.handle(DealCards(cards, "quick"))
                say(f"asked {cards}")
            elif rng.random() < 0.03:
                change(t, "timer", rng.choice([5, 6, 7, 8]))
            elif game.phase is Phase.TURN and game.turn is not None and rng.random() < 0.3:
                say(f"press {game.turn.seat}")
                await p.tap(f"seat{game.turn.seat}")
            else:
                await p.advance(rng.uniform(0.05, 0.5))
            p.state()


def serve(state_dir: Path) -> None:
    for line in sys.stdin:
        seed, *rest = line.split()
        pid = os.fork()
        if pid == 0:  # the game's process: it never goes back into the server's loop
            try:
                say(f"pid {os.getpid()}")
                asyncio.run(main(state_dir, int(seed), "finish" in rest))
            except BaseException:
                traceback.print_exc()
                os._exit(1)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        say(f"ended {status}")


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
