"""A round for places that plays by itself on a state directory until it is killed, for the
crash test of places: the real daemon on simulated pins and virtual time, in a process of its
own. It prints one line a fact, unbuffered, so that a SIGKILL loses nothing it printed:
  start phase=paused places=3,1 lit=2     what it resumed (places first place first)
  holding 3 / placed 3                     around a hold that takes a place
  press 2                                  before a press that moves the turn
  state places=3 lit=2                     after each step of play
  over places=3,1,2,4                      the round is over: the game ends
Before each line the game waits until the snapshot's writer has written what it was handed.
No turn timer: a turn moves only on a press or a place taken, each said before it happens.
A game takes two places at most, so that it is killed with the round still going; with
"finish" it plays the round to its end.
Usage: python places_crash_table.py STATE_DIR SEED [finish]
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

from controller.config import Config
from controller.game.holds import WIN_HOLD
from controller.game.state import Phase
from controller.settings import Settings
from controller.simulation.table import SimTable

SEATS = (1, 2, 3, 4)
SETTINGS = Settings({"finish": "places", "mode": "flash", "turn_timer": "off", "sleep_time": "off"})


def say(line: str) -> None:
    os.write(1, line.encode() + b"\n")


def seats(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values)) or "-"


async def main(state_dir: Path, seed: int, finish: bool) -> None:
    rng = random.Random(seed)
    async with SimTable(Config(seats=4, settings=SETTINGS), seed=seed, state_dir=state_dir) as t:
        game = t.daemon.table
        lit = game.turn.seat if game.turn is not None else "-"
        say(f"start phase={game.phase.value} places={seats(game.places)} lit={lit}")
        if game.phase is Phase.SEATING:
            for seat in SEATS:
                await t.tap(f"seat{seat}")
        await t.tap("play_pause")  # starts the round, or resumes the one kept
        while True:
            game = t.daemon.table
            if game.phase is Phase.ROUND_OVER:
                t.daemon.snapshots.wait()
                say(f"over places={seats(game.places)}")
                return
            if game.phase is Phase.PAUSED:
                await t.tap("play_pause")
                continue
            room = finish or len(game.places) < 2
            if game.phase is Phase.TURN and room and rng.random() < 0.12:
                leaving = rng.choice(sorted(game.in_play))
                say(f"holding {leaving}")
                await t.hold(f"seat{leaving}", WIN_HOLD + 0.1)
                t.daemon.snapshots.wait()
                if t.daemon.table.phase is not Phase.ROUND_OVER:
                    say(f"placed {leaving}")
                continue
            if game.phase is Phase.TURN and game.turn is not None:
                await t.advance(rng.uniform(0.1, 1.0))
                say(f"press {game.turn.seat}")
                await t.tap(f"seat{game.turn.seat}")
            else:
                await t.advance(0.5)  # a penalty screen
            game = t.daemon.table
            t.daemon.snapshots.wait()
            lit = game.turn.seat if game.turn is not None else "-"
            say(f"state places={seats(game.places)} lit={lit}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), "finish" in sys.argv[3:]))
