"""The daemon's one queue: items are handled as they land, in order, one at a time; a wakeup
waits for an edge still crossing from its thread, an edge waits for none; an item put from the
middle of other work waits until that work is done; a failing item does not stop the rest."""

import asyncio
import logging

import pytest

from controller.errors import TableStopped
from controller.requests import RereadSettings
from controller.shell.inbox import Edge, Inbox, Stop, Wake


async def serving(handle) -> tuple[Inbox, asyncio.Task]:
    inbox = Inbox(asyncio.get_running_loop())
    task = asyncio.create_task(inbox.serve(handle))
    await asyncio.sleep(0)
    return inbox, task


async def test_a_posted_item_is_handled_in_the_loop_pass_it_lands_in():
    handled = []
    inbox, task = await serving(handled.append)
    inbox.post("turn")
    await asyncio.sleep(0)  # one pass: the post's callback is the hand-over itself
    assert handled == ["turn"]
    inbox.post(Stop())
    await task


async def test_an_item_put_while_another_is_handled_waits_its_turn():
    handled = []

    def handle(item):
        if item == "first":
            inbox.deliver("second")
            assert handled == []  # not handled inside the first
        handled.append(item)

    inbox, task = await serving(handle)
    inbox.deliver("first")
    inbox.deliver("third")
    assert handled == ["first", "second", "third"]
    inbox.deliver(Stop())
    await task


async def test_an_item_put_from_the_middle_of_other_work_waits_until_it_is_done():
    handled = []
    inbox, task = await serving(handled.append)
    inbox.put("report")  # an ejector's, partway through its own timer
    assert handled == []
    await asyncio.sleep(0)
    assert handled == ["report"]
    inbox.deliver(Stop())
    await task


async def test_a_failing_item_is_logged_and_the_next_is_handled(caplog):
    handled = []

    def handle(item):
        if item == "bad":
            raise RuntimeError("broken")
        handled.append(item)

    inbox, task = await serving(handle)
    with caplog.at_level(logging.ERROR):
        inbox.deliver("bad")
        inbox.deliver("good")
    assert handled == ["good"]
    assert "handling 'bad' failed" in caplog.text
    inbox.put(Stop())
    await task


async def test_a_wakeup_waits_for_an_edge_still_crossing_and_sees_its_time():
    seen = []
    inbox, task = await serving(lambda item: seen.append((item, inbox.known_until(100.0))))
    edge = Edge("seat1", False, 42.0)
    inbox.post(edge)  # from the pin's thread: its hand-over is still on the loop's queue
    inbox.deliver(Wake())  # the engine's timer, on the loop
    assert seen == []
    await asyncio.sleep(0)
    assert seen == [(Wake(), 42.0), (edge, 100.0)]
    inbox.deliver(Stop())
    await task


async def test_an_edge_is_handled_while_another_is_still_crossing():
    # A chattering pin always has an edge crossing: the queue must not wait for it.
    seen = []
    inbox, task = await serving(lambda item: seen.append((item, inbox.crossing)))
    first, second = Edge("seat1", True, 40.0), Edge("seat2", True, 41.0)
    inbox.post(first)
    inbox.post(second)
    await asyncio.sleep(0)
    assert seen == [(first, True), (second, False)]
    inbox.deliver(Stop())
    await task


async def test_what_comes_after_a_stop_is_left_for_close_and_requests_are_refused():
    handled = []
    inbox, task = await serving(handled.append)
    inbox.deliver("before")
    asked = inbox.ask(RereadSettings())
    inbox.deliver(Stop())
    await asyncio.sleep(0)
    inbox.deliver("after")
    await task
    assert handled == ["before"]
    assert inbox.close() == ["after"]
    with pytest.raises(TableStopped):
        asked.result(timeout=0)
