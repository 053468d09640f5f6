"""The LCD's writer thread: the caller never waits for the bus, the newest screen wins."""

from __future__ import annotations

import logging
import threading

import pytest
from RPLCD import common

from hardware.lcd import CharacterDisplay
from hardware.lcd.writer import DisplayWriter
from hardware.sim.hd44780 import HD44780, ModelBus

FIRST = ("Seat 1's turn", "5s")
SECOND = ("Seat 1's turn", "4s")
THIRD = ("Seat 2's turn", "6s")
WAIT = 10.0  # a thread that does not get there in this long is broken, not slow


@pytest.fixture(autouse=True)
def no_controller_delays(monkeypatch):
    """RPLCD waits out the controller's execution times; the model answers at once."""
    monkeypatch.setattr(common, "msleep", lambda ms: None)
    monkeypatch.setattr(common, "usleep", lambda us: None)


class GatedBus(ModelBus):
    """A bus that holds every transfer until the test opens its gate, as a hung I2C bus
    would, and tells which thread wrote."""

    def __init__(self, model: HD44780) -> None:
        super().__init__(model)
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.threads: set[str] = set()

    def write_nibble(self, rs: bool, nibble: int) -> None:
        self.threads.add(threading.current_thread().name)
        self.entered.set()
        assert self.gate.wait(WAIT)
        super().write_nibble(rs, nibble)


class Recording:
    """The real display, noting each screen that reaches it."""

    def __init__(self, display: CharacterDisplay) -> None:
        self.display = display
        self.shown: list[tuple[str, str]] = []
        self.closed = threading.Event()

    def show(self, lines: tuple[str, str]) -> None:
        self.shown.append(lines)
        self.display.show(lines)

    def backlight(self, on: bool) -> None:
        self.display.backlight(on)

    def close(self) -> None:
        self.closed.set()
        self.display.close()


def gated() -> tuple[GatedBus, Recording, HD44780]:
    model = HD44780()
    bus = GatedBus(model)
    bus.gate.set()  # the initialisation goes through
    display = CharacterDisplay(bus)
    bus.gate.clear()
    bus.entered.clear()
    bus.threads.clear()
    return bus, Recording(display), model


def test_the_screen_and_the_backlight_reach_the_glass_from_the_writer_thread():
    bus, recording, model = gated()
    bus.gate.set()
    writer = DisplayWriter(recording)
    writer.show(FIRST)
    writer.backlight(False)
    writer.close()
    assert model.lines == (FIRST[0].ljust(16), FIRST[1].ljust(16))
    assert model.backlight is False
    assert recording.closed.is_set()
    assert bus.threads == {"lcd writer"}


def test_the_caller_goes_on_while_the_bus_hangs_and_only_the_newest_screen_is_written():
    bus, recording, model = gated()
    writer = DisplayWriter(recording)
    writer.show(FIRST)
    assert bus.entered.wait(WAIT)  # the writer is inside the bus, held there
    # Neither call waits for the bus: were they to, the test would stop here.
    writer.show(SECOND)
    writer.show(THIRD)
    assert recording.shown == [FIRST]
    bus.gate.set()
    writer.close()
    assert recording.shown == [FIRST, THIRD]  # the second was never seen: skipped
    assert model.lines == (THIRD[0].ljust(16), THIRD[1].ljust(16))


def test_a_write_that_fails_is_logged_and_the_next_screen_still_reaches_the_glass(caplog):
    model = HD44780()
    display = CharacterDisplay(ModelBus(model))
    raised = threading.Event()
    real_show = display.show

    def show(lines: tuple[str, str]) -> None:
        if not raised.is_set():
            raised.set()
            raise RuntimeError("a fault in the driver")
        real_show(lines)

    display.show = show  # type: ignore[method-assign]
    writer = DisplayWriter(display)
    writer.show(FIRST)
    assert raised.wait(WAIT)
    writer.show(SECOND)
    writer.close()
    assert "writing to the LCD failed" in caplog.text
    assert model.lines == (SECOND[0].ljust(16), SECOND[1].ljust(16))


def test_close_gives_up_on_a_hung_bus_after_its_wait(caplog):
    bus, recording, _ = gated()
    writer = DisplayWriter(recording, close_wait=0.2)
    writer.show(FIRST)
    assert bus.entered.wait(WAIT)
    with caplog.at_level(logging.WARNING):
        writer.close()
    assert "the LCD's last writes did not end within 0.2 s" in caplog.text
    assert not recording.closed.is_set()
    bus.gate.set()  # the bus comes back: the writer finishes, then closes the display
    assert recording.closed.wait(WAIT)


def test_a_failed_text_still_lets_the_backlight_change_and_a_failed_close_is_logged(caplog):
    model = HD44780()
    display = CharacterDisplay(ModelBus(model))
    held, release = threading.Event(), threading.Event()

    def show(lines: tuple[str, str]) -> None:
        if lines == SECOND:
            held.set()
            assert release.wait(WAIT)  # the writer is busy while both of the next arrive
            return
        raise RuntimeError("a fault in the driver")

    def close() -> None:
        raise RuntimeError("a pin that will not let go")

    display.show = show  # type: ignore[method-assign]
    display.close = close  # type: ignore[method-assign]
    writer = DisplayWriter(display)
    writer.show(SECOND)
    assert held.wait(WAIT)
    writer.show(FIRST)  # as the daemon stops: the last text and the light off, together
    writer.backlight(False)
    release.set()
    writer.close()
    assert model.backlight is False
    assert "writing to the LCD failed" in caplog.text
    assert "closing the LCD failed" in caplog.text
