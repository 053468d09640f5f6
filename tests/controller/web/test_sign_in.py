"""Sign-ins cannot be starved or sped up: the operator's right password is checked within a
few checks while fifty wrong guesses are in flight, and a guesser that hangs up before its
answer waits out the delay after a wrong password all the same."""

from __future__ import annotations

import asyncio
import json
import threading
import time

from controller.web.sign_in import FAIL_DELAY

from .conftest import PASSWORD
from .test_floods import client, connection, table

WAIT = 30.0  # seconds: only a limit for what never comes


class TimedChecks:
    """The table's password hash, each check's start and end kept (on the executor's
    thread, as a sign-in runs it); while `held` is clear, a check that began waits."""

    def __init__(self, kept: object) -> None:
        self._kept = kept
        self._lock = threading.Lock()
        self.begun = 0
        self.checks: list[tuple[float, float]] = []
        self.right: list[float] = []  # when each right password's check began
        self.held = threading.Event()
        self.held.set()

    def matches(self, password: str) -> bool:
        began = time.monotonic()
        with self._lock:
            self.begun += 1
        self.held.wait(WAIT)
        right = self._kept.matches(password)  # type: ignore[attr-defined]
        with self._lock:
            self.checks.append((began, time.monotonic()))
            if right:
                self.right.append(began)
        return right

    async def until(self, count: int) -> None:
        async with asyncio.timeout(WAIT + count * 2 * FAIL_DELAY):
            while len(self.checks) < count:
                await asyncio.sleep(0.005)


def timed(running) -> TimedChecks:
    web = running.web
    checks = TimedChecks(web._hash)
    web._hash = checks
    return checks


def sign_in_request(port: int, password: str) -> bytes:
    body = json.dumps({"password": password}).encode()
    host = f"127.0.0.1:{port}".encode()
    return (
        b"POST /login HTTP/1.1\r\nHost: " + host + b"\r\nOrigin: http://" + host + b"\r\n"
        b"Content-Type: application/json\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )


async def test_the_right_password_signs_in_while_fifty_wrong_guesses_are_in_flight(tmp_path):
    async with table(tmp_path) as (running, port):
        checks = timed(running)
        url, origin = f"http://127.0.0.1:{port}/login", f"http://127.0.0.1:{port}"
        flood, told_wrong = asyncio.Event(), set()

        async def guesser(n: int) -> None:
            async with client(n) as session:
                while not flood.is_set():
                    async with session.post(
                        url, json={"password": f"guess-{n}"}, headers={"Origin": origin}
                    ) as answer:
                        await answer.read()
                    if answer.status == 401:
                        told_wrong.add(n)
                    else:  # not checked: turned away at once
                        await asyncio.sleep(0.05)

        guessers = [asyncio.create_task(guesser(2 + n)) for n in range(50)]
        try:
            async with asyncio.timeout(WAIT * 4):  # the flood is under way: every guesser
                while len(told_wrong) < 50:  # has been told "wrong" at least once
                    await asyncio.sleep(0.01)
            async with client(1) as operator:
                sent = time.monotonic()
                async with operator.post(
                    url, json={"password": PASSWORD}, headers={"Origin": origin}
                ) as answer:
                    assert answer.status == 200
        finally:
            flood.set()
            await asyncio.gather(*guessers)
        # The right one went ahead of every guess waiting: the guesses checked after it was
        # sent and before it are only those that began in the few passes of the loop its
        # request took to reach the queue (49, behind all of them, when it waited its turn).
        [checked] = checks.right
        ahead = [began for began, _ in checks.checks if sent < began < checked]
        assert len(ahead) <= 5, len(ahead)


async def test_hanging_up_before_the_answer_does_not_speed_guessing(tmp_path):
    async with table(tmp_path) as (running, port):
        checks = timed(running)
        for guess in range(3):
            _, writer = await connection(port, 2)
            writer.write(sign_in_request(port, f"guess-{guess}"))
            await checks.until(guess + 1)
            writer.close()  # gone before the wrong password's answer
    (_, first_end), (second_start, second_end), (third_start, _) = checks.checks
    assert second_start - first_end >= FAIL_DELAY
    assert third_start - second_end >= FAIL_DELAY


async def test_one_sign_in_at_a_time_from_an_address(tmp_path):
    async with table(tmp_path) as (running, port):
        checks = timed(running)
        checks.held.clear()  # the first check stays under way
        first_reader, first = await connection(port, 2)
        first.write(sign_in_request(port, "guess"))
        async with asyncio.timeout(WAIT):
            while not checks.begun:
                await asyncio.sleep(0.005)
        second_reader, second = await connection(port, 2)
        second.write(sign_in_request(port, PASSWORD))
        async with asyncio.timeout(WAIT):
            answer = await second_reader.readuntil(b"}")
        assert answer.startswith(b"HTTP/1.1 429 ") and b"under way" in answer
        checks.held.set()
        async with asyncio.timeout(WAIT):
            answer = await first_reader.readuntil(b"}")
        assert answer.startswith(b"HTTP/1.1 401 ")
        for writer in (first, second):
            writer.close()
