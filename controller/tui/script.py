"""The headless player: plays a script on a SimTable in game time and prints the event log.

The script format and its commands are documented in docs/sim-script.md.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TextIO, cast

from controller.catalogs import translation
from controller.config import Config
from controller.game.score import totals
from controller.game.standings import report
from controller.game.text import ordinal
from controller.remote.control import answer
from controller.remote.inbound import Order
from controller.requests import ChangeSettings, EnterPoints, NameSeat
from controller.shell.publish import Stepped
from controller.simulation.table import SimTable
from controller.storage.statefile import reason_of
from hardware.board import input_name
from hardware.pinmap import input_roles

from ..errors import FaultRefused, FirmwareNotLinked, MessageRefused, ScriptError, SettingError
from .eventlog import Recorder, value_text
from .faults import apply_fault, clear_for_ok
from .logroute import LogRoute
from .script_syntax import COUNTS, FAULTS, Step, parse, seat_number, seconds, settings
from .script_tables import Tables
from .standings_table import standings_lines

Restart = Callable[[], Awaitable[SimTable]]


class Player:
    """Plays parsed steps on a running table, writing event lines to `out` as they happen;
    `restart` stops the table as a SIGTERM does and starts it again on its state."""

    def __init__(
        self,
        table: SimTable,
        out: TextIO,
        route: LogRoute | None = None,
        restart: Restart | None = None,
    ) -> None:
        self.out = out
        self.route = route
        self._restart = restart
        self._attach(table)
        self._inputs = False
        self._run: dict[str, Callable[[tuple[str, ...]], Awaitable[None]]] = {
            "tap": self._tap,
            "press": self._press,
            "release": self._release,
            "hold": self._hold,
            "turn": self._turn,
            "wait": self._wait,
            "show": self._show,
            "ok": self._ok,
            "inputs": self._echo_inputs,
            "set": self._set,
            "standings": self._standings,
            "name": self._name,
            "points": self._points,
            "restart": self._restarted,
            "expect": self._expect,
        }

    def _attach(self, table: SimTable, since: float = 0.0) -> None:
        """Play on `table`; its game time counts on from `since` seconds."""
        self.table = table
        self.recorder = Recorder(table, since)
        if self.route is not None:
            self.route.clock = lambda: table.now
        self._expected_seq = 0  # events up to this number are used up by `expect event`

    async def play(self, steps: list[Step]) -> None:
        for step in steps:
            try:
                if step.command in FAULTS:
                    await self._fault(step.command, step.args)
                else:
                    await self._run[step.command](step.args)
            except (ScriptError, FaultRefused) as err:
                raise ScriptError(f"line {step.line}: {err}") from None
            finally:
                self._flush()

    def _flush(self) -> None:
        """Print what happened since the last flush: events, and warnings when they came."""
        lines = [(entry.seconds, entry.line) for entry in self.recorder.take(inputs=self._inputs)]
        start, now = self.recorder.start, self.recorder.seconds
        for when, text in self.route.take_timed() if self.route is not None else ():
            seconds = now if when is None else when - start
            lines.append((seconds, note_line(seconds, text)))
        for _, line in sorted(lines, key=lambda pair: pair[0]):
            print(line, file=self.out)

    def _note(self, text: str) -> None:
        print(note_line(self.recorder.seconds, text), file=self.out)

    def _names(self, args: tuple[str, ...]) -> list[str]:
        """The buttons named, with `lit` and `others` looked up as the table is now."""
        lit = self.table.lit()
        names = []
        for name in args:
            if name == "lit":
                if not lit:
                    raise ScriptError("'lit': no seat has the turn now")
                names.append(f"seat{lit[0]}")
            elif name == "others":
                lights = self.table.lights
                names += [f"seat{s}" for s, p in lights.items() if p != "off" and s not in lit]
            else:
                names.append(name)
        return names

    async def _tap(self, args: tuple[str, ...]) -> None:
        for name in self._names(args):
            await self.table.tap(name)

    async def _press(self, args: tuple[str, ...]) -> None:
        for name in self._names(args):
            await self.table.press(name)

    async def _release(self, args: tuple[str, ...]) -> None:
        for name in self._names(args):
            await self.table.release(name)

    async def _hold(self, args: tuple[str, ...]) -> None:
        for name in self._names(args[:1]):
            await self.table.hold(name, seconds(args[1]))

    async def _turn(self, args: tuple[str, ...]) -> None:
        await self.table.turn(int(args[0]))

    async def _wait(self, args: tuple[str, ...]) -> None:
        await self.table.advance(seconds(args[0]))

    async def _fault(self, command: str, args: tuple[str, ...]) -> None:
        self._flush()
        self._note(await apply_fault(self.table, command, *(int(a) for a in args)))

    async def _ok(self, args: tuple[str, ...]) -> None:
        cleared = await clear_for_ok(self.table)
        if cleared is not None:
            self._flush()
            self._note(cleared)
        await self.table.tap("encoder.push")

    async def _echo_inputs(self, args: tuple[str, ...]) -> None:
        self._inputs = args[0] == "on"

    async def _show(self, args: tuple[str, ...]) -> None:
        lcd = "|".join(self.table.lcd)
        lights = " ".join(f"{s}:{p}" for s, p in self.table.lights.items() if p != "off")
        out = self.table.daemon.table.places
        # Only once a place is taken: a round for the first out shows as it always did.
        english = translation("en")  # the script's words are English (docs/sim-script.md)
        places = " ".join(f"{ordinal(english, n)}:{seat}" for n, seat in enumerate(out, 1))
        self._note(f"lcd |{lcd}| lights {lights or 'none'}" + (f" places {places}" if out else ""))

    async def _standings(self, args: tuple[str, ...]) -> None:
        for line in standings_lines(self.table.daemon.table):
            self._note(line)

    async def _name(self, args: tuple[str, ...]) -> None:
        await self._remote(Order("name", asked=NameSeat(seat_number(args[0]), args[1])))

    async def _points(self, args: tuple[str, ...]) -> None:
        points = EnterPoints(seat_number(args[0]), int(args[1]))
        await self._remote(Order("points", asked=points))

    async def _remote(self, order: Order) -> None:
        """As a remote asks it (MQTT, the web page): a refusal stops the script with the
        table's reason."""
        assert order.asked is not None
        asked = self.table.daemon.submit(order.asked)
        await self.table.settle()
        stepped = await asyncio.wrap_future(asked)
        assert isinstance(stepped, Stepped)
        try:
            answer(order, stepped)
        except MessageRefused as err:
            raise ScriptError(str(err)) from None

    async def _restarted(self, args: tuple[str, ...]) -> None:
        if self._restart is None:
            raise ScriptError("this table cannot restart")
        self._flush()
        since = self.recorder.seconds
        self._note("restart: the table stops and starts again on its state")
        self._attach(await self._restart(), since)

    async def _set(self, args: tuple[str, ...]) -> None:
        # As `flashtable settings set` does to a running table: one change, kept, announced.
        asked = self.table.daemon.submit(ChangeSettings(settings(args)))
        await self.table.settle()
        try:
            await asyncio.wrap_future(asked)
        except SettingError as err:  # the change met the table's settings: a bound passed
            raise ScriptError(str(err)) from None

    async def _expect(self, args: tuple[str, ...]) -> None:
        what, rest = args[0], args[1:]
        if what == "lcd":
            if not any(rest[0] in line for line in self.table.lcd):
                raise ScriptError(f"LCD shows {self.table.lcd!r}, not {rest[0]!r}")
        elif what == "light":
            seat, pattern = seat_number(rest[0]), rest[1]
            shown = self.table.lights.get(seat)
            if shown != pattern:
                raise ScriptError(f"seat {seat} light is {shown}, not {pattern}")
        elif what == "lit":
            lit = self.table.lit()
            wanted = [] if rest[0] == "none" else [seat_number(rest[0])]
            if lit != wanted:
                raise ScriptError(f"lit seats are {lit or 'none'}, not {rest[0]}")
        elif what == "event":
            self._expect_event(rest[0], dict(pair.split("=", 1) for pair in rest[1:]))
        elif what == "place":
            self._expect_place(seat_number(rest[0]), rest[1])
        elif what == "standings":
            self._expect_standings(rest)
        elif what == "total":
            seat = seat_number(rest[0])
            total = totals(self.table.daemon.table).get(seat, 0)
            if total != int(rest[1]):
                raise ScriptError(f"seat {seat}'s total is {total}, not {rest[1]}")
        elif what in COUNTS:
            if self.table.launcher is None:
                raise ScriptError("this table has no launcher")
            counted = getattr(self.table.launcher, what)
            if counted != int(rest[0]):
                where = "out" if what == "cards_out" else "left in the hopper"
                raise ScriptError(f"{counted} cards {where}, not {rest[0]}")

    def _expect_place(self, seat: int, wanted: str) -> None:
        places = self.table.daemon.table.places
        place = str(places.index(seat) + 1) if seat in places else "none"
        if place != wanted:
            raise ScriptError(f"seat {seat} has place {place}, not {wanted}")

    def _expect_standings(self, args: tuple[str, ...]) -> None:
        table = self.table.daemon.table
        figures = report(table.standings, table.names)
        what, pairs = "the standings", args
        if "=" not in args[0]:
            seat = seat_number(args[0])
            entries = cast(list[dict[str, object]], figures["seats"])
            figures = next((e for e in entries if e["seat"] == seat), {})
            what, pairs = f"seat {seat}'s standings", args[1:]
            if not figures:
                raise ScriptError(f"seat {seat} has no standings yet")
        for key, value in (pair.split("=", 1) for pair in pairs):
            shown = value_text(figures[key])
            if shown != value:
                raise ScriptError(f"{what}: {key} is {shown}, not {value}")

    def _expect_event(self, kind: str, data: dict[str, str]) -> None:
        for event in self.table.events:
            if event.seq <= self._expected_seq:
                continue
            if event.type == kind and all(
                key in event.data and value_text(event.data[key]) == value
                for key, value in data.items()
            ):
                self._expected_seq = event.seq
                return
        wanted = " ".join([kind, *(f"{k}={v}" for k, v in data.items())])
        raise ScriptError(f"no event {wanted} since the last one expected")


def note_line(seconds: float, text: str) -> str:
    """A line of the player's own: `#      12.080 launcher jammed`."""
    return f"#    {seconds:>8.3f} {text}"


def input_names(config: Config) -> frozenset[str]:
    """The buttons a table built from `config` has, by the names scripts use."""
    pinmap = config.pinmap(simulated=True)
    # The hopper switch is the launcher model's, not a button a player presses.
    roles = [r for r in input_roles(pinmap.seats) if r in pinmap and r != "launcher.empty"]
    return frozenset(input_name(role) for role in roles)


async def play_script(
    config: Config, path: Path, *, seed: int, out: TextIO, firmware: bool = False
) -> None:
    """Parse and play the script at `path`; raises ScriptError naming the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScriptError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise ScriptError(f"{path}: not UTF-8 text") from None
    except OSError as err:
        raise ScriptError(f"{path}: cannot read: {reason_of(err)}") from None
    try:
        steps = parse(text, input_names(config))
        # The table's warnings (a jam, say) belong in the log with the events, not on stderr.
        with LogRoute() as route, tempfile.TemporaryDirectory() as directory:
            # A script that restarts the table keeps its game in a directory of its own for
            # the while; any other plays with none, as it always did.
            restarts = any(step.command == "restart" for step in steps)
            tables = Tables(config, seed, firmware, Path(directory) if restarts else None)
            try:
                await Player(await tables.start(), out, route, tables.restart).play(steps)
            finally:
                await tables.stop()
    except ScriptError as err:
        raise ScriptError(f"{path}: {err}") from None


def run_script(config: Config, path: Path, *, seed: int, firmware: bool = False) -> int:
    """The exit status of playing `path`: 0, or 1 with the reason on standard error."""
    try:
        asyncio.run(play_script(config, path, seed=seed, out=sys.stdout, firmware=firmware))
    except (ScriptError, FirmwareNotLinked) as err:
        sys.stdout.flush()
        print(f"flashtable: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # the table has stopped, and the firmware with it
        sys.stdout.flush()
        print("flashtable: interrupted", file=sys.stderr)
        return 130
    return 0
