"""`flashtable run`: the daemon as a process, on the Pi's pins or simulated ones, with its
signals (SIGTERM and SIGINT stop, SIGHUP rereads the settings), systemd's notify and
watchdog, and the MQTT link when the config has one."""

from __future__ import annotations

import asyncio
import logging
import random
import signal
import sys
from pathlib import Path

from .config import Config
from .requests import RereadSettings

log = logging.getLogger("flashtable")

NO_PI = " (on a Pi; elsewhere, --sim runs the table on simulated pins)"


async def run_daemon(
    config: Config,
    state_dir: Path,
    *,
    simulated: bool,
    seed: int,
    notices: list[tuple[str, str]] | None = None,
) -> int:
    from gpiozero.exc import GPIOZeroError

    from hardware.clock import LoopClock
    from hardware.factory import FactoryError, factory_name, make_factory
    from hardware.lcd import DisplayError, open_display
    from hardware.sim.hd44780 import simulated_display
    from hardware.sim.launcher import LauncherModel
    from hardware.sim.pins import SimFactory

    from .daemon import Daemon
    from .game.glyphs import CUSTOM_CHARS
    from .mqtt import linked
    from .sdnotify import keep_watchdog_fed, notify, watchdog_interval
    from .settings_store import SettingsStore, settings_notice

    loop = asyncio.get_running_loop()
    clock = LoopClock(loop)
    try:
        name = "mock" if simulated else factory_name(config.pin_factory)
        if name == "mock":
            pin_factory = SimFactory(clock)
        else:
            pin_factory = make_factory(name, chip=config.lgpio_chip, work_dir=state_dir)
    except FactoryError as err:
        # The Pi's backends install only on a Pi: elsewhere, say what runs instead.
        missing = isinstance(err.__cause__, ImportError)
        print(f"flashtable: {err}{NO_PI if missing else ''}", file=sys.stderr)
        return 1
    pinmap = config.pinmap(simulated=simulated)
    try:
        if simulated:
            display, _ = simulated_display(glyphs=CUSTOM_CHARS)
        else:
            display = open_display(
                config.lcd_interface,
                pins=pinmap.pins,
                pin_factory=pin_factory,
                i2c_port=config.i2c_port,
                i2c_address=config.i2c_address,
                glyphs=CUSTOM_CHARS,
            )
    except DisplayError as err:
        print(f"flashtable: {err}", file=sys.stderr)
        return 1
    store = SettingsStore(state_dir, config.settings)
    loaded = store.load()
    if simulated and "launcher.motor.forward" in pinmap:
        # The simulated table's launcher mechanics, or its beam would never see a card.
        LauncherModel.for_pinmap(pin_factory, clock, pinmap)
    try:
        daemon = Daemon(
            pinmap=pinmap,
            pin_factory=pin_factory,
            display=display,
            clock=clock,
            rng=random.Random(seed),
            settings=loaded.settings,
            state_dir=state_dir,
            store=store,
            notices=[*(notices or []), *([settings_notice(loaded)] if loaded.problems else [])],
            launcher=config.launcher,
        )
    except (GPIOZeroError, OSError) as err:
        print(f"flashtable: cannot drive the table's pins: {err}", file=sys.stderr)
        return 1

    def stop() -> None:
        notify("STOPPING=1")
        daemon.stop()

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    loop.add_signal_handler(signal.SIGHUP, lambda: daemon.submit(RereadSettings()))
    log.info("table %s: %d seats, %s pins, seed %d", config.table_id, pinmap.seats, name, seed)
    async with linked(config, daemon):
        running = asyncio.create_task(daemon.run())
        await asyncio.sleep(0)  # the table has shown its first screen
        notify("READY=1")
        interval = watchdog_interval()
        watchdog = asyncio.create_task(keep_watchdog_fed(interval)) if interval else None
        await running
        if watchdog is not None:
            watchdog.cancel()
    log.info("stopped")
    return 0
