"""The launcher on the Pi's own pins as the daemon wires it (controller/shell/launcher_link.py):
the motor's lease in real time (and none in game time), the cards-owed record written off the
loop, a beam edge still in the kernel's buffer, the hopper switch.

The ejector's own rules have their tests (tests/hardware/test_ejector.py, test_motor_stall.py);
these hold that the daemon hands it what they need."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time

from controller.config import Config
from controller.game.effects import Dispense
from controller.game.events import ExactDraw
from controller.shell.inbox import Inbox
from controller.shell.launcher_link import LauncherLink
from controller.simulation.table import SimTable
from controller.storage import owed as owed_module
from controller.storage.owed import FILE_NAME
from hardware.board import Board
from hardware.clock import VirtualClock
from hardware.ejector import DEFAULT_JAM_TIME
from hardware.gpio_ejector import EDGE_WAIT_LIMIT
from hardware.gpiod_pins import GpiodFactory
from hardware.sim.hd44780 import simulated_display

from ..hardware.gpiod_standin import Kernel
from .test_daemon import built
from .test_launcher_table import config, start

# The launcher table of the build guide: its motor and beam on seat 7 and 8's pins.
LAUNCHER_PINS = {"launcher.motor.forward": 19, "launcher.motor.backward": 16, "launcher.beam": 26}
# Far past any wait of a thread on a loaded machine: a bound on a wait for progress, which
# only a broken rule reaches.
NEVER = 60.0


@contextlib.asynccontextmanager
async def real_time_daemon(state_dir=None):
    """The daemon running on simulated pins in real time (the loop's clock), as `flashtable
    run` makes it with `[gpio] factory = "mock"`; stopped at the end."""
    daemon = built(Config(), state_dir=state_dir)
    running = asyncio.create_task(daemon.run())
    try:
        await daemon.idle()
        yield daemon
    finally:
        daemon.stop()
        await running


async def test_in_real_time_a_stalled_loop_has_the_motor_stopped_by_its_lease():
    async with real_time_daemon() as daemon:
        motor = daemon.board.motor
        assert motor is not None
        daemon.launcher.carry_out(Dispense(5))
        assert motor.value > 0
        # The loop stalls here, in a callback that never returns to it: the lease's own
        # thread stops the motor (within its quarter of a second on an idle machine).
        stalled = time.monotonic()
        while motor.value != 0 and time.monotonic() - stalled < NEVER:
            time.sleep(0.01)
        assert motor.value == 0


async def test_in_real_time_the_cards_owed_record_is_written_off_the_loop(tmp_path, monkeypatch):
    """A slow disk never stalls the table: the record's writes run on a writer thread."""
    writers: list[str] = []
    pwrite = os.pwrite

    def write(fd: int, data: bytes, offset: int) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").endswith(FILE_NAME):
            writers.append(threading.current_thread().name)
        return pwrite(fd, data, offset)

    monkeypatch.setattr(owed_module.os, "pwrite", write)
    async with real_time_daemon(tmp_path) as daemon:
        daemon.feed(ExactDraw(2, "quick", daemon.known_now()))
        waited = time.monotonic()
        while not writers and time.monotonic() - waited < NEVER:
            await asyncio.sleep(0.01)
        assert writers
        assert threading.current_thread().name not in writers


async def test_a_jam_waits_for_a_beam_edge_still_in_the_kernels_buffer(monkeypatch):
    """Edge time is truth: while the beam's line has an edge the kernel stamped and nobody
    has read yet, the card it tells of may have passed, so no jam is declared (for half a
    second at most). The chip's line requests are a stand-in's: no kernel GPIO chip here."""
    kernel = Kernel(monkeypatch)
    config = Config(seats=6, pins=LAUNCHER_PINS)
    pinmap = config.pinmap(simulated=False)
    clock = VirtualClock()
    factory = GpiodFactory(roles=pinmap.roles_by_pin())
    display, _ = simulated_display()
    board = Board(
        pinmap,
        pin_factory=factory,
        clock=clock,
        display=display,
        on_edge=lambda name, active, time: None,
        on_turn=lambda step: None,
    )
    try:
        link = LauncherLink(board, clock=clock, inbox=Inbox(), state_dir=None)
        ejector = link.ejector
        assert ejector is not None
        start = clock.now()
        link.carry_out(Dispense(1))
        kernel.requests[LAUNCHER_PINS["launcher.beam"]].events.append(object())
        while clock.run_next(start + DEFAULT_JAM_TIME + EDGE_WAIT_LIMIT / 5):
            pass
        assert ejector.fault is None  # the edge may end the card: still waited for
        while clock.run_next(start + DEFAULT_JAM_TIME + EDGE_WAIT_LIMIT * 2):
            pass
        assert ejector.fault == "jam"  # an edge that never comes puts the jam off no longer
    finally:
        board.close()
        factory.close()


async def test_a_hopper_already_empty_asks_for_cards_before_the_motor_turns():
    async with SimTable(config(timeout_penalty=4, sleep_time="off"), seed=6) as table:
        table.empty_hopper()
        await start(table, 1, 2)
        speeds = []
        for _ in range(160):  # the turn times out after 4 s, and 4 s more
            await table.advance(0.05)
            speeds.append(table.launcher.motor_speed)
        assert table.lcd == ("Refill cards    ", "press OK  4 owed")
        assert set(speeds) == {0}


async def test_in_game_time_the_motor_has_no_lease_running_in_real_time():
    """The simulated table replays exactly: the launcher's motor runs on the loop's game
    time alone, with no thread of its own watching it in real time while cards fly."""
    before = set(threading.enumerate())
    async with SimTable(config(timeout_penalty=3), seed=2) as table:
        await start(table, 1, 2)
        while table.launcher.motor_speed == 0:  # the turn times out: 3 cards
            await table.advance(0.05)
        assert set(threading.enumerate()) == before
        await table.advance(5.0)
        assert table.cards_out == 3
