"""The outbox: several messages in flight at once, each kept until acknowledged, and what
was in flight when the connection broke sent again in its order, within the bound."""

from __future__ import annotations

import asyncio

from controller.mqtt.outbox import Outbox, Outgoing


def event(seq: int) -> Outgoing:
    return Outgoing("flashtable/t/event", {"seq": seq})


def state(seats: list[int]) -> Outgoing:
    return Outgoing("flashtable/t/state", {"seats": seats}, retain=True)


async def take(outbox: Outbox, count: int) -> list[Outgoing]:
    return [await outbox.next() for _ in range(count)]


async def test_several_go_out_before_the_first_is_acknowledged_retained_first():
    outbox = Outbox()
    events = [event(seq) for seq in (1, 2, 3)]
    for message in events:
        outbox.event(message)
    outbox.retained(newest := state([1]))
    assert await take(outbox, 4) == [newest, *events]
    assert outbox.in_flight == 4 and len(outbox) == 4


async def test_emptied_only_once_every_message_in_flight_is_acknowledged():
    outbox = Outbox()
    outbox.event(first := event(1))
    outbox.event(second := event(2))
    await take(outbox, 2)
    emptied = asyncio.create_task(outbox.emptied())
    outbox.sent(second)
    await asyncio.sleep(0)
    assert len(outbox) == 1 and not emptied.done()
    outbox.sent(first)
    await emptied
    assert len(outbox) == 0


async def test_what_was_in_flight_goes_again_in_order_ahead_of_what_came_since():
    outbox = Outbox()
    for seq in (1, 2, 3):
        outbox.event(event(seq))
    outbox.retained(state([1]))
    taken = await take(outbox, 4)
    outbox.sent(taken[1])  # seq 1 reached the broker; 2 and 3 were lost with the connection
    outbox.event(event(4))
    outbox.retained(newer := state([1, 2]))  # replaces the state lost in flight
    outbox.returned()
    again = await take(outbox, len(outbox))
    assert again[0] is newer
    assert [m.payload["seq"] for m in again[1:]] == [2, 3, 4]


async def test_the_bound_counts_what_is_in_flight_and_drops_the_oldest_waiting():
    outbox = Outbox(event_limit=3)
    for seq in (1, 2):
        outbox.event(event(seq))
    await take(outbox, 2)
    for seq in (3, 4, 5):
        outbox.event(event(seq))  # each past the bound pushes out the oldest waiting
    assert outbox.dropped == 2 and len(outbox) == 3
    outbox.returned()
    assert [m.payload["seq"] for m in await take(outbox, 3)] == [1, 2, 5]
