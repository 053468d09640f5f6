"""The `flashtable` command: its options, and which command runs. The daemon's own run is
controller.commands.run, the simulated table's controller.commands.sim_command, the fleet's
controller.mqtt.fleet_command, the firmware's controller.commands.firmware_sim."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
from pathlib import Path

from .. import __version__
from ..config import DEFAULT_PATH, DEFAULT_STATE_DIR, Config, load
from ..errors import ConfigError, SettingError
from ..mqtt.fleet_command import fleet_command
from ..settings import key_values
from .check_config import check_config
from .closed_pipe import quiet_on_closed_pipe
from .firmware_sim import add_firmware_sim, check_firmware_sim, run_firmware_sim
from .help_text import Parser
from .settings_command import settings_command
from .sim_command import check_sim, run_sim

log = logging.getLogger("flashtable")


SOURCE = Path(__file__).resolve().parents[2]  # the checkout, if the program runs from one


def sim_state_dir(source: Path = SOURCE) -> Path:
    """The simulated table's own place, apart from a real table's files: in the checkout the
    program runs from (`source`, where `./dev` installs it), so that each clone's simulated
    table starts new and no clone resumes another's game; installed from a package, in the
    user's state directory."""
    if (source / "pyproject.toml").is_file() and (source / "controller").is_dir():
        return source / ".sim-state"
    home = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(home) / "flashtable-sim"


SIM_STATE_DIR = sim_state_dir()


def _how_to_play() -> str:
    from ..howto import how_to_play

    return "\n".join(how_to_play(indent="  "))


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="flashtable",
        description="Flash Table: lit player buttons, turn timers, SLAP races and a card "
        "launcher for UNO, on a Raspberry Pi.",
        epilog=_how_to_play(),
    )
    parser.add_argument("--version", action="version", version=f"flashtable {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def config_option(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--config",
            type=Path,
            metavar="PATH",
            help=f"operator config file (default: {DEFAULT_PATH}; defaults if it is missing)",
        )

    def state_dir_option(sub: argparse.ArgumentParser, *, default: str) -> None:
        sub.add_argument(
            "--state-dir",
            type=Path,
            metavar="DIR",
            help=f"where the table keeps its settings and its own files (default: {default})",
        )

    # One place for each kind of table: the real one's, and the simulated one's (shared by
    # `sim`, `run --sim` and `settings --sim`), apart so that neither touches the other.
    either = f"{DEFAULT_STATE_DIR}; with --sim: {SIM_STATE_DIR}"

    def sim_option(sub: argparse.ArgumentParser, what: str) -> None:
        sub.add_argument("--sim", action="store_true", help=what)

    def log_option(sub: argparse.ArgumentParser, to: str = "standard output") -> None:
        sub.add_argument(
            "--log-level",
            default="info",
            choices=("debug", "info", "warning", "error"),
            help=f"how much to log to {to} (default: info)",
        )

    run = commands.add_parser(
        "run",
        help="run the table daemon on the Pi's pins",
        description="Run the table daemon: on the Pi's GPIO pins, or with --sim on "
        "simulated pins (no hardware needed). Stops cleanly on SIGTERM or Ctrl-C.",
    )
    config_option(run)
    state_dir_option(run, default=either)
    sim_option(run, "run on simulated pins instead of the Pi's GPIO")
    run.add_argument(
        "--seed", type=int, help="seed for the random generator (repeatable games; default: random)"
    )
    log_option(run)

    sim = commands.add_parser(
        "sim",
        help="play the simulated table in this terminal",
        description="Run the daemon on simulated pins with an interactive view of the table: "
        "keys press the buttons and turn the encoder (press ? in the view for the key map).",
        epilog="A script for --headless has one command a line (tap, press, release, hold, "
        "turn, wait, jam, clear, ok, empty, refill, show, inputs, expect); docs/sim-script.md "
        "describes them and docs/examples/full-round.txt plays a whole round.\n\n" + _how_to_play(),
    )
    config_option(sim)
    sim.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    sim.add_argument(
        "--seats",
        type=int,
        choices=range(2, 9),
        metavar="N",
        help="seats to show, 2-8 (default: the config's, or the 6-seat launcher table)",
    )
    sim.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        metavar="X",
        help="speed of game time against real time, e.g. 0.5 for slow demos (default: 1)",
    )
    sim.add_argument(
        "--headless",
        action="store_true",
        help="no view: play --script and print the event log",
    )
    sim.add_argument("--script", type=Path, metavar="FILE", help="script to play with --headless")
    sim.add_argument(
        "--launcher",
        choices=("gpio", "serial"),
        help="gpio: the launcher on the Pi's pins; serial: the launcher firmware in the loop, "
        "on a pseudo-terminal, over the serial protocol (default: the config's [launcher], so "
        "a config naming a Pico's port plays with that board)",
    )
    state_dir_option(sim, default=f"{SIM_STATE_DIR}; a --headless script keeps nothing")
    sim.set_defaults(command_parser=sim)

    password = commands.add_parser(
        "web-password",
        help="set the password of the web page's remote",
        description="Ask for the password of the web page's remote (twice at a terminal; "
        "one line from a pipe) and keep its scrypt hash in the config's [web] password_file, "
        "readable by its owner alone. A running table reads it at its next start.",
    )
    config_option(password)
    password.add_argument(
        "--file",
        type=Path,
        metavar="PATH",
        help="write the hash here instead of the config's [web] password_file",
    )
    password.set_defaults(command_parser=password)

    settings = commands.add_parser(
        "settings",
        help="show the game settings, or change them from the shell",
        description="Show the game settings of a table and the file they live in: the real "
        "table's, or with --sim the simulated table's. 'set KEY=VALUE ...' changes some "
        "(checked like the menu checks them), 'reset' goes back to the config's values. A "
        "running daemon rereads the file on SIGHUP (systemctl reload flashtable).",
    )
    config_option(settings)
    state_dir_option(settings, default=either)
    sim_option(settings, "the simulated table's settings (flashtable sim, run --sim)")
    settings.set_defaults(command_parser=settings)
    settings.add_argument(
        "action", nargs="?", choices=("show", "set", "reset"), default="show", help="default: show"
    )
    settings.add_argument("changes", nargs="*", metavar="KEY=VALUE", help="settings to set")

    off = commands.add_parser(
        "outputs-off",
        help="stop the launcher's motor and darken the outputs (systemd runs it after run)",
        description="Drive every output of the config's pin map to its safe level: the "
        "launcher's motor stopped, the lights and the buzzer off. systemd runs it after the "
        "daemon ends in any way, since a GPIO line keeps its level when its process dies.",
    )
    config_option(off)
    state_dir_option(off, default=str(DEFAULT_STATE_DIR))

    check = commands.add_parser(
        "check-config",
        help="validate the config file and pin map",
        description="Validate the config file and its pin map. Prints the pin map and exits "
        "0 when it is usable; prints one line with the reason and exits 1 when it is not.",
    )
    config_option(check)

    fleet = commands.add_parser(
        "fleet",
        help="list and change the tables on an MQTT broker",
        description="The tables on the broker of the config's [mqtt] section (use an "
        "operator's account that may read and write flashtable/#).",
    )
    actions = fleet.add_subparsers(dest="fleet_action", required=True, metavar="ACTION")
    status = actions.add_parser(
        "status",
        help="list every table: id, online, mode, phase, seats",
        description="List every table that has published on the broker, from its retained "
        "status and state.",
    )
    config_option(status)
    change = actions.add_parser(
        "set",
        help="change settings on one table or on all online tables",
        description="Send KEY=VALUE settings to a table (checked there as its menu checks "
        "them) and print each table's answer. Exits 1 if a table refused or did not answer.",
    )
    config_option(change)
    change.add_argument("changes", nargs="+", metavar="KEY=VALUE", help="settings to set")
    change.set_defaults(command_parser=change)
    target = change.add_mutually_exclusive_group(required=True)
    target.add_argument("--table", metavar="ID", help="the table to change")
    target.add_argument("--all", action="store_true", help="every table that is online")
    add_firmware_sim(commands, log_option)
    return parser


def main(argv: list[str] | None = None) -> int:
    return quiet_on_closed_pipe(lambda: command(argv))


def command(argv: list[str] | None) -> int:
    """Parse `argv` and run the command it names; its exit status."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # argparse takes a command's KEY=VALUE words in one run: those after an option among them
    # (`settings set --sim turn_timer=8`) come back in `extra`, and are theirs too.
    changes = getattr(args, "changes", None)
    if isinstance(changes, list):
        changes += [word for word in extra if "=" in word and not word.startswith("-")]
        extra = [word for word in extra if word not in changes]
    if extra:
        getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "sim":
        check_sim(args)
    if args.command == "firmware-sim":
        check_firmware_sim(args)
    if args.command in ("check-config", "settings", "fleet", "outputs-off", "web-password"):
        # Commands for the shell print their own one-line messages; the log is the daemon's.
        logging.getLogger().addHandler(logging.NullHandler())
    try:
        if args.command == "check-config":
            return check_config(args.config)
        if args.command == "outputs-off":
            from .outputs_off import outputs_off

            config, _ = config_or_defaults(args.config)
            return outputs_off(config, args.state_dir or DEFAULT_STATE_DIR)
        if args.command == "settings":
            if args.action != "set" and args.changes:
                args.command_parser.error(f"'{args.action}' takes no KEY=VALUE")
            changes = shell_changes(args) if args.action == "set" else {}
            state_dir = args.state_dir or (SIM_STATE_DIR if args.sim else DEFAULT_STATE_DIR)
            table = "the simulated table" if args.sim else "the table"
            config = load(args.config)
            return settings_command(config, state_dir, args.action, changes, table=table)
        if args.command == "web-password":
            from ..web.password_command import web_password

            return web_password(load(args.config), args.file, args.command_parser)
        if args.command == "fleet":
            if args.fleet_action == "set":
                shell_changes(args)  # a malformed word is a usage error before any broker
            return fleet_command(load(args.config), args)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        if args.command == "sim":
            return run_sim(load(args.config), args, seed, args.state_dir or SIM_STATE_DIR)
        if args.command == "firmware-sim":
            logging.basicConfig(
                level=args.log_level.upper(),
                stream=sys.stderr,
                format="%(levelname)s %(name)s: %(message)s",
            )
            return asyncio.run(run_firmware_sim(args, seed))
    except ConfigError as err:
        print(f"flashtable: {err}", file=sys.stderr)
        return 1
    logging.basicConfig(
        level=args.log_level.upper(),
        stream=sys.stdout,
        format="%(levelname)s %(name)s: %(message)s",
    )
    # The daemon's own modules load only for `run`: `outputs-off`, which systemd runs after
    # the daemon ends with the launcher's motor maybe running, starts without them.
    from .run import run_daemon, run_on_table_loop

    config, notices = config_or_defaults(args.config)
    state_dir = args.state_dir or (SIM_STATE_DIR if args.sim else DEFAULT_STATE_DIR)
    return run_on_table_loop(
        run_daemon(config, state_dir, simulated=args.sim, seed=seed, notices=notices)
    )


def shell_changes(args: argparse.Namespace) -> dict[str, str]:
    """The command's KEY=VALUE words; one that is not KEY=VALUE is a usage error (exit 2)
    showing the right form. What a setting may hold is the settings model's to refuse."""
    parser: argparse.ArgumentParser = args.command_parser
    try:
        return key_values(args.changes)
    except SettingError as err:
        parser.error(str(err))


CONFIG_BAD = ("Config file bad:", "defaults in use")  # the LCD's notice


def config_or_defaults(path: Path | None) -> tuple[Config, list[tuple[str, str]]]:
    """The daemon always starts: a config it cannot use is logged and shown on the LCD, and
    the defaults run the table (a power cut must not leave a table that never comes up)."""
    try:
        return load(path), []
    except ConfigError as err:
        log.error("%s; the defaults are used", err)
        return Config(), [CONFIG_BAD]


if __name__ == "__main__":
    sys.exit(main())
