"""MQTT with many tables in one process, against one local Mosquitto (started here, on a
free loopback port): for 1, 10, 50 and 100 simulated tables,

- event publish -> receive latency, p50 and p99: from the moment the daemon announces an
  event to the moment a subscriber on the same broker has it;
- CPU per table while every table plays (claims and releases a seat, two events a round),
  and while every table is connected and idle;
- press -> light latency on one table, with MQTT on and with it off, in the same run.

Usage: python bench/mqtt_tables.py [counts, e.g. 1,10,50,100] [rounds per table]
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiomqtt

from controller.config import Config, MqttConfig
from controller.publish import GameEvent
from controller.sim import SimTable

IDLE_WINDOW = 3.0  # seconds of idle CPU measured


def start_broker(directory: Path) -> tuple[subprocess.Popen, int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
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


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def press_to_light(table: SimTable, presses: int) -> list[float]:
    """Real seconds from a seat button's edge to its light changing (seating: claim, free)."""
    taken = []
    pin = table.pin("seat1")
    for _ in range(presses):
        before = table.light(1)
        start = time.perf_counter()
        pin.drive_low()
        while table.light(1) == before:
            await asyncio.sleep(0)
        taken.append(time.perf_counter() - start)
        await table.advance(0.1)
        pin.drive_high()
        await table.advance(0.1)
    return taken


async def run(count: int, rounds: int, port: int) -> None:
    mqtt = MqttConfig(host="127.0.0.1", port=port, keepalive=30)
    announced: dict[tuple[str, int], float] = {}
    latencies: list[float] = []
    async with contextlib.AsyncExitStack() as stack:
        watcher = await stack.enter_async_context(
            aiomqtt.Client("127.0.0.1", port, protocol=aiomqtt.ProtocolVersion.V5)
        )
        await watcher.subscribe("flashtable/+/event", qos=1)

        async def receive() -> None:
            async for message in watcher.messages:
                table_id = str(message.topic).split("/")[1]
                payload = message.payload
                assert isinstance(payload, bytes)
                seq = int(payload.split(b'"seq":')[1].split(b",")[0])
                sent = announced.pop((table_id, seq), None)
                if sent is not None:
                    latencies.append(time.perf_counter() - sent)

        receiver = asyncio.create_task(receive())
        tables = []
        for n in range(count):
            table_id = f"bench{n}"
            config = Config(table_id=table_id, seats=2, mqtt=mqtt)
            table = await stack.enter_async_context(SimTable(config, seed=n))

            def note(event: GameEvent, table_id: str = table_id) -> None:
                announced[(table_id, event.seq)] = time.perf_counter()

            table.daemon.publisher.listen(note)
            tables.append(table)
        while not all(t.link and t.link.connected for t in tables):
            await asyncio.sleep(0.05)

        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(rounds):
            await asyncio.gather(*(t.tap("seat1") for t in tables))
        for t in tables:
            assert t.link is not None
            await t.link.outbox.emptied()
        while announced:
            await asyncio.sleep(0.01)
        busy = 100 * (time.process_time() - cpu) / (time.perf_counter() - wall) / count

        await asyncio.sleep(1.0)
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(IDLE_WINDOW)
        idle = 100 * (time.process_time() - cpu) / (time.perf_counter() - wall) / count
        receiver.cancel()
    ms = [1000 * x for x in latencies]
    p50, p99 = percentile(ms, 0.5), percentile(ms, 0.99)
    print(
        f"{count:>4} tables  {len(ms):>6} events  publish->receive p50 {p50:6.2f} ms"
        f"  p99 {p99:7.2f} ms  CPU/table playing {busy:5.2f}%  idle {idle:5.3f}%"
    )


async def traffic(tables: list[SimTable]) -> None:
    while True:
        await asyncio.gather(*(t.tap("seat2") for t in tables))


async def lights(port: int, presses: int) -> None:
    """One table pressed while 20 others keep the broker busy: MQTT on against off."""
    mqtt = MqttConfig(host="127.0.0.1", port=port)
    results: dict[str, list[float]] = {}
    for label, link in (("off", None), ("on", mqtt), ("off", None), ("on", mqtt)):
        async with contextlib.AsyncExitStack() as stack:
            others = [
                await stack.enter_async_context(
                    SimTable(Config(table_id=f"busy{n}", seats=2, mqtt=link), seed=n)
                )
                for n in range(20)
            ]
            table = await stack.enter_async_context(
                SimTable(Config(table_id="pressed", seats=2, mqtt=link))
            )

            busy = asyncio.create_task(traffic(others))
            taken = await press_to_light(table, presses)
            busy.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await busy
            results.setdefault(label, []).extend(1000 * x for x in taken)
    for label, ms in results.items():
        p50, p99 = statistics.median(ms), percentile(ms, 0.99)
        print(
            f"press -> light, MQTT {label:<3}  {len(ms)} presses  p50 {p50:.3f} ms"
            f"  p99 {p99:.3f} ms  (20 other tables playing)"
        )


def main() -> None:
    counts = [int(n) for n in (sys.argv[1] if len(sys.argv) > 1 else "1,10,50,100").split(",")]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    with tempfile.TemporaryDirectory() as directory:
        broker, port = start_broker(Path(directory))
        try:
            for count in counts:
                asyncio.run(run(count, rounds, port))
            asyncio.run(lights(port, 200))
        finally:
            broker.terminate()
            broker.wait()


if __name__ == "__main__":
    main()
