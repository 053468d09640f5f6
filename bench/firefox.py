"""The room screen and the live page in Firefox, against `flashtable run --sim` with `[web]`:
a round with named seats, the room screen at 1920x1080 and the page at a phone's 390x844,
driven over WebDriver BiDi (built into Firefox: no geckodriver). It prints what each shows
and saves screenshots; the suite tests both pages in Chromium (tests/controller/web).

Firefox is not a dependency of this project: `apt-get install firefox-esr`.
Usage: python bench/firefox.py [FIREFOX [DIRECTORY for the screenshots]]
"""

from __future__ import annotations

import asyncio
import base64
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.controller.web.running_table import RunningTable  # noqa: E402
from tests.ports import free_port  # noqa: E402

NAMES = {1: "Anna", 2: "Ben", 3: "Chloé"}  # seat 4 keeps its number
NAME_PX = 120  # the lit seat's name on the room screen, at least (docs/web.md)
PAGES = (("room", (1920, 1080), "firefox-room.png"), ("", (390, 844), "firefox-phone.png"))
WAIT = 30.0  # seconds: only a limit for what never comes


class Bidi:
    """One WebDriver BiDi session over Firefox's own WebSocket."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self._socket = socket
        self._sent = 0

    async def __call__(self, method: str, **params: object) -> dict[str, Any]:
        self._sent += 1
        await self._socket.send_json({"id": self._sent, "method": method, "params": params})
        while True:
            answer = json.loads((await self._socket.receive()).data)
            if answer.get("id") == self._sent:
                if answer.get("type") == "error":
                    raise RuntimeError(f"{method}: {answer.get('message') or answer}")
                return dict(answer["result"])


async def connect(http: aiohttp.ClientSession, port: int) -> aiohttp.ClientWebSocketResponse:
    async with asyncio.timeout(WAIT):
        while True:
            try:
                return await http.ws_connect(f"ws://127.0.0.1:{port}/session")
            except aiohttp.ClientError:
                await asyncio.sleep(0.2)  # Firefox is still starting


async def check(firefox: str, shots: Path) -> int:
    table = RunningTable(
        Path(tempfile.mkdtemp()),
        settings='turn_timer = 30\nsleep_time = "off"\n',
        seats=4,
    )
    port = free_port()
    browser = subprocess.Popen(
        [
            firefox,
            "--headless",
            "--no-remote",
            "--profile",
            tempfile.mkdtemp(),
            "--remote-debugging-port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    problems = 0
    try:
        for seat, name in NAMES.items():
            table.do(f"name {seat} {name}")
        for seat in (1, 2, 3, 4):
            table.do(f"tap seat{seat}")
        table.do("tap play_pause")
        async with aiohttp.ClientSession() as http:
            bidi = Bidi(await connect(http, port))
            await bidi("session.new", capabilities={})
            context = (await bidi("browsingContext.getTree"))["contexts"][0]["context"]

            async def value(expression: str) -> Any:
                target = {"context": context}
                found = await bidi(
                    "script.evaluate", expression=expression, target=target, awaitPromise=False
                )
                return found["result"].get("value")

            for path, (width, height), shot in PAGES:
                viewport = {"width": width, "height": height}
                await bidi("browsingContext.setViewport", context=context, viewport=viewport)
                url = table.url + path
                await bidi("browsingContext.navigate", context=context, url=url, wait="complete")
                link = "document.body.dataset.link || document.getElementById('link').textContent"
                async with asyncio.timeout(WAIT):
                    while await value(link) != "live":
                        await asyncio.sleep(0.1)
                await asyncio.sleep(1.0)  # a second of the stream, as a person would see it
                text = await value("document.body.innerText")
                missing = [name for name in NAMES.values() if name not in text]
                wide = await value("document.documentElement.scrollWidth")
                print(
                    f"/{path} at {width}x{height}: live; names missing: {missing or 'none'}; "
                    f"page width {wide} px"
                )
                problems += bool(missing) + (wide > width)
                if path == "room":
                    who = await value("document.getElementById('who').textContent")
                    tall = await value("document.getElementById('who').offsetHeight")
                    print(f"  the lit seat's name: {who!r}, {tall} px tall (at least {NAME_PX})")
                    problems += tall < NAME_PX or who not in NAMES.values()
                picture = await bidi("browsingContext.captureScreenshot", context=context)
                (shots / shot).write_bytes(base64.b64decode(picture["data"]))
                print(f"  screenshot: {shots / shot}")
            await bidi("session.end")
    finally:
        browser.terminate()
        browser.wait(timeout=WAIT)
        log = table.stop()
    faults = log.count("Traceback")
    print(f"tracebacks in the table's log: {faults}")
    problems += faults
    version = subprocess.run([firefox, "--version"], capture_output=True, text=True).stdout
    print(f"{version.strip()}: " + ("passed" if not problems else f"{problems} problem(s)"))
    return 1 if problems else 0


def main() -> None:
    firefox = sys.argv[1] if len(sys.argv) > 1 else "firefox-esr"
    shots = Path(sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp())
    sys.exit(asyncio.run(check(firefox, shots)))


if __name__ == "__main__":
    main()
