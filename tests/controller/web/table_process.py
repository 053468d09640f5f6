"""`flashtable run --sim` with a hand on its buttons, for the browser tests and the bench.

The daemon runs as `flashtable run --sim` runs it (its own command line, loop, signals and
log), with its `[web]` page; a thread reads one command a line on stdin and acts as a
player's finger would, on the simulated pins, from a thread of its own as a GPIO backend's
callbacks come. Each command is answered by one line on stdout, "driver: ..." (the log
shares stdout). Commands are taken once the table has taken its first steps, and a button's
or the encoder's is answered once the table has handled every edge it made: what is read
next (the lights, the LCD) is the table's answer to it.
  tap NAME | press NAME | release NAME   a button: seat1..seat8, slap, launcher, play_pause,
                                          encoder.push
  turn N                                  the encoder, N detents (negative: back)
  jam | clear                             a card sticks in the launcher's slot, or comes free
  deal N                                  the launcher deals N cards, as the menu's dispense
  name SEAT TEXT | points SEAT P          a player's name, a hand's card points, as a remote
  lcd                                     "driver: LINE1|LINE2", what the LCD shows
  setting KEY                             "driver: VALUE", the table's setting now
  lights                                  "driver: PATTERN PATTERN ...", seat 1 first
  timed NAME                              a tap, answered "driver: PRESSED LIT": the wall
                                          clock (time.time) at the press, and when a light's
                                          pin first moved for a new pattern (0: none did)
Usage: python table_process.py [flashtable run options]
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import controller.commands.run
from controller import main
from controller.game import score
from controller.requests import DealCards, EnterPoints, NameSeat
from controller.shell.daemon import Daemon
from hardware.sim.launcher_model import LauncherModel

TAP = 0.06  # seconds a finger stays on a button, and lets it be after
DETENT = 0.003  # seconds between the contacts of one encoder detent

built: dict[str, Any] = {}
ready = threading.Event()
_build = controller.commands.run.build_daemon
_model = LauncherModel.for_pinmap


def keep_daemon(*args: Any, **options: Any) -> Daemon:
    daemon = _build(*args, **options)
    built["daemon"], built["loop"] = daemon, asyncio.get_running_loop()
    ready.set()
    return daemon


def keep_model(*args: Any, **options: Any) -> LauncherModel:
    built["launcher"] = model = _model(*args, **options)
    return model


def awaited(work: Coroutine[Any, Any, object]) -> object:
    """`work` run on the table's loop, from this thread; its result."""
    return asyncio.run_coroutine_threadsafe(work, built["loop"]).result(10)


def on_loop(work: Callable[[], object]) -> object:
    async def run() -> object:
        return work()

    return awaited(run())


def handled() -> None:
    """Wait until the table has handled every edge and request handed to it so far."""
    daemon: Daemon = built["daemon"]
    awaited(daemon.idle())


def say(text: str) -> None:
    sys.stdout.write(f"driver: {text}\n")
    sys.stdout.flush()


def act(words: list[str]) -> str:
    daemon: Daemon = built["daemon"]
    inputs = daemon.board.inputs
    verb, arg = words[0], words[1] if len(words) > 1 else ""
    if verb in ("tap", "press", "release"):
        pin = inputs[arg].pin
        if verb in ("tap", "press"):
            pin.drive_low()
            time.sleep(TAP)
        if verb in ("tap", "release"):
            pin.drive_high()
            time.sleep(TAP)
        handled()
    elif verb == "turn":
        steps = int(arg)
        a, b = daemon.board.encoder.a.pin, daemon.board.encoder.b.pin
        first, second = (a, b) if steps > 0 else (b, a)
        for _ in range(abs(steps)):
            for drive in (first.drive_low, second.drive_low, first.drive_high, second.drive_high):
                drive()
                time.sleep(DETENT)
        time.sleep(TAP)
        handled()
    elif verb in ("jam", "clear"):
        model: LauncherModel = built["launcher"]
        on_loop(model.jam if verb == "jam" else model.clear_jam)
    elif verb == "name":
        on_loop(lambda: daemon.handle(NameSeat(int(arg), " ".join(words[2:]))))
    elif verb == "points":
        on_loop(lambda: daemon.handle(EnterPoints(int(arg), int(words[2]))))
    elif verb == "deal":
        on_loop(lambda: daemon.handle(DealCards(int(arg), "quick")))
    elif verb == "timed":
        return timed_tap(daemon, inputs[arg].pin)
    elif verb == "lcd":
        shown = on_loop(lambda: daemon.publisher.shown)
        return "|".join(shown.view.lines) if shown is not None else ""
    elif verb == "setting":
        return str(on_loop(lambda: daemon.table.settings[arg]))
    elif verb == "total":
        return str(on_loop(lambda: score.totals(daemon.table).get(int(arg), 0)))
    elif verb == "lights":
        lights = daemon.board.lights
        return " ".join(on_loop(lambda: [lights[s].pattern.value for s in sorted(lights)]))  # type: ignore[arg-type]
    else:
        return f"unknown command {verb!r}"
    return "done"


def timed_tap(daemon: Daemon, pin: Any) -> str:
    lights = daemon.board.lights
    before = {seat: light.pattern for seat, light in lights.items()}
    lit = threading.Event()
    stamp = [0.0]

    def moved(seat: int) -> None:  # on the loop, as the light's pin changes level
        if not lit.is_set() and lights[seat].pattern != before[seat]:
            stamp[0] = time.time()
            lit.set()

    watchers = [(lights[s].pin, lambda level, s=s: moved(s)) for s in lights]
    on_loop(lambda: [light_pin.listeners.append(w) for light_pin, w in watchers])
    pressed = time.time()
    pin.drive_low()
    lit.wait(5.0)
    time.sleep(TAP)
    pin.drive_high()
    time.sleep(TAP)
    on_loop(lambda: [light_pin.listeners.remove(w) for light_pin, w in watchers])
    return f"{pressed:.6f} {stamp[0]:.6f}"


def drive() -> None:
    ready.wait()
    handled()  # the first steps taken: a button held now is a press, not one stuck at start
    for line in sys.stdin:
        words = line.split()
        if words:
            say(act(words))


if __name__ == "__main__":
    controller.commands.run.build_daemon = keep_daemon
    LauncherModel.for_pinmap = keep_model  # type: ignore[method-assign]
    threading.Thread(target=drive, daemon=True).start()
    sys.exit(main(["run", "--sim", *sys.argv[1:]]))
