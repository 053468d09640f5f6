"""`flashtable sim`: the simulated table, in the terminal view or played headless from a
script, on the config's table with the command's own choices (seats, the simulated launcher
on pins or behind its firmware, a page on this machine alone)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from ..config import Config, LauncherConfig, WebConfig

SIM_LISTEN = "127.0.0.1:8080"  # the simulated table's page: this machine alone, by default


def check_sim(args: argparse.Namespace) -> None:
    """Refuse, as a usage error, options that cannot go together."""
    if args.headless and args.script is None:
        args.command_parser.error("--headless needs a --script FILE to play")
    if args.script is not None and not args.headless:
        args.command_parser.error("--script plays only with --headless")
    if args.time_scale <= 0:
        args.command_parser.error(f"--time-scale must be above 0, not {args.time_scale}")


def run_sim(config: Config, args: argparse.Namespace, seed: int, state_dir: Path) -> int:
    """Play the simulated table until it is quit (or its script ends); its exit status."""
    from ..tui import run_view

    if args.seats is not None:
        config = replace(config, seats=args.seats)
    if config.web is None and not args.headless:
        config = replace(config, web=WebConfig(enabled=True, listen=SIM_LISTEN))
    if args.launcher is not None:  # the simulated launcher, on pins or behind the firmware
        config = replace(config, launcher=LauncherConfig())
    elif config.launcher.link == "serial":
        # A real controller: its motor and its watchdog keep real time, and so must the game.
        real = f"the launcher controller at {config.launcher.port} runs in real time"
        if args.headless:
            args.command_parser.error(f"{real}: --headless plays in game time (--launcher)")
        if args.time_scale != 1:
            args.command_parser.error(f"{real}: --time-scale must be 1")
    return run_view(
        config,
        seed=seed,
        time_scale=args.time_scale,
        script=args.script,
        state_dir=state_dir,
        firmware=args.launcher == "serial",
    )
