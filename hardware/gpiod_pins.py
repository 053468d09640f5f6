"""gpiozero's pins on the kernel's GPIO character device, through libgpiod v2 (the `gpiod`
bindings): the table's pin factory on a Raspberry Pi and on any board with a GPIO chip.

Nothing polls. An input's edges wait in the kernel, timestamped there, and a thread that
sleeps on the line requests' file descriptors hands them to gpiozero in the order of their
kernel times (`EdgeThread`). PWM is `SoftPWM`'s, which runs only while a duty is strictly
between 0 and 1. Each pin requests its line when gpiozero first sets
its function, so a pin made for an output never passes through an input on the way.
"""

from __future__ import annotations

import errno
import logging
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import gpiod
from gpiod.line import Bias, Direction, Edge, Value
from gpiozero.exc import (
    PinFixedPull,
    PinInvalidBounce,
    PinInvalidFunction,
    PinInvalidPull,
    PinInvalidState,
    PinPWMFixedValue,
    PinSetInput,
)
from gpiozero.pins.pi import PiFactory, PiPin

from .gpio_chip import Chip, board_info, find_chip
from .gpiod_edges import EdgeThread
from .soft_pwm import SoftPWM

log = logging.getLogger(__name__)

CONSUMER = "flashtable"
# The edges an input's request holds until the pins' thread reads them: the kernel's most
# (64 lines' worth of its 16 a line), a second of an encoder turned as fast as a hand can.
# The kernel's own 16 let a thread that a busy machine kept waiting lose a fast turn's edges,
# oldest first. Its cost (gpiolib-cdev.c): when edges are first turned on, the request's
# kfifo of 1024 events of 48 bytes, 48 KiB, which kmalloc takes from the page allocator as
# 64 KiB of contiguous memory, until the line is released; the table's inputs with edges
# (16 at most) hold 1 MiB, which a 512 MB Zero 2 W spares.
EDGE_BUFFER = 1024
PULLS = {"up": Bias.PULL_UP, "down": Bias.PULL_DOWN, "floating": Bias.DISABLED}
EDGES = {"both": Edge.BOTH, "rising": Edge.RISING, "falling": Edge.FALLING}


# gpiozero ships no types: to mypy its classes, this one's base among them, are Any.
class GpiodFactory(PiFactory):  # type: ignore[misc]
    """The pins of one GPIO chip: the config's, or the Raspberry Pi's (`find_chip`); their
    edges called back on the chip's `EdgeThread`."""

    def __init__(
        self, chip: int | str | None = None, *, roles: Mapping[int, str] | None = None
    ) -> None:
        super().__init__()
        self.chip: Chip = find_chip(chip)
        self.roles = dict(roles or {})  # line: what the pin map has on it, for errors
        self._board = board_info(self.chip)
        self.pwm = SoftPWM()
        self.pin_class = GpiodPin
        self.edges = EdgeThread()

    def close(self) -> None:
        super().close()
        self.edges.close()

    def _get_board_info(self) -> Any:
        return self._board

    @staticmethod
    def ticks() -> float:
        import time

        return time.monotonic()

    @staticmethod
    def ticks_diff(later: float, earlier: float) -> float:
        return later - earlier


class LineBusy(OSError):
    """A line the kernel has given to another (an overlay's driver, another program)."""

    def __init__(self, chip: Chip, line: int, roles: Mapping[int, str]) -> None:
        role = f" ({roles[line]})" if line in roles else ""
        try:
            with gpiod.Chip(chip.path) as opened:
                consumer = opened.get_line_info(line).consumer
        except OSError:
            consumer = None
        holder = repr(consumer) if consumer else "a holder that gives no name"
        super().__init__(errno.EBUSY, f"GPIO{line}{role} on {chip.name} is busy: {holder} holds it")

    def __str__(self) -> str:
        return str(self.strerror)


class GpiodPin(PiPin):  # type: ignore[misc]
    """One line of the chip, requested on its own; its settings are reconfigured in place."""

    def __init__(self, factory: GpiodFactory, info: Any) -> None:
        super().__init__(factory, info)
        self._line = int(info.name[4:])
        self._request: gpiod.LineRequest | None = None
        self._function = "input"
        self._pull = "floating"
        self._pull_set = False
        self._edges = "both"
        self._bounce: float | None = None
        self._frequency: float | None = None
        self._duty = 0.0
        self._level = False
        self._watched = False  # edges on: the request's descriptor on the factory's thread
        self._seqno = 0  # the kernel's number of the last edge read on this line

    # The line's request and its settings.

    def _settings(self, *, edges: bool = False) -> gpiod.LineSettings:
        if self._function == "output":
            value = Value.ACTIVE if self._level else Value.INACTIVE
            return gpiod.LineSettings(direction=Direction.OUTPUT, output_value=value)
        debounce = timedelta(seconds=self._bounce or 0)
        return gpiod.LineSettings(
            direction=Direction.INPUT,
            # Until gpiozero sets a pull, the line's bias stays as it is: a button's pull-up
            # never lapses for a moment between its function and its pull being set.
            bias=PULLS[self._pull] if self._pull_set else Bias.AS_IS,
            edge_detection=EDGES[self._edges] if edges else Edge.NONE,
            debounce_period=debounce,
        )

    def _apply(self) -> None:
        settings = self._settings(edges=self._watched)
        if self._request is None:
            path = self.factory.chip.path
            edges = EDGE_BUFFER if self._function == "input" else None
            try:
                self._request = gpiod.request_lines(
                    path, consumer=CONSUMER, config={self._line: settings}, event_buffer_size=edges
                )
            except OSError as err:
                if err.errno != errno.EBUSY:
                    raise
                raise LineBusy(self.factory.chip, self._line, self.factory.roles) from err
        else:
            self._request.reconfigure_lines({self._line: settings})

    def close(self) -> None:
        self._stop_pwm()
        self.when_changed = None  # as gpiozero's own pins: its edges unwatched too
        if self._request is not None:
            self._request.release()
            self._request = None

    # Function, state and pull.

    def output_with_state(self, state: Any) -> None:
        self._stop_pwm()
        self._function, self._level = "output", bool(state)
        self._apply()

    def input_with_pull(self, pull: str) -> None:
        self._check_pull(pull)
        self._stop_pwm()
        self._function, self._pull, self._pull_set = "input", pull, True
        self._apply()

    def _get_function(self) -> str:
        return self._function

    def _set_function(self, value: str) -> None:
        if value not in ("input", "output"):
            raise PinInvalidFunction(f'invalid function "{value}" for pin {self!r}')
        # An output has no edges (gpiozero's when_changed stays, as on its lgpio pins, and
        # is watched again when set again), an input no PWM.
        if value == "output":
            self._disable_event_detect()
        else:
            self._stop_pwm()
        self._function = value
        self._apply()

    def _get_state(self) -> Any:
        if self._frequency is not None:
            return self._duty
        if self._function == "output":
            return self._level
        return self._read()

    def _read(self) -> bool:
        if self._request is None:
            self._apply()
        assert self._request is not None
        return bool(self._request.get_value(self._line) == Value.ACTIVE)

    def _write(self, level: bool) -> None:
        if self._request is not None:
            self._request.set_value(self._line, Value.ACTIVE if level else Value.INACTIVE)

    def _set_state(self, value: Any) -> None:
        if self._function == "input":
            raise PinSetInput(f"cannot set state of pin {self!r}")
        if self._frequency is not None:
            if not 0.0 <= value <= 1.0:
                raise PinInvalidState(f'invalid state "{value}" for pin {self!r}')
            self._duty = float(value)
            self.factory.pwm.set(self, self._write, self._frequency, self._duty)
            return
        self._level = bool(value)
        self._write(self._level)

    def _check_pull(self, pull: str) -> None:
        if pull not in PULLS:
            raise PinInvalidPull(f'invalid pull "{pull}" for pin {self!r}')

    def _get_pull(self) -> str:
        return self._pull

    def _set_pull(self, value: str) -> None:
        if self._function != "input":
            raise PinFixedPull(f"cannot set pull on non-input pin {self!r}")
        self._check_pull(value)
        self._pull, self._pull_set = value, True
        self._apply()

    # PWM.

    def _get_frequency(self) -> float | None:
        return self._frequency

    def _set_frequency(self, value: float | None) -> None:
        if value is None or value <= 0:
            self._stop_pwm()
            return
        if self._function != "output":
            raise PinPWMFixedValue(f"cannot start PWM on pin {self!r}")
        if self._frequency is None:
            self._duty = 0.0
        self._frequency = float(value)
        self.factory.pwm.set(self, self._write, self._frequency, self._duty)

    def _stop_pwm(self) -> None:
        if self._frequency is not None:
            self.factory.pwm.stop(self)
            self._frequency = None
            self._level = self._duty >= 1.0
            self._write(self._level)

    # Edges: the request's descriptor on the factory's `EdgeThread`.

    def _get_bounce(self) -> float | None:
        return self._bounce

    def _set_bounce(self, value: float | None) -> None:
        if value is not None and value < 0:
            raise PinInvalidBounce("bounce must be 0 or greater")
        self._bounce = value or None
        if self._function == "input":
            self._apply()

    def _get_edges(self) -> str:
        return self._edges

    def _set_edges(self, value: str) -> None:
        if value not in EDGES:
            raise PinInvalidState(f'invalid edges "{value}" for pin {self!r}')
        self._edges = value
        if self._watched:
            self._apply()

    def _enable_event_detect(self) -> None:
        self._watched = True
        self._apply()
        assert self._request is not None
        self.factory.edges.watch(self._request.fd, self)

    def _disable_event_detect(self) -> None:
        if not self._watched:
            return
        self._watched = False
        if self._request is not None:
            self.factory.edges.unwatch(self._request.fd)
            if self._function == "input":
                self._apply()

    def read_edges(self) -> list[gpiod.EdgeEvent]:
        """The edges waiting on this line (the factory's thread reads them when one is
        readable). A gap in the kernel's numbers is edges its buffer dropped: logged."""
        if self._request is None:
            return []
        edges = self._request.read_edge_events()
        if edges:
            lost = edges[0].line_seqno - self._seqno - 1
            if self._seqno and lost > 0:
                log.warning("GPIO%d: %d edge(s) lost, the kernel's buffer full", self._line, lost)
            self._seqno = edges[-1].line_seqno
        return edges

    def edge(self, ticks: float, level: bool) -> None:
        self._call_when_changed(ticks, level)

    def edges_waiting(self) -> bool:
        """Whether an edge of this line is still on its way to gpiozero: in the kernel's
        buffer, or read by the factory's thread and not yet handed over (any thread)."""
        request = self._request
        if not self._watched or request is None:
            return False
        return self.factory.edges.handing(request.fd) or request.wait_edge_events(timedelta(0))
