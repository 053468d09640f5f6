"""The game snapshot in the state directory: written at each significant moment of play, read
at start to resume the game paused ("Resumed" on the LCD, then Play goes on).

A snapshot is taken whenever what a resumed game needs changes: a seat claimed, a turn begun
or ended, a pause, a penalty, a round's end; not for a card counted (the cards-owed file has
those) nor for a second ticking by. While a turn's timer runs, the time it has left is also
taken every HEARTBEAT seconds, for the snapshot's last line. The loop only hands the bytes to
the writer thread (snapshot_writer.py), which flushes the time left every SYNC_EVERY seconds:
after a SIGKILL the turn resumes within HEARTBEAT of the time it had, after a power cut
within SYNC_EVERY. Snapshots are bounded to MAX_WRITES_PER_MINUTE; past that, the newest
table waits for the next second, and the next, until the minute has room.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from hardware.clock import Clock, Timer

from .. import __version__
from ..catalogs import N_
from ..errors import DamagedFile, UndecodableSnapshot, UnreadableStateFile
from ..game import codec
from ..game.state import Delivery, Lines, Phase, Table
from ..game.summary import record_launcher_cards
from .safe_read import parse_json
from .snapshot_writer import SnapshotWriter
from .statefile import not_saving, read_bytes, unusable

log = logging.getLogger(__name__)

FILE_NAME = "game.json"
HEARTBEAT = 0.1
MAX_WRITES_PER_MINUTE = 120
CLOCK_LINE = 64  # the heartbeat's fixed line at the end of the file
RESUMED = (N_("Resumed"), N_("press Play"))  # the LCD's notice
SET_ASIDE = (N_("Saved game bad:"), N_("new game"))


class Snapshots:
    """The snapshot file of one table in `state_dir` (none without one). Loop thread only,
    but for `on_notice`, which the writer's thread calls with what the LCD should say when
    the disk refuses the snapshot (the shell hands it on to the loop)."""

    def __init__(
        self, state_dir: Path | None, clock: Clock, on_notice: Callable[[Lines], None]
    ) -> None:
        self.path = None if state_dir is None else state_dir / FILE_NAME
        self._clock = clock
        self._writer: SnapshotWriter | None = None
        if self.path is not None:
            self._writer = SnapshotWriter(
                self.path,
                on_refused=lambda err: on_notice(not_saving(err)),
            )
        self._written: str | None = None  # what the last snapshot holds that matters
        self.recent: list[float] = []  # when the snapshots of the last minute were taken
        self._late: Timer | None = None
        self._beat: Timer | None = None
        self._table: Table | None = None  # the newest table noted (a late snapshot, the beat)
        self.resumed: Phase | None = None  # the phase of the game resumed at start, if any
        self.saved_at: float | None = None  # and when it was last written (the epoch's s)

    # -- at start --------------------------------------------------------------------

    def resume(self, fresh: Table, rng: random.Random, owed: int) -> tuple[Table, list[Lines]]:
        """The game to resume, paused, or `fresh`; and what the LCD says about it. `owed` is
        what the cards-owed file says: it is the truth for the launcher's deliveries."""
        if self.path is None:
            return fresh, []
        try:
            data = read_bytes(self.path)
            if data is None:
                return fresh, []
            snapshot, left = _split(data)
            # The codec's own format decides whether it can read a snapshot: one written by
            # another version of the program in the same format resumes (an upgrade keeps
            # the game and the evening's standings).
            table = codec.decode(
                snapshot,
                settings=fresh.settings,
                stations=fresh.stations,
                has_launcher=fresh.has_launcher,
                now=self._clock.now(),
                rng=rng,
                left=left,
            )
        except UnreadableStateFile:
            return fresh, [SET_ASIDE]
        except (DamagedFile, UndecodableSnapshot) as err:
            unusable(self.path, str(err))
            return fresh, [SET_ASIDE]
        table = _owed_as_kept(table, owed)
        # The Info screen's and MQTT's counts are this daemon's (docs/mqtt.md): a snapshot's
        # are as old as its last write, which a card counted does not bring about.
        table = replace(table, launcher=replace(table.launcher, cards_out=0, jams=0))
        self.resumed = table.phase
        try:
            self.saved_at = self.path.lstat().st_mtime
        except OSError:
            self.saved_at = None
        log.info("resumed the game from %s: %s", self.path, table.phase.value)
        return table, [RESUMED] if table.phase is Phase.PAUSED else []

    def give_up(self, resumed: Table, fresh: Table, err: Exception) -> Table:
        """The resumed game failed on its first step or draw: its file is set aside, and a
        new game starts from `fresh`, owing the cards `resumed` owed (the launcher is already
        dealing them), to whoever is at the slot."""
        assert self.path is not None  # nothing is resumed without a file
        self.resumed = None
        unusable(self.path, f"the game failed to resume: {type(err).__name__}: {err}"[:200])
        owed = resumed.launcher.owed
        queue = (Delivery(None, owed, "restart"),) if owed else ()
        return replace(fresh, launcher=replace(fresh.launcher, queue=queue))

    # -- in play ---------------------------------------------------------------------

    def note(self, table: Table) -> None:
        """After each step of the engine: take a snapshot if something that matters changed,
        and keep the heartbeat going while a turn's timer runs. Returns at once."""
        if self._writer is None:
            return
        self._table = table
        if self._late is None:
            self._take(table, bounded=True)
        self._keep_beating(table)

    def wait(self) -> None:
        """Wait until the writer has written all it was handed (see SnapshotWriter.wait)."""
        if self._writer is not None:
            self._writer.wait()

    def close(self, table: Table) -> None:
        """Take the last snapshot, unbounded, with the time left; the writer has them on the
        disk when this returns."""
        for timer in (self._beat, self._late):
            if timer is not None:
                timer.cancel()
        self._beat = self._late = None
        if self._writer is not None:
            self._take(table, bounded=False)
            self._time_left(table)
            self._writer.close()

    def _take(self, table: Table, *, bounded: bool) -> None:
        assert self._writer is not None
        now = self._clock.now()
        snapshot = codec.encode(table, now)
        digest = _digest(snapshot, table)
        if digest == self._written:
            return
        self.recent = [t for t in self.recent if t > now - 60.0]
        if bounded and len(self.recent) >= MAX_WRITES_PER_MINUTE:
            self._late = self._clock.call_at(now + 1.0, self._take_late)
            return
        snapshot["flashtable"] = __version__
        line = json.dumps(snapshot, sort_keys=True, separators=(",", ":")).encode() + b"\n"
        self._writer.snapshot(line, _clock_line(codec.time_left(snapshot)), now)
        self._written = digest
        self.recent.append(now)

    def _take_late(self) -> None:
        """The bound's second has passed: the newest table noted since is the one taken."""
        self._late = None
        assert self._table is not None  # noted before the bound was met
        self.note(self._table)

    def _keep_beating(self, table: Table) -> None:
        if _deadline(table) is None:
            if self._beat is not None:
                self._beat.cancel()
                self._beat = None
            return
        if self._beat is None:
            self._beat = self._clock.call_at(self._clock.now() + HEARTBEAT, self._tick)

    def _tick(self) -> None:
        self._beat = None
        assert self._table is not None  # noted before the beat began
        self._time_left(self._table)
        self._keep_beating(self._table)

    def _time_left(self, table: Table) -> None:
        """Hand the running turn's time left to the writer, if a turn's timer runs."""
        deadline = _deadline(table)
        if self._writer is None or deadline is None:
            return
        now = self._clock.now()
        self._writer.time_left(_clock_line(max(0.0, deadline - now)), now)


def _deadline(table: Table) -> float | None:
    """When the running turn's timer runs out; None when no turn's timer runs."""
    if table.phase is not Phase.TURN or table.turn is None:
        return None
    return table.turn.deadline


def _digest(snapshot: dict[str, Any], table: Table) -> str:
    """What a resumed game would get wrong if it were not written now: not the time a
    running turn has played (the heartbeat keeps it), nor a card counted (the cards-owed
    file does)."""
    kept = dict(snapshot)
    turn = kept.get("turn")
    if turn is not None and table.phase is not Phase.PAUSED:
        kept["turn"] = {"seat": turn["seat"]}
    launcher = dict(kept["launcher"])
    launcher["queue"] = [[seat, reason] for seat, _, reason in launcher["queue"]]
    del launcher["cards_out"]
    kept["launcher"] = launcher
    kept["stats"] = {seat: stats[:3] + stats[4:] for seat, stats in kept["stats"].items()}
    return json.dumps(kept, sort_keys=True)


def _clock_line(left: float | None) -> bytes:
    text = json.dumps({"left": None if left is None else round(left, 3)})
    return text.ljust(CLOCK_LINE - 1).encode() + b"\n"


def _split(data: bytes) -> tuple[dict[str, object], float | None]:
    """The snapshot and the heartbeat's time left (None when it has none it can give)."""
    if len(data) <= CLOCK_LINE:
        raise DamagedFile("too short to be a snapshot")
    snapshot = parse_json(data[:-CLOCK_LINE])
    if not isinstance(snapshot, dict):
        raise DamagedFile("not a snapshot")
    try:
        beat = parse_json(data[-CLOCK_LINE:])
    except DamagedFile:
        return snapshot, None  # torn by a cut: the snapshot's own figure stands
    left = beat.get("left") if isinstance(beat, dict) else None
    if isinstance(left, bool) or not isinstance(left, int | float):
        return snapshot, None
    return snapshot, float(left)


def _owed_as_kept(table: Table, owed: int) -> Table:
    """The deliveries as the cards-owed file has them: cards counted since the snapshot pay
    off the first deliveries (and count for their seats); cards owed that the snapshot does
    not know of go to whoever is at the slot."""
    launcher = table.launcher
    paid = launcher.owed - owed
    queue = list(launcher.queue)
    while paid > 0 and queue:
        first = queue[0]
        taken = min(paid, first.cards)
        if first.seat is not None:
            table = record_launcher_cards(table, first.seat, taken)
        paid -= taken
        queue[0] = replace(first, cards=first.cards - taken)
        if not queue[0].cards:
            queue.pop(0)
    if paid < 0:
        queue.append(Delivery(None, -paid, "restart"))
    return replace(table, launcher=replace(table.launcher, queue=tuple(queue)))
