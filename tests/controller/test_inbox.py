"""The daemon's one queue: items are handled as they land, in order, one at a time; a wakeup
waits for an edge still crossing from its thread, an edge waits for none; an item put from the
middle of other work waits until that work is done; a failing item does not stop the rest.
Its methods are named for who may call them, and those of the loop's thread refuse any other."""

import asyncio
import logging
import threading

import pytest

from controller.errors import TableStopped, WrongThread
from controller.requests import RereadSettings
from controller.shell.inbox import Edge, Inbox, Stop, Wake


async def serving(handle) -> tuple[Inbox, asyncio.Task]:
    inbox = Inbox()
    task = asyncio.create_task(inbox.serve(handle))
    await asyncio.sleep(0)
    return inbox, task


async def test_a_posted_item_is_handled_in_the_loop_pass_it_lands_in():
    handled = []
    inbox, task = await serving(handled.append)
    inbox.from_any_thread("turn")
    await asyncio.sleep(0)  # one pass: the post's callback is the hand-over itself
    assert handled == ["turn"]
    inbox.from_any_thread(Stop())
    await task


async def test_an_item_put_while_another_is_handled_waits_its_turn():
    handled = []

    def handle(item):
        if item == "first":
            inbox.on_loop("second")
            assert handled == []  # not handled inside the first
        handled.append(item)

    inbox, task = await serving(handle)
    inbox.on_loop("first")
    inbox.on_loop("third")
    assert handled == ["first", "second", "third"]
    inbox.on_loop(Stop())
    await task


async def test_an_item_put_from_the_middle_of_other_work_waits_until_it_is_done():
    handled = []
    inbox, task = await serving(handled.append)
    inbox.on_loop_after_this("report")  # an ejector's, partway through its own timer
    assert handled == []
    await asyncio.sleep(0)
    assert handled == ["report"]
    inbox.on_loop(Stop())
    await task


async def test_a_failing_item_is_logged_and_the_next_is_handled(caplog):
    handled = []

    def handle(item):
        if item == "bad":
            raise RuntimeError("broken")
        handled.append(item)

    inbox, task = await serving(handle)
    with caplog.at_level(logging.ERROR):
        inbox.on_loop("bad")
        inbox.on_loop("good")
    assert handled == ["good"]
    assert "handling 'bad' failed" in caplog.text
    inbox.on_loop_after_this(Stop())
    await task


async def test_a_wakeup_waits_for_an_edge_still_crossing_and_sees_its_time():
    seen = []
    inbox, task = await serving(lambda item: seen.append((item, inbox.known_until(100.0))))
    edge = Edge("seat1", False, 42.0)
    inbox.from_any_thread(edge)  # from the pin's thread: its hand-over is still on the loop's queue
    inbox.on_loop(Wake())  # the engine's timer, on the loop
    assert seen == []
    await asyncio.sleep(0)
    assert seen == [(Wake(), 42.0), (edge, 100.0)]
    inbox.on_loop(Stop())
    await task


async def test_an_edge_is_handled_while_another_is_still_crossing():
    # A chattering pin always has an edge crossing: the queue must not wait for it.
    seen = []
    inbox, task = await serving(lambda item: seen.append((item, inbox.crossing)))
    first, second = Edge("seat1", True, 40.0), Edge("seat2", True, 41.0)
    inbox.from_any_thread(first)
    inbox.from_any_thread(second)
    await asyncio.sleep(0)
    assert seen == [(first, True), (second, False)]
    inbox.on_loop(Stop())
    await task


async def test_what_comes_after_a_stop_is_left_for_close_and_requests_are_refused():
    handled = []
    inbox, task = await serving(handled.append)
    inbox.on_loop("before")
    asked = inbox.ask(RereadSettings())
    inbox.on_loop(Stop())
    await asyncio.sleep(0)
    inbox.on_loop("after")
    await task
    assert handled == ["before"]
    assert inbox.close() == ["after"]
    with pytest.raises(TableStopped, match=r"^the table stopped before RereadSettings\(\)$"):
        asked.result(timeout=0)
    with pytest.raises(TableStopped, match=r"^the table stopped before RereadSettings\(\)$"):
        inbox.ask(RereadSettings()).result(timeout=0)  # once closed: at once


# Each method is named for who may call it; the loop thread's own check where they are called.
ANY_THREAD = {"from_any_thread", "ask"}
LOOP_THREAD_ONLY = {
    "on_loop": ("x",),
    "on_loop_after_this": ("x",),
    "known_until": (1.0,),
    "close": (),
}
LOOP_THREAD_ONLY_ASYNC = {"serve": (print,), "idle": (), "landed": ()}


def test_the_inbox_offers_only_methods_named_for_their_callers():
    public = {name for name in vars(Inbox) if not name.startswith("_")}
    assert public == ANY_THREAD | {"crossing"} | LOOP_THREAD_ONLY.keys() | (
        LOOP_THREAD_ONLY_ASYNC.keys()
    )


async def test_a_loop_thread_method_called_from_another_thread_fails_at_once():
    inbox = Inbox()
    calls = [lambda: inbox.crossing]
    calls += [lambda n=n, a=a: getattr(inbox, n)(*a) for n, a in LOOP_THREAD_ONLY.items()]
    calls += [
        lambda n=n, a=a: asyncio.run(getattr(inbox, n)(*a))
        for n, a in LOOP_THREAD_ONLY_ASYNC.items()
    ]
    names = ["crossing", *LOOP_THREAD_ONLY, *LOOP_THREAD_ONLY_ASYNC]
    refused = []

    def from_a_pin_thread():
        for call in calls:
            try:
                call()
            except WrongThread as err:
                refused.append(str(err))

    thread = threading.Thread(target=from_a_pin_thread)
    thread.start()
    thread.join()
    assert refused == [
        f"Inbox.{name} runs on the table's loop thread only; from another thread, submit"
        for name in names
    ]


async def test_items_handed_over_from_other_threads_are_handled_before_idle_returns():
    handled = []
    inbox, task = await serving(handled.append)
    threads = [
        threading.Thread(target=lambda n=n: [inbox.from_any_thread((n, i)) for i in range(50)])
        for n in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    await inbox.idle()
    assert sorted(handled) == [(n, i) for n in range(4) for i in range(50)]
    inbox.on_loop(Stop())
    await task


async def test_idle_waits_for_the_queue_to_be_served():
    # The daemon's first steps come before it serves its queue: a simulation that waits for
    # the table right after starting it must see them, however long they take.
    inbox = Inbox()
    idle = asyncio.create_task(inbox.idle())
    for _ in range(20):
        await asyncio.sleep(0)
    assert not idle.done()
    task = asyncio.create_task(inbox.serve(lambda item: None))
    await idle
    inbox.on_loop(Stop())
    await task
