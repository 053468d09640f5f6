"""A stand-in for libgpiod's line requests on one GPIO chip, for the tests of the table's own
pins: no kernel GPIO chip exists here (the real ones are the booted tests')."""

import errno
import os
from types import SimpleNamespace

import gpiod
from gpiod.line import Bias, Direction, Value

from hardware import gpiod_pins
from hardware.gpio_chip import Chip

PULLED = {Bias.PULL_UP: Value.ACTIVE, Bias.PULL_DOWN: Value.INACTIVE}
CHIP = Chip("/dev/gpiochip0", "gpiochip0", "pinctrl-bcm2711", 58, ("gpiochip0",))


class Request:
    """One line's request: its settings as last configured, its level, and edges that the
    test puts in its buffer (its descriptor, a pipe, then readable as the kernel's is)."""

    def __init__(self, config, consumer, event_buffer_size):
        [self.line] = config
        self.history: list[gpiod.LineSettings] = []
        self.consumer, self.buffer = consumer, event_buffer_size
        self.level = Value.INACTIVE
        self.reconfigure_lines(config)
        self.events: list[gpiod.EdgeEvent] = []
        self.fd, self._ready = os.pipe()
        self.released = False

    @property
    def settings(self):
        return self.history[-1]

    def reconfigure_lines(self, config):
        settings = config[self.line]
        self.history.append(settings)
        if settings.direction == Direction.OUTPUT:
            self.level = settings.output_value
        elif settings.bias in PULLED:  # nothing pressed: the pull's level
            self.level = PULLED[settings.bias]

    def set_value(self, line, value):
        self.level = value

    def get_value(self, line):
        return self.level

    def push(self, rising, stamp_ns):
        self.level = Value.ACTIVE if rising else Value.INACTIVE
        kind = gpiod.EdgeEvent.Type.RISING_EDGE if rising else gpiod.EdgeEvent.Type.FALLING_EDGE
        seqno = len(self.events) + 1
        self.events.append(gpiod.EdgeEvent(kind, stamp_ns, self.line, seqno, seqno))
        os.write(self._ready, b"e")

    def read_edge_events(self):
        os.read(self.fd, 1)
        events, self.events = self.events, []
        return events

    def wait_edge_events(self, timeout):
        return bool(self.events)

    def release(self):
        os.close(self.fd)
        os.close(self._ready)
        self.released = True


class Kernel:
    """The chip's lines: each request made, and lines held by someone else."""

    def __init__(self, monkeypatch):
        self.requests: dict[int, Request] = {}
        self.held: dict[int, str] = {}  # line: its consumer
        monkeypatch.setattr(gpiod_pins, "find_chip", lambda named: CHIP)
        monkeypatch.setattr(gpiod, "request_lines", self.request_lines)
        monkeypatch.setattr(gpiod, "Chip", self.open)

    def request_lines(self, path, *, consumer, config, event_buffer_size=None):
        assert path == CHIP.path
        [line] = config
        if line in self.held:
            raise OSError(errno.EBUSY, os.strerror(errno.EBUSY))
        self.requests[line] = Request(config, consumer, event_buffer_size)
        return self.requests[line]

    def open(self, path):
        assert path == CHIP.path
        held = self.held

        class Opened:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def get_line_info(self, line):
                return SimpleNamespace(used=line in held, consumer=held.get(line, ""))

        return Opened()
