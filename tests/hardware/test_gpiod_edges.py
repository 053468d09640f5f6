"""The chip's edge thread (hardware/gpiod_edges.py) on stand-in line requests: each a pipe
whose byte says edges wait, as a request's descriptor does."""

import os
import threading
from dataclasses import dataclass

import gpiod

from hardware.gpiod_edges import EdgeThread

RISING = gpiod.EdgeEvent.Type.RISING_EDGE


@dataclass
class Event:
    timestamp_ns: int
    event_type: gpiod.EdgeEvent.Type = RISING


class Line:
    """A line request's stand-in: edges queued, its descriptor readable while they wait."""

    def __init__(self, name: str, handed: list[tuple[str, float]], all_in: threading.Event):
        self.name = name
        self.handed = handed
        self.all_in = all_in
        self.read_fd, self.write_fd = os.pipe()
        self.waiting: list[Event] = []
        self.while_read = lambda: None  # what happens in the kernel while this line is read

    def put(self, *stamps: int) -> None:
        self.waiting += [Event(stamp) for stamp in stamps]
        os.write(self.write_fd, b"x")

    def read_edges(self) -> list[Event]:
        os.read(self.read_fd, 64)
        self.while_read()
        edges, self.waiting = self.waiting, []
        return edges

    def edge(self, ticks: float, level: bool) -> None:
        self.handed.append((self.name, ticks))
        if len(self.handed) == 3:
            self.all_in.set()


def test_edges_of_two_lines_are_handed_over_in_the_order_of_their_times():
    """An encoder's A and B a millisecond apart: the thread woken by A's edge reads A's
    line while B's next edge, and A's after it, reach the kernel. Every line's waiting
    edges are read before any is handed over, so B's comes between A's, as it happened,
    not after both (a quadrature decoder would lose or reverse a detent)."""
    handed: list[tuple[str, float]] = []
    all_in = threading.Event()
    a, b = Line("a", handed, all_in), Line("b", handed, all_in)

    def meanwhile() -> None:
        a.while_read = lambda: None
        b.put(2_000_000)
        a.waiting.append(Event(3_000_000))

    a.while_read = meanwhile
    edges = EdgeThread()
    edges.watch(a.read_fd, a)
    edges.watch(b.read_fd, b)
    try:
        a.put(1_000_000)
        assert all_in.wait(60), handed  # three edges handed over: a failure's bound alone
        assert handed == [("a", 0.001), ("b", 0.002), ("a", 0.003)]
    finally:
        edges.close()


def test_a_handler_that_fails_leaves_every_line_heard_and_the_thread_closes_cleanly(caplog):
    """One input's handler raises (a closed loop, a device closed as the table stops): the
    fault is logged, the thread reads on, the next edges of every line are handed over,
    and closing it afterwards closes what it held."""
    handed: list[tuple[str, float]] = []
    all_in = threading.Event()
    a, b = Line("a", handed, all_in), Line("b", handed, all_in)
    failed = threading.Event()

    def fails(ticks: float, level: bool) -> None:
        failed.set()
        raise RuntimeError("the loop is closed")

    a.edge = fails  # type: ignore[method-assign]
    edges = EdgeThread()
    edges.watch(a.read_fd, a)
    edges.watch(b.read_fd, b)
    a.put(1_000_000)
    assert failed.wait(60)
    del a.edge  # the instance's failing handler gone: the class's again
    b.put(2_000_000)
    a.put(3_000_000)
    b.put(4_000_000)
    assert all_in.wait(60), handed
    assert handed == [("b", 0.002), ("a", 0.003), ("b", 0.004)]
    edges.close()
    assert "a GPIO edge's handler failed" in caplog.text
