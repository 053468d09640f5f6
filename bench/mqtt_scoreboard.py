"""A scoreboard for bench/mqtt_tables.py, in its own process as a real one would be: it
subscribes to every table's events on a broker and notes when each arrived.

Prints "ready" once subscribed; on SIGTERM prints one line per event received,
"<table> <seq> <monotonic ns>", and exits. CLOCK_MONOTONIC is one clock for every process
of the machine, so the bench compares these times with its own.
Usage: python bench/mqtt_scoreboard.py PORT
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time

import aiomqtt


async def watch(port: int) -> list[str]:
    arrived: list[str] = []
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with aiomqtt.Client("127.0.0.1", port, protocol=aiomqtt.ProtocolVersion.V5) as client:
        await client.subscribe("flashtable/+/event", qos=1)
        print("ready", flush=True)

        async def receive() -> None:
            async for message in client.messages:
                now = time.monotonic_ns()
                assert isinstance(message.payload, bytes)
                seq = json.loads(message.payload)["seq"]
                arrived.append(f"{str(message.topic).split('/')[1]} {seq} {now}")

        receiving = asyncio.create_task(receive())
        await stop.wait()
        receiving.cancel()
    return arrived


def main() -> None:
    for line in asyncio.run(watch(int(sys.argv[1]))):
        print(line)


if __name__ == "__main__":
    main()
