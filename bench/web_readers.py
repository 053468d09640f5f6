"""Pages that only watch: N open streams on the table's page, each read to the end, in a
process of their own, each from an address of its own on the loopback (127.0.0.2 and up),
as phones around the table are. Prints "open N" once every stream has its first message,
then reads until killed.
Usage: python bench/web_readers.py URL N
"""

from __future__ import annotations

import asyncio
import sys

import aiohttp


async def read(n: int, url: str, opened: asyncio.Queue[None]) -> None:
    connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{2 + n}", 0))
    async with (
        aiohttp.ClientSession(connector=connector) as session,
        session.get(url) as response,
    ):
        first = await response.content.readuntil(b"\n\n")
        first += await response.content.readuntil(b"\n\n")
        if response.status != 200 or b"event: refused" in first:
            raise SystemExit(f"a stream was refused: {response.status} {first!r}")
        opened.put_nowait(None)
        async for _ in response.content.iter_any():
            pass


async def main(url: str, count: int) -> None:
    opened: asyncio.Queue[None] = asyncio.Queue()
    readers = [asyncio.create_task(read(n, url, opened)) for n in range(count)]
    for _ in range(count):
        await opened.get()
    print(f"open {count}", flush=True)
    await asyncio.gather(*readers)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] + "events", int(sys.argv[2])))
