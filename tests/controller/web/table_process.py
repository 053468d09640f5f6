"""`flashtable run --sim` with a hand on its buttons, for the browser tests and the bench.

The daemon runs as `flashtable run --sim` runs it (its own command line, loop, signals and
log), with its `[web]` page; a thread reads one command a line on stdin and acts as a
player's finger would, on the simulated pins, from a thread of its own as a GPIO backend's
callbacks come. Each command is answered by one line on stdout, "driver: ..." (the log
shares stdout).
  tap NAME | press NAME | release NAME   a button: seat1..seat8, slap, launcher, play_pause,
                                          encoder.push
  turn N                                  the encoder, N detents (negative: back)
  jam | clear                             a card sticks in the launcher's slot, or comes free
  lcd                                     "driver: LINE1|LINE2", what the LCD shows
  setting KEY                             "driver: VALUE", the table's setting now
  lights                                  "driver: PATTERN PATTERN ...", seat 1 first
Usage: python table_process.py [flashtable run options]
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import controller.run
from controller import main
from controller.daemon import Daemon
from hardware.sim.launcher import LauncherModel

TAP = 0.06  # seconds a finger stays on a button, and lets it be after
DETENT = 0.003  # seconds between the contacts of one encoder detent

built: dict[str, Any] = {}
ready = threading.Event()
_build = controller.run.build_daemon
_model = LauncherModel.for_pinmap


def keep_daemon(*args: Any, **options: Any) -> Daemon:
    daemon = _build(*args, **options)
    built["daemon"], built["loop"] = daemon, asyncio.get_running_loop()
    ready.set()
    return daemon


def keep_model(*args: Any, **options: Any) -> LauncherModel:
    built["launcher"] = model = _model(*args, **options)
    return model


def on_loop(work: Callable[[], object]) -> object:
    async def run() -> object:
        return work()

    return asyncio.run_coroutine_threadsafe(run(), built["loop"]).result(10)


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
    elif verb == "turn":
        steps = int(arg)
        a, b = daemon.board.encoder.a.pin, daemon.board.encoder.b.pin
        first, second = (a, b) if steps > 0 else (b, a)
        for _ in range(abs(steps)):
            for drive in (first.drive_low, second.drive_low, first.drive_high, second.drive_high):
                drive()
                time.sleep(DETENT)
        time.sleep(TAP)
    elif verb in ("jam", "clear"):
        model: LauncherModel = built["launcher"]
        on_loop(model.jam if verb == "jam" else model.clear_jam)
    elif verb == "lcd":
        shown = on_loop(lambda: daemon.publisher.shown)
        return "|".join(shown.lines) if shown is not None else ""
    elif verb == "setting":
        return str(on_loop(lambda: daemon.table.settings[arg]))
    elif verb == "lights":
        lights = daemon.board.lights
        return " ".join(on_loop(lambda: [lights[s].pattern.value for s in sorted(lights)]))  # type: ignore[arg-type]
    else:
        return f"unknown command {verb!r}"
    return "done"


def drive() -> None:
    ready.wait()
    for line in sys.stdin:
        words = line.split()
        if words:
            say(act(words))


if __name__ == "__main__":
    controller.run.build_daemon = keep_daemon
    LauncherModel.for_pinmap = keep_model  # type: ignore[method-assign]
    threading.Thread(target=drive, daemon=True).start()
    sys.exit(main(["run", "--sim", *sys.argv[1:]]))
