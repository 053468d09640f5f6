"""Sign-ins cannot be starved or sped up: the operator's right password is checked within a
few checks while fifty wrong guesses are in flight, and a guesser that hangs up before its
answer waits out the delay after a wrong password all the same."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Awaitable, Callable

import pytest

from controller.web.sign_in import (
    BUSY,
    FAIL_DELAY,
    FORGET,
    MAX_ADDRESSES,
    MAX_WAITING,
    SignInRefused,
    SignIns,
)
from tests import virtual_loop

from .conftest import PASSWORD
from .test_floods import client, connection, table

WAIT = 30.0  # seconds: only a limit for what never comes
UNDER_WAY = "a sign-in from this address is under way: wait for it"


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


# The queue's rules, on a loop whose time is virtual: a second after a wrong password, or ten
# minutes of quiet, pass at once; while a check runs (off the loop), time stands still.


class Checker:
    """The password check as the queue runs it: the passwords in the order checked; while
    `held` is clear, a check that began waits; "unforeseen" fails as no hash should. Its
    waits run off the loop, as the checks do, so that the loop's time stands still."""

    def __init__(self) -> None:
        self.checked: list[str] = []
        self.begun = threading.Event()
        self.held = threading.Event()
        self.held.set()
        self._changed = threading.Condition()
        self._ended = False

    def __call__(self, password: str) -> bool:
        self.begun.set()
        self.held.wait(WAIT)
        if password == "unforeseen":
            raise RuntimeError("a check that failed as no hash should")
        if password == "unaffordable":
            raise ValueError("a hash the check could not run")
        with self._changed:
            self.checked.append(password)
            self._changed.notify_all()
        return password == PASSWORD

    async def until_checked(self, password: str) -> None:
        def wait() -> bool:
            with self._changed:
                return self._changed.wait_for(lambda: password in self.checked or self._ended, WAIT)

        await asyncio.get_running_loop().run_in_executor(None, wait)
        assert password in self.checked, f"{password!r} was never checked"

    def end(self) -> None:
        """Nothing waits on a check any more."""
        with self._changed:
            self._ended = True
            self._changed.notify_all()
        self.held.set()
        self.begun.set()


def virtually(test: Callable[[SignIns, Checker], Awaitable[None]]) -> None:
    """Run `test` with a queue of its own, bounded by an hour of the loop's time."""

    async def main() -> None:
        checker = Checker()
        sign_ins = SignIns(checker)
        try:
            async with asyncio.timeout(3600.0):  # only a limit for what never comes
                await test(sign_ins, checker)
        finally:
            checker.end()
            sign_ins.close()

    virtual_loop.run(main())


async def wrong(sign_ins: SignIns, address: str, times: int = 1) -> None:
    for _ in range(times):
        assert not await sign_ins.check(address, f"guess from {address}")


async def turned_away(sign_ins: SignIns, address: str, times: int) -> None:
    """`times` sign-ins from `address` while one of its own is under way: each is a try."""
    under_way = asyncio.create_task(sign_ins.check(address, f"guess from {address}"))
    await asyncio.sleep(0)
    for _ in range(times):
        with pytest.raises(SignInRefused) as refused:
            await sign_ins.check(address, "again")
        assert (refused.value.status, str(refused.value)) == (429, UNDER_WAY)
    assert not await under_way


async def holding(
    sign_ins: SignIns, checker: Checker, address: str = "10.9.9.9"
) -> asyncio.Task[bool]:
    """A sign-in from `address` whose check has begun and waits until `checker.held` is set."""
    checker.held.clear()
    checker.begun.clear()
    held = asyncio.create_task(sign_ins.check(address, "held"))
    begun = asyncio.get_running_loop().run_in_executor(None, checker.begun.wait, WAIT)
    await asyncio.wait([held, begun], return_when=asyncio.FIRST_COMPLETED)
    assert not held.done() and checker.begun.is_set(), "the held check never began"
    return held


async def queued(sign_ins: SignIns, *addresses: str) -> list[asyncio.Task[bool]]:
    """A sign-in from each address, in this order, each waiting in the queue."""
    waiting = []
    for address in addresses:
        waiting.append(asyncio.create_task(sign_ins.check(address, f"from {address}")))
        await asyncio.sleep(0)
    return waiting


async def checked_order(
    sign_ins: SignIns, checker: Checker, *addresses: str, holder: str = "10.9.9.9"
) -> list[str]:
    """The order in which sign-ins from `addresses`, queued in this order behind one from
    `holder` whose check has begun, are checked."""
    held = await holding(sign_ins, checker, holder)
    waiting = await queued(sign_ins, *addresses)
    checker.held.set()
    await asyncio.gather(held, *waiting)
    return checker.checked[-len(addresses) :]


def test_the_fewest_wrong_passwords_go_first_then_the_fewest_tries_then_the_first_come():
    async def test(sign_ins: SignIns, checker: Checker) -> None:
        await wrong(sign_ins, "10.0.0.1", 2)  # two wrong, in two tries
        await turned_away(sign_ins, "10.0.0.2", 2)  # one wrong, in three tries
        await wrong(sign_ins, "10.0.0.3")  # one wrong, in one try
        checked = await checked_order(sign_ins, checker, *(f"10.0.0.{n}" for n in (1, 2, 3, 4, 5)))
        assert checked == [f"from 10.0.0.{n}" for n in (4, 5, 3, 2, 1)]

    virtually(test)


def test_a_right_password_clears_its_addresss_wrong_ones_and_tries():
    async def test(sign_ins: SignIns, checker: Checker) -> None:
        await wrong(sign_ins, "10.0.0.1", 3)
        assert await sign_ins.check("10.0.0.1", PASSWORD)
        await wrong(sign_ins, "10.0.0.2")
        checked = await checked_order(sign_ins, checker, "10.0.0.4", "10.0.0.2", "10.0.0.1")
        # 10.0.0.1 ranks as 10.0.0.4, never seen (which came first), and before one wrong.
        assert checked == ["from 10.0.0.4", "from 10.0.0.1", "from 10.0.0.2"]

    virtually(test)


def test_wrong_passwords_and_tries_count_for_ten_minutes_of_quiet():
    async def test(sign_ins: SignIns, checker: Checker) -> None:
        loop = asyncio.get_running_loop()
        await wrong(sign_ins, "10.0.0.1")
        await wrong(sign_ins, "10.0.0.3", 2)
        last = loop.time() - FAIL_DELAY  # 10.0.0.3's last try
        await wrong(sign_ins, "10.0.0.2")
        await asyncio.sleep(last + FORGET - 1.0 - loop.time())  # a second short for it
        checked = await checked_order(sign_ins, checker, "10.0.0.3", "10.0.0.2", "10.0.0.1")
        # 10.0.0.1's wrong password is forgotten; 10.0.0.3's two still count.
        assert checked == ["from 10.0.0.1", "from 10.0.0.2", "from 10.0.0.3"]

    virtually(test)


def test_the_tries_of_256_addresses_are_kept_and_the_longest_quiet_forgotten_first():
    async def test(sign_ins: SignIns, checker: Checker) -> None:
        addresses = [f"10.0.{n // 256}.{n % 256}" for n in range(MAX_ADDRESSES + 1)]
        for address in addresses:
            await wrong(sign_ins, address)
        # The first address is forgotten: it ranks as new, ahead of the second's wrong one.
        checked = await checked_order(
            sign_ins, checker, addresses[1], addresses[0], holder=addresses[-1]
        )
        assert checked == [f"from {addresses[0]}", f"from {addresses[1]}"]

    virtually(test)


def test_at_most_eight_wait_and_a_newcomer_ranking_before_the_last_takes_its_place():
    async def test(sign_ins: SignIns, checker: Checker) -> None:
        guessers = [f"10.0.0.{n}" for n in range(1, MAX_WAITING + 2)]
        for address in guessers:
            await wrong(sign_ins, address)
        held = await holding(sign_ins, checker)
        waiting = await queued(sign_ins, *guessers[:MAX_WAITING])
        # A ninth that ranks as the last does (one wrong, two tries) is turned away itself.
        ninth = asyncio.create_task(sign_ins.check(guessers[MAX_WAITING], "ninth"))
        await asyncio.sleep(0)
        assert ninth.done(), "the ninth waits"
        with pytest.raises(SignInRefused) as refused:
            await ninth
        assert (refused.value.status, str(refused.value)) == (503, BUSY)
        # A newcomer ranks before them all: the last come of them gives way.
        [operator] = await queued(sign_ins, "10.0.1.1")
        checker.held.set()
        with pytest.raises(SignInRefused) as refused:
            await waiting[-1]
        assert (refused.value.status, str(refused.value)) == (503, BUSY)
        await asyncio.gather(held, operator, *waiting[:-1])
        assert checker.checked[-MAX_WAITING:] == [
            f"from {address}" for address in ["10.0.1.1", *guessers[: MAX_WAITING - 1]]
        ]

    virtually(test)


def test_a_sign_in_whose_client_went_away_leaves_its_place_at_once_unchecked():
    async def test(sign_ins: SignIns, checker: Checker) -> None:
        guessers = [f"10.0.0.{n}" for n in range(1, MAX_WAITING + 2)]
        for address in guessers:
            await wrong(sign_ins, address)
        held = await holding(sign_ins, checker)
        waiting = await queued(sign_ins, *guessers[:MAX_WAITING])
        waiting[0].cancel()  # its client hung up
        with pytest.raises(asyncio.CancelledError):
            await waiting[0]
        [ninth] = await queued(sign_ins, guessers[MAX_WAITING])  # the place is free
        checker.held.set()
        await asyncio.gather(held, ninth, *waiting[1:])
        assert checker.checked[-MAX_WAITING:] == [f"from {a}" for a in guessers[1:]]

    virtually(test)


def test_a_wrong_password_is_answered_a_second_after_its_check_and_a_right_one_at_once():
    async def test(sign_ins: SignIns, checker: Checker) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await wrong(sign_ins, "10.0.0.1")
        assert loop.time() - start == FAIL_DELAY
        start = loop.time()
        assert await sign_ins.check("10.0.0.1", PASSWORD)
        assert loop.time() == start
        # A guesser that hangs up once its check is done waits the second out all the same.
        guess = asyncio.create_task(sign_ins.check("10.0.0.1", "guess"))
        await checker.until_checked("guess")
        guess.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await guess
        assert await sign_ins.check("10.0.0.1", PASSWORD)
        assert loop.time() - start == FAIL_DELAY

    virtually(test)


@pytest.mark.parametrize("failing", ["unaffordable", "unforeseen"])
def test_a_check_that_fails_fails_its_own_sign_in_and_the_queue_goes_on(failing):
    async def test(sign_ins: SignIns, checker: Checker) -> None:
        held = await holding(sign_ins, checker)
        fails = asyncio.create_task(sign_ins.check("10.0.0.1", failing))
        await asyncio.sleep(0)
        [after] = await queued(sign_ins, "10.0.0.2")
        checker.held.set()
        with pytest.raises((ValueError, RuntimeError)):
            await fails
        assert not await held and not await after
        assert checker.checked[-1] == "from 10.0.0.2"

    virtually(test)


def test_closing_ends_the_queues_work_and_cancels_every_sign_in_waiting():
    async def test(sign_ins: SignIns, checker: Checker) -> None:
        held = await holding(sign_ins, checker)
        waiting = await queued(sign_ins, "10.0.0.1", "10.0.0.2")
        sign_ins.close()
        for task in waiting:
            with pytest.raises(asyncio.CancelledError):
                await task
        held.cancel()  # its check began: its request's handler ends with the server
        await asyncio.sleep(0)
        assert asyncio.all_tasks() == {asyncio.current_task()}

    virtually(test)
