"""A flood against a table's page, in a process of its own, from the loopback addresses
127.0.0.2 to 127.0.0.101 (never 127.0.0.1, the bench's viewer): IDLE connections that never
send a byte, STREAMS live views that read what comes, and SLOW clients that send a header
line every 5 s and never finish. Each one the table closes or turns away comes back a second
later, so the flood stands for as long as it runs. Prints "up N" once every connection has
been asked for, then the counts of the last 5 s every 5 s, until killed.
Usage: python bench/web_flood_clients.py PORT IDLE STREAMS SLOW
"""

from __future__ import annotations

import asyncio
import resource
import sys
from collections import Counter

ADDRESSES = 100
AGAIN = 1.0  # seconds before a closed connection comes back
SLOW_LINE = 5.0  # seconds between a slow client's header lines
counts: Counter[str] = Counter()


def address(n: int) -> tuple[str, int]:
    return (f"127.0.0.{2 + n % ADDRESSES}", 0)


async def connect(port: int, n: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=address(n))


async def idle(port: int, n: int) -> None:
    while True:
        try:
            reader, writer = await connect(port, n)
            counts["idle open"] += 1
            await reader.read()  # until the table closes it
            writer.close()
        except OSError:
            counts["idle refused"] += 1
        await asyncio.sleep(AGAIN)


async def stream(port: int, n: int) -> None:
    request = f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    while True:
        try:
            reader, writer = await connect(port, n)
            writer.write(request)
            counts["streams asked"] += 1
            while await reader.read(65536):
                pass
            writer.close()
        except OSError:
            counts["streams refused"] += 1
        await asyncio.sleep(AGAIN)


async def slow(port: int, n: int) -> None:
    while True:
        try:
            reader, writer = await connect(port, n)
            counts["slow open"] += 1
            writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            line = 0
            while not reader.at_eof():
                try:
                    await asyncio.wait_for(reader.read(65536), SLOW_LINE)
                except TimeoutError:
                    writer.write(f"X-Slow-{line}: still coming\r\n".encode())
                    line += 1
            writer.close()
        except OSError:
            counts["slow refused"] += 1
        await asyncio.sleep(AGAIN)


async def main(port: int, idles: int, streams: int, slows: int) -> None:
    tasks = [asyncio.create_task(idle(port, n)) for n in range(idles)]
    tasks += [asyncio.create_task(stream(port, n)) for n in range(streams)]
    tasks += [asyncio.create_task(slow(port, n)) for n in range(slows)]
    print(f"up {len(tasks)}", flush=True)
    while True:
        await asyncio.sleep(5)
        print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())), flush=True)
        counts.clear()


if __name__ == "__main__":
    port, idles, streams, slows = (int(arg) for arg in sys.argv[1:5])
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 2 * (idles + streams + slows)), hard))
    asyncio.run(main(port, idles, streams, slows))
