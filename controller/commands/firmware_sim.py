"""`flashtable firmware-sim`: the launcher controller's firmware under CPython on the
simulator's launcher model, on a fresh pseudo-terminal, with faults on the line if asked."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .help_text import Parser

log = logging.getLogger("flashtable")


def add_firmware_sim(
    commands: argparse._SubParsersAction[Parser],
    log_option: Callable[[argparse.ArgumentParser, str], None],
) -> None:
    """The command's parser, with its options."""
    from hardware.sim.relay import DELAY

    firmware = commands.add_parser(
        "firmware-sim",
        help="run the launcher firmware on a simulated launcher, on a pseudo-terminal",
        description="Run the launcher controller's firmware (firmware/) under CPython, on "
        "the simulator's launcher model, on a fresh pseudo-terminal. The first line printed is "
        "'port: /dev/pts/N': give that as [launcher] port (with link = \"serial\") to a "
        "daemon; the second is the banner the firmware writes on the line as it starts. Fault "
        "options damage the line between the port and the firmware, per byte; --jam makes "
        "cards stick. SIGUSR1 logs the cards out so far; stops on Ctrl-C or SIGTERM, logging "
        "them.",
    )
    firmware.add_argument(
        "--cards", type=int, default=54, metavar="N", help="cards in the hopper (default: 54)"
    )
    for fault, what in (
        ("drop", "loses a byte"),
        ("duplicate", "sends a byte twice"),
        ("corrupt", "changes a byte"),
        ("delay", f"holds a byte back {int(DELAY * 1000)} ms"),
    ):
        firmware.add_argument(
            f"--{fault}",
            type=float,
            default=0.0,
            metavar="RATE",
            help=f"chance, 0 to 1, that the line {what} (default: 0)",
        )
    firmware.add_argument(
        "--jam",
        type=float,
        default=0.0,
        metavar="RATE",
        help="chance, 0 to 1, that a card sticks in the slot; a hand pulls it out 1 s after "
        "the motor stops, and it counts for the jammed dispense (default: 0)",
    )
    firmware.add_argument("--seed", type=int, help="random seed (default: random)")
    log_option(firmware, "standard error")  # standard output: the port line, the banner
    firmware.set_defaults(command_parser=firmware)


def check_firmware_sim(args: argparse.Namespace) -> None:
    if args.cards < 0:
        args.command_parser.error(f"--cards cannot be below 0, not {args.cards}")
    for name in ("drop", "duplicate", "corrupt", "delay", "jam"):
        rate = getattr(args, name)
        if not 0.0 <= rate <= 1.0:
            args.command_parser.error(f"--{name} must be 0 to 1, not {rate}")


async def run_firmware_sim(args: argparse.Namespace, seed: int) -> int:
    """The firmware on a fresh pseudo-terminal until a signal; with faults, a relay between
    the port given out and the firmware's own pseudo-terminal damages the bytes."""
    from hardware.clock import LoopClock
    from hardware.sim.firmware_port import FirmwarePort
    from hardware.sim.relay import LineFaults

    loop = asyncio.get_running_loop()
    port = FirmwarePort(LineFaults(args.drop, args.duplicate, args.corrupt, args.delay))
    try:
        firmware = port.start(clock=LoopClock(loop), seed=seed, cards=args.cards, jam_rate=args.jam)
        model = firmware.model

        def counts() -> None:
            log.info("cards out: %d, left in the hopper: %d", model.cards_out, model.cards_left)

        stopping = asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stopping.set)
        # The counts while it runs, for whoever counts the cards on this side of the line;
        # in place before the port is printed, as the others are.
        loop.add_signal_handler(signal.SIGUSR1, counts)
        print(f"port: {port.port}", flush=True)
        # Second, for a person: what the firmware wrote on the line as it started.
        print(firmware.banner.rstrip("\r\n"), flush=True)
        await stopping.wait()
        if port.relay is not None:
            log.info("line faults: %s", port.relay.counts)
        counts()
    finally:
        port.close()
    return 0
