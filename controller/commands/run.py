"""`flashtable run`: the daemon as a process, on the Pi's pins or simulated ones, with its
signals (SIGTERM and SIGINT stop, SIGHUP rereads the settings), systemd's notify and
watchdog, and the MQTT link when the config has one."""

from __future__ import annotations

import asyncio
import logging
import random
import signal
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .. import catalogs
from ..config import Config
from ..errors import CannotStart
from ..requests import RereadSettings
from ..tally import TroubleTally, tally_loop_errors
from .punctual_selector import PunctualSelector

if TYPE_CHECKING:
    from ..shell.daemon import Daemon

log = logging.getLogger("flashtable")

NO_PI = " (on a Pi; elsewhere, --sim runs the table on simulated pins)"


T = TypeVar("T")


def table_loop() -> asyncio.AbstractEventLoop:
    """The daemon's event loop: asyncio's own, on `PunctualSelector`: epoll takes
    descriptors of any number (a page's hundreds of connections), select(2) on epoll's own
    times the wait to the microsecond, so that no timer (a turn running out, a blink's edge,
    a debounce window) runs a millisecond late."""
    selector = PunctualSelector()
    if not selector.punctual:
        log.warning("the loop's timers may run up to 1 ms late: epoll's descriptor is high")
    return asyncio.SelectorEventLoop(selector)


PR_SET_TIMERSLACK = 29  # prctl(2)
TIMER_SLACK = 1_000  # nanoseconds


def punctual_timers() -> bool:
    """Cut this thread's timer slack, and that of the threads it starts from now on, to a
    microsecond: Linux lets a sleep end up to the slack late (50 µs by default) so that
    wakeups coincide. A sleep longer than a millisecond may still end a thousandth of its
    length late (`Wakeup` keeps the last sleep before a wakeup short). True if the kernel
    took it; elsewhere than on Linux, or without prctl, nothing changes and it is False."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        prctl = ctypes.CDLL(None).prctl
    except (ImportError, OSError, AttributeError):  # a Python without ctypes, a static libc
        return False
    prctl.argtypes = [ctypes.c_int, *[ctypes.c_ulong] * 4]
    return bool(prctl(PR_SET_TIMERSLACK, TIMER_SLACK, 0, 0, 0) == 0)


def run_on_table_loop(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run`, on `table_loop`, its thread's timers punctual."""
    if not punctual_timers():
        log.info("the loop's timers keep the kernel's default slack of 50 µs")
    with asyncio.Runner(loop_factory=table_loop) as runner:
        return runner.run(main)


# `flashtable run`'s exit status when the table cannot be built here (sysexits' EX_CONFIG):
# starting it again changes nothing, so the unit lists it in RestartPreventExitStatus=.
CANNOT_START = 78


def tell_on_lcd(config: Config, lines: tuple[str, str]) -> None:
    """Leave `lines` on an I2C LCD, which needs no pins: the table cannot start, and the
    glass keeps the reason after the process has gone. Nothing if it cannot be opened."""
    if config.lcd_interface != "i2c":
        return
    from hardware.device_errors import DisplayUnavailable
    from hardware.lcd import open_display

    try:
        display = open_display("i2c", i2c_port=config.i2c_port, i2c_address=config.i2c_address)
    except DisplayUnavailable:
        return
    display.show(lines)
    display.close()


def build_daemon(
    config: Config,
    state_dir: Path,
    *,
    simulated: bool,
    seed: int,
    notices: list[tuple[str, str]] | None = None,
) -> Daemon:
    """The daemon on the Pi's pins, or on simulated ones with the launcher's mechanics, as
    `flashtable run` runs it (the benchmarks build it here too). Inside the running loop."""
    from gpiozero.exc import GPIOZeroError

    from hardware.clock import LoopClock
    from hardware.device_errors import DisplayUnavailable, PinFactoryUnavailable
    from hardware.factory import factory_name, former_note, make_factory
    from hardware.lcd import open_display
    from hardware.lcd.writer import DisplayWriter
    from hardware.sim.hd44780 import simulated_display
    from hardware.sim.launcher_model import LauncherModel
    from hardware.sim.pins import SimFactory

    from ..game.lcd_glyphs import CUSTOM_CHARS, SUBSTITUTES
    from ..shell.daemon import Daemon
    from ..shell.wiring import Wiring

    clock = LoopClock(asyncio.get_running_loop())
    pinmap = config.pinmap(simulated=simulated)
    try:
        name = "mock" if simulated else factory_name(config.pin_factory)
        if not simulated and (note := former_note(config.pin_factory)):
            log.warning("%s", note)
        if name == "mock":
            pin_factory = SimFactory(clock)
        else:
            pin_factory = make_factory(name, chip=config.gpio_chip, roles=pinmap.roles_by_pin())
    except PinFactoryUnavailable as err:
        # The Pi's backends install only on a Pi: elsewhere, say what runs instead.
        missing = isinstance(err.__cause__, ImportError)
        word = "missing" if missing else "fails"
        raise CannotStart(f"{err}{NO_PI if missing else ''}", f"GPIO {word}") from err
    try:
        if simulated:
            display, _ = simulated_display(glyphs=CUSTOM_CHARS, substitutes=SUBSTITUTES)
        else:
            display = open_display(
                config.lcd_interface,
                pins=pinmap.pins,
                pin_factory=pin_factory,
                i2c_port=config.i2c_port,
                i2c_address=config.i2c_address,
                glyphs=CUSTOM_CHARS,
                substitutes=SUBSTITUTES,
            )
    except DisplayUnavailable as err:
        raise CannotStart(err) from err
    if simulated and "launcher.motor.forward" in pinmap:
        # The simulated table's launcher mechanics, or its beam would never see a card.
        LauncherModel.for_pinmap(pin_factory, clock, pinmap)
    # In real time the loop never waits for the LCD's bus: a thread of its own writes it.
    writer = DisplayWriter(display)
    try:
        daemon = Daemon(
            config,
            Wiring(pinmap, pin_factory, writer, clock),
            rng=random.Random(seed),
            state_dir=state_dir,
            notices=notices or [],
        )
    except BaseException as err:
        writer.close()
        if isinstance(err, GPIOZeroError | OSError):
            raise CannotStart(f"cannot drive the table's pins: {err}", "pins fail") from err
        raise
    return daemon


def pins_named(pin_factory: object) -> str:
    """The pins the table runs on, for its log: the chip and its label, or mock pins."""
    chip = getattr(pin_factory, "chip", None)
    return "mock pins" if chip is None else f"gpiod pins on {chip}"


async def run_daemon(
    config: Config,
    state_dir: Path,
    *,
    simulated: bool,
    seed: int,
    notices: list[tuple[str, str]] | None = None,
) -> int:
    from ..mqtt import linked
    from ..shell.sdnotify import keep_watchdog_fed, notify, watchdog_interval
    from ..web import served

    loop = asyncio.get_running_loop()
    tally = TroubleTally(logging.getLogger("asyncio"))
    tally_loop_errors(loop, tally)
    for path in catalogs.missing():
        log.warning("%s is missing (the install compiles it): its texts show in English", path)
    try:
        daemon = build_daemon(config, state_dir, simulated=simulated, seed=seed, notices=notices)
    except CannotStart as err:
        print(f"flashtable: {err}", file=sys.stderr)
        tell_on_lcd(config, err.lcd)
        return CANNOT_START

    def stop() -> None:
        notify("STOPPING=1")
        daemon.stop()

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    loop.add_signal_handler(signal.SIGHUP, lambda: daemon.submit(RereadSettings()))
    # Only now, with the signals handled: whoever waits for this line may stop the table.
    log.info(
        "table %s: %d seats, %s, seed %d",
        config.table_id,
        daemon.board.pinmap.seats,
        pins_named(daemon.board.pin_factory),
        seed,
    )
    try:
        async with linked(config, daemon), served(config, daemon):
            running = asyncio.create_task(daemon.run())
            await asyncio.sleep(0)  # the table has drawn its first screen
            notify("READY=1")
            interval = watchdog_interval()
            watchdog = asyncio.create_task(keep_watchdog_fed(interval)) if interval else None
            await running
            if watchdog is not None:
                watchdog.cancel()
    finally:
        # The table has stopped: a stop asked again (a second SIGTERM, Ctrl+C twice) while
        # the process ends is ignored. Closing the loop would hand both signals back to
        # their defaults, and one landing then would end the process by the signal.
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
            signal.signal(signum, signal.SIG_IGN)
    tally.close()
    log.info("stopped")
    return 0
