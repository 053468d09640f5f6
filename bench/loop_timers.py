"""How punctual the daemon's loop is on each selector it could wait on: select(2) (the
table's before: descriptors below 1024 only), epoll (asyncio's default: its timeout in whole
milliseconds, rounded up), and `PunctualSelector` (the table's: epoll holds the descriptors,
select(2) on epoll's own times the wait).

For each, in the loop's thread with the table's timer slack (a microsecond):
- timer lateness: a loop timer set 0.2 to 5 ms ahead, from its due time to its callback;
- hand-off: from another thread's `call_soon_threadsafe` to the callback on the loop (the way
  every press reaches the daemon);
each with the loop holding a handful of descriptors, and again with 300 idle connections
registered (the page's bound). The selectors take turns, in rounds, so that each sees the
same moments of a shared machine.
Usage: python bench/loop_timers.py [samples per selector and case] [rounds]
"""

from __future__ import annotations

import asyncio
import random
import selectors
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from figures import ms_line, spread  # noqa: E402

from controller.commands.punctual_selector import PunctualSelector  # noqa: E402
from controller.commands.run import punctual_timers  # noqa: E402

SAMPLES = 3000
ROUNDS = 5
AHEAD = (0.000_2, 0.005)  # seconds a timer is set ahead
IDLE = 300  # connections registered, never readable
SELECTORS: dict[str, Callable[[], selectors.BaseSelector]] = {
    "select": selectors.SelectSelector,
    "epoll": selectors.EpollSelector,
    "epoll + select (the table's)": PunctualSelector,
}


def timer_lateness(loop: asyncio.AbstractEventLoop, count: int) -> list[float]:
    """`count` timers one after another, each set a random while ahead: how late each ran."""
    late: list[float] = []
    done = loop.create_future()

    def arm() -> None:
        due = time.monotonic() + random.uniform(*AHEAD)
        loop.call_at(loop.time() + (due - time.monotonic()), ran, due)

    def ran(due: float) -> None:
        late.append(time.monotonic() - due)
        if len(late) < count:
            arm()
        else:
            done.set_result(None)

    arm()
    loop.run_until_complete(done)
    return late


def hand_offs(loop: asyncio.AbstractEventLoop, count: int) -> list[float]:
    """`count` callbacks handed to the loop from another thread, each after a random pause
    (the loop asleep): from the hand-off to the callback."""
    taken: list[float] = []
    heard = threading.Event()

    def run(sent: float) -> None:
        taken.append(time.monotonic() - sent)
        heard.set()

    def other_thread() -> None:
        for _ in range(count):
            time.sleep(random.uniform(*AHEAD))
            heard.clear()
            loop.call_soon_threadsafe(run, time.monotonic())
            heard.wait()

    thread = threading.Thread(target=other_thread)
    thread.start()
    while thread.is_alive():
        loop.run_until_complete(asyncio.sleep(0.05))
    thread.join()
    return taken


def idle_connections(loop: asyncio.AbstractEventLoop) -> list[socket.socket]:
    """IDLE connected sockets whose far ends never write, registered with the loop."""
    held = []
    for _ in range(IDLE):
        near, far = socket.socketpair()
        loop.add_reader(near.fileno(), lambda: None)
        held += [near, far]
    return held


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else SAMPLES
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else ROUNDS
    slack = "a microsecond" if punctual_timers() else "the kernel's default"
    print(f"timer slack: {slack}; {samples} samples per selector and case, in {rounds} rounds")
    figures: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(rounds):
        for case in ("a handful of descriptors", f"{IDLE} idle connections"):
            for name, make in SELECTORS.items():
                loop = asyncio.SelectorEventLoop(make())
                held = idle_connections(loop) if case != "a handful of descriptors" else []
                try:
                    per = samples // rounds
                    figures.setdefault((case, name, "timer"), []).extend(timer_lateness(loop, per))
                    figures.setdefault((case, name, "hand-off"), []).extend(hand_offs(loop, per))
                finally:
                    for sock in held:
                        if sock.fileno() >= 0:
                            loop.remove_reader(sock.fileno())
                        sock.close()
                    loop.close()
    for case in ("a handful of descriptors", f"{IDLE} idle connections"):
        print(f"[{case}]")
        for what, title in (("timer", "timer lateness"), ("hand-off", "thread -> loop")):
            base = spread(figures[(case, "select", what)])
            for name in SELECTORS:
                got = figures[(case, name, what)]
                p50, p99, _ = spread(got)
                ratio = f"against select: p50 {p50 / base[0]:.2f}x, p99 {p99 / base[1]:.2f}x"
                print(f"  {ms_line(f'{title}, {name}', got)}; {ratio}")


if __name__ == "__main__":
    main()
