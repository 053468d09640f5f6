"""Pages that only watch: N open streams on the table's page, each read to the end, in a
process of their own (as phones around the table are). Prints "open N" once every stream
has its first message, then reads until killed.
Usage: python bench/web_readers.py URL N
"""

from __future__ import annotations

import asyncio
import sys

import aiohttp


async def read(session: aiohttp.ClientSession, url: str, opened: asyncio.Queue[None]) -> None:
    async with session.get(url) as response:
        if response.status != 200:
            raise SystemExit(f"a stream was refused: {response.status}")
        await response.content.readline()
        opened.put_nowait(None)
        async for _ in response.content.iter_any():
            pass


async def main(url: str, count: int) -> None:
    opened: asyncio.Queue[None] = asyncio.Queue()
    async with aiohttp.ClientSession() as session:
        readers = [asyncio.create_task(read(session, url, opened)) for _ in range(count)]
        for _ in range(count):
            await opened.get()
        print(f"open {count}", flush=True)
        await asyncio.gather(*readers)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] + "events", int(sys.argv[2])))
