"""MQTT with many tables in one process, against one local Mosquitto (started here, on a
free loopback port), for 1, 10, 50 and 100 simulated tables:

- event publish -> receive latency, p50 and p99: from the moment a daemon announces an
  event to the moment a scoreboard has it (bench/mqtt_scoreboard.py, a subscriber in its
  own process, as a café's scoreboard would be: on the tables' event loop, paho would read
  it one packet per pass of that loop, and the figure would be the loop's, not MQTT's);
- CPU per table while every table plays, with MQTT on and, as the baseline, off; and
  while every table is connected and idle;
- press -> light latency on one more table while the others play, MQTT on against off.

Every table plays RATE taps a second unless told (a seat claimed or freed: one event and one
change of `state` each), the tables spread evenly over the second. A busy real table sends
about one event a second, and a burst of `card_out` while the launcher deals.

Usage: python bench/mqtt_tables.py [counts, e.g. 1,10,50,100] [seconds of play] [taps/s]
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.config import Config, MqttConfig
from controller.shell.publish import GameEvent
from controller.simulation.table import SimTable
from tests.ports import free_port

RATE = 2.0  # taps a second, each table, unless told
IDLE_WINDOW = 2.0  # seconds of idle CPU measured
PRESSES = 100  # press -> light samples, each run


def start_broker(directory: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    conf = directory / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\nuser root\n")
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    broker = subprocess.Popen([mosquitto, "-c", str(conf)], stderr=subprocess.DEVNULL)
    for _ in range(500):
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return broker, port
        time.sleep(0.01)
    raise SystemExit("mosquitto did not start")


def start_scoreboard(port: int) -> subprocess.Popen:
    script = Path(__file__).with_name("mqtt_scoreboard.py")
    board = subprocess.Popen(
        [sys.executable, str(script), str(port)], stdout=subprocess.PIPE, text=True
    )
    assert board.stdout is not None
    if board.stdout.readline().strip() != "ready":
        raise SystemExit("the scoreboard did not start")
    return board


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Run:
    """What one run of `count` tables measured."""

    cpu_playing: float  # % of one core, each table
    cpu_idle: float
    press_to_light: list[float]  # ms
    announced: dict[tuple[str, int], int]  # (table, seq) -> monotonic ns, while playing


async def play(tables: list[SimTable], rate: float) -> None:
    """Every table taps seat 1 `rate` times a second, the tables spread over the second."""
    loop = asyncio.get_running_loop()

    async def player(table: SimTable, start: float) -> None:
        due = start
        while True:
            await asyncio.sleep(max(0.0, due - loop.time()))
            await table.tap("seat1")
            due += 1 / rate

    start = loop.time()
    await asyncio.gather(*(player(t, start + n / rate / len(tables)) for n, t in enumerate(tables)))


async def press_to_light(table: SimTable) -> list[float]:
    """Milliseconds from a seat button's edge to its light changing (seating: claim, free)."""
    taken = []
    pin = table.pin("seat1")
    for _ in range(PRESSES):
        before = table.light(1)
        start = time.perf_counter()
        pin.drive_low()
        while table.light(1) == before:
            await asyncio.sleep(0)
        taken.append(1000 * (time.perf_counter() - start))
        await table.advance(0.1)
        pin.drive_high()
        await table.advance(0.1)
        await asyncio.sleep(0.01)
    return taken


def cpu_share(since: tuple[float, float], tables: int) -> float:
    cpu, wall = since
    return 100 * (time.process_time() - cpu) / (time.perf_counter() - wall) / tables


def clocks() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


async def run(count: int, seconds: float, rate: float, port: int | None) -> Run:
    mqtt = None if port is None else MqttConfig(host="127.0.0.1", port=port, keepalive=30)
    name = "on" if mqtt else "off"
    announced: dict[tuple[str, int], int] = {}
    async with contextlib.AsyncExitStack() as stack:
        tables = []
        for n in range(count + 1):
            table_id = f"{name}{count}-{n}"
            config = Config(table_id=table_id, seats=2, mqtt=mqtt)
            table = await stack.enter_async_context(SimTable(config, seed=n))

            def note(event: GameEvent, table_id: str = table_id) -> None:
                announced[(table_id, event.seq)] = time.monotonic_ns()

            table.daemon.publisher.listen(note)
            tables.append(table)
        pressed = tables.pop()
        while mqtt and not all(t.link and t.link.connected for t in [*tables, pressed]):
            await asyncio.sleep(0.05)
        announced.clear()

        playing = asyncio.create_task(play(tables, rate))
        since = clocks()
        await asyncio.sleep(seconds)
        cpu_playing = cpu_share(since, count)
        measured = dict(announced)
        taken = await press_to_light(pressed)
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await playing
        for table in tables:
            if table.link is not None:
                await table.link.outbox.emptied()

        await asyncio.sleep(0.5)
        since = clocks()
        await asyncio.sleep(IDLE_WINDOW)
        cpu_idle = cpu_share(since, count)
    return Run(cpu_playing, cpu_idle, taken, measured)


def arrivals(board: subprocess.Popen) -> dict[tuple[str, int], int]:
    board.terminate()
    out, _ = board.communicate(timeout=30)
    arrived = {}
    for line in out.splitlines():
        table, seq, when = line.split()
        arrived.setdefault((table, int(seq)), int(when))  # a repeat (at least once) is late
    return arrived


def spread(values: list[float], digits: int) -> str:
    return f"{percentile(values, 0.5):7.{digits}f} {percentile(values, 0.99):7.{digits}f}"


def report(count: int, on: Run, off: Run, arrived: dict[tuple[str, int], int]) -> None:
    ms = [(arrived[k] - sent) / 1e6 for k, sent in on.announced.items() if k in arrived]
    lost = len(on.announced) - len(ms)
    print(
        f"{count:>6} {len(ms):>7} {lost:>5}  {spread(ms, 2)}"
        f"   {on.cpu_playing:6.2f} {off.cpu_playing:6.2f} {on.cpu_idle:6.3f}"
        f"  {spread(on.press_to_light, 3)} {spread(off.press_to_light, 3)}"
    )


def main() -> None:
    counts = [int(n) for n in (sys.argv[1] if len(sys.argv) > 1 else "1,10,50,100").split(",")]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    rate = float(sys.argv[3]) if len(sys.argv) > 3 else RATE
    load = os.getloadavg()[0]
    print(
        f"{rate:g} taps/s each table (an event and a state change each), {seconds:g} s of play"
        f"; load average {load:.2f} on {os.cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory() as directory:
        broker, port = start_broker(Path(directory))
        board = start_scoreboard(port)
        try:
            runs = [
                (
                    count,
                    asyncio.run(run(count, seconds, rate, port)),
                    asyncio.run(run(count, seconds, rate, None)),
                )
                for count in counts
            ]
            arrived = arrivals(board)
        finally:
            board.kill()
            broker.terminate()
            broker.wait()
    print(
        "event latency (publish -> receive) and press -> light in ms, p50 and p99;"
        " CPU per table in % of one core: playing with MQTT on and off, idle with MQTT on"
    )
    print(
        f"{'tables':>6} {'events':>7} {'lost':>5}  {'event latency':>15}"
        f"   {'CPU on':>6} {'off':>6} {'idle':>6}  {'press->light on':>15} {'off':>15}"
    )
    for count, on, off in runs:
        report(count, on, off, arrived)


if __name__ == "__main__":
    main()
