"""The table's own gpiozero pins on a GPIO chip (hardware.gpiod_pins), each line's request a
stand-in for libgpiod's (tests/hardware/gpiod_standin.py): no kernel GPIO chip exists here
(the real chips, and every pin of the map through them, are the booted tests':
tests/boot/test_pins.py). The edges' thread is the real one, waking on the stand-in's
descriptor."""

import errno
import threading

import pytest
from gpiod.line import Direction, Edge, Value
from gpiozero import Button, DigitalOutputDevice

from hardware import gpiod_pins
from hardware.gpiod_pins import GpiodFactory, LineBusy

from .gpiod_standin import Kernel


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
