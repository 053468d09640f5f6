"""The table's own gpiozero pins on a GPIO chip (hardware.gpiod_pins), each line's request a
stand-in for libgpiod's: no kernel GPIO chip exists here (the real chips, and every pin of the
map through them, are the booted tests': tests/boot/test_pins.py). The edges' thread is the
real one, waking on the stand-in's descriptor."""

import errno
import os
import threading
from types import SimpleNamespace

import gpiod
import pytest
from gpiod.line import Bias, Direction, Edge, Value
from gpiozero import Button, DigitalOutputDevice

from hardware import gpiod_pins
from hardware.gpio_chip import Chip
from hardware.gpiod_pins import GpiodFactory, LineBusy

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


@pytest.fixture
def kernel(monkeypatch):
    return Kernel(monkeypatch)


@pytest.fixture
def factory(kernel):
    factory = GpiodFactory(roles={4: "seat1.button", 17: "seat1.light"})
    yield factory
    factory.close()


def changes(pin):
    """when_changed for `pin`: each call's level, and an event set at each."""
    calls: list[bool] = []
    called = threading.Event()

    def changed(ticks, level):
        calls.append(level)
        called.set()

    pin.when_changed = changed
    return calls, called, changed


def test_an_output_is_requested_as_one_at_its_first_level(kernel, factory):
    DigitalOutputDevice(17, initial_value=True, pin_factory=factory)
    request = kernel.requests[17]
    assert [s.direction for s in request.history] == [Direction.OUTPUT]
    assert request.settings.output_value == Value.ACTIVE
    assert (request.consumer, request.buffer) == ("flashtable", None)


def test_a_buttons_edges_come_from_its_requests_buffer(kernel, factory):
    button = Button(4, pin_factory=factory)
    request = kernel.requests[4]
    assert request.settings.edge_detection == Edge.BOTH
    assert request.buffer == gpiod_pins.EDGE_BUFFER
    pressed = threading.Event()
    button.when_pressed = pressed.set
    request.push(rising=False, stamp_ns=5_000_000)
    assert pressed.wait(10)


def test_an_input_made_an_input_again_keeps_its_edges(kernel, factory):
    pin = factory.pin(4)
    pin.function = "input"
    calls, called, _ = changes(pin)
    pin.function = "input"
    assert kernel.requests[4].settings.edge_detection == Edge.BOTH
    kernel.requests[4].push(rising=True, stamp_ns=1_000)
    assert called.wait(10)
    assert calls == [True]


def test_an_input_made_an_output_has_no_edges_watched(kernel, factory):
    pin = factory.pin(4)
    pin.function = "input"
    _held = changes(pin)
    kernel.requests[4].events.append(object())  # waiting in the buffer as it turns
    pin.function = "output"
    assert kernel.requests[4].settings.direction == Direction.OUTPUT
    assert not pin.edges_waiting()


def test_a_closed_pin_forgets_its_callback_and_releases_its_line(kernel, factory):
    pin = factory.pin(4)
    pin.function = "input"
    *_, changed = changes(pin)  # held here: gpiozero keeps only a weak reference
    pin.close()
    assert pin.when_changed is None
    assert changed is not None
    assert kernel.requests[4].released


def test_a_busy_line_names_its_role_and_its_holder(kernel, factory):
    # w1-gpio's overlay takes GPIO4 by default: seat 1's button in the pin map.
    kernel.held[4] = "onewire@0"
    with pytest.raises(LineBusy) as err:
        Button(4, pin_factory=factory)
    assert str(err.value) == ("GPIO4 (seat1.button) on gpiochip0 is busy: 'onewire@0' holds it")
    assert err.value.errno == errno.EBUSY


def test_a_busy_line_without_a_role_or_a_named_holder(kernel, factory):
    kernel.held[22] = ""
    with pytest.raises(LineBusy) as err:
        DigitalOutputDevice(22, pin_factory=factory)
    assert str(err.value) == "GPIO22 on gpiochip0 is busy: a holder that gives no name holds it"
