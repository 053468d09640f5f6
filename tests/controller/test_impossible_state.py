"""State files that are valid JSON with values of the right kinds, in combinations no game
reaches (a seat listed twice, a turn of an empty seat, a summary page past the last, a deck
and more owed, bounds crossed): each is refused with its notice, or it resumes a game that can
be drawn on every screen and played on. The daemon starts on any of them."""

import asyncio
import contextlib
import json
import random
import tempfile
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller import __version__, owed, snapshot
from controller.game import Phase, Tick, codec, render, step, summary
from controller.safe_read import Damaged
from controller.settings import SETTINGS, Settings
from controller.sim import SimTable

STATIONS = 6  # the simulated table's seats
SETTINGS_FILE = "settings.json"

seats = st.integers(0, STATIONS + 1)  # 0 and 7 are no seat of this table
counts = st.integers(0, 10**6)
seconds = st.floats(0, 10**5).map(lambda value: round(value, 3))  # as the daemon writes them

snapshots = st.fixed_dictionaries(
    {
        "flashtable": st.just(__version__),
        "format": st.just(codec.FORMAT),
        "stations": st.just(STATIONS),
        "phase": st.sampled_from([phase.value for phase in Phase]),
        "seated": st.lists(seats, max_size=STATIONS + 1),
        "turn": st.none()
        | st.fixed_dictionaries(
            {
                "seat": seats,
                "played": seconds,
                "left": st.none() | st.floats(0, 40).map(lambda value: round(value, 3)),
            }
        ),
        "picks": st.lists(seats, max_size=6),
        "stats": st.dictionaries(
            seats.map(str),
            st.tuples(counts, counts, counts, counts, seconds).map(list),
            max_size=STATIONS,
        ),
        "summary": st.none()
        | st.fixed_dictionaries({"winner": st.none() | seats, "page": st.integers(0, 20)}),
        "launcher": st.fixed_dictionaries(
            {
                "queue": st.lists(
                    st.tuples(
                        st.none() | seats,
                        st.integers(0, 2 * owed.MAX_OWED),
                        st.sampled_from([*sorted(codec.REASONS), "gift"]),
                    ).map(list),
                    max_size=4,
                ),
                "misses": counts,
                "cards_out": counts,
                "jams": counts,
            }
        ),
    }
)


def snapshot_file(fields: dict, left: float | None) -> bytes:
    line = json.dumps(fields, separators=(",", ":")).encode() + b"\n"
    clock = json.dumps({"left": left}).ljust(snapshot.CLOCK_LINE - 1).encode() + b"\n"
    return line + clock


owed_files = st.builds(
    lambda seq, cards, fault, sent: owed._slot(seq, (cards, fault), sent).ljust(owed.FILE_SIZE),
    st.integers(1, 10**6),
    st.integers(0, 2 * owed.MAX_OWED),
    st.sampled_from([None, "jam", "empty"]),
    st.none() | st.tuples(st.integers(1, 2**32), st.integers(1, 300), st.integers(0, 300)),
).map(lambda data: data[: owed.FILE_SIZE - 1] + b"\n")

words = sorted({str(o) for s in SETTINGS for o in s.options if isinstance(o, str)})
settings_files = st.dictionaries(
    st.sampled_from([s.key for s in SETTINGS]),
    st.integers(-5, 5000) | st.sampled_from(words),
    max_size=8,
).map(lambda values: json.dumps(values).encode())


def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, suppress_health_check=list(HealthCheck))


def every_screen(table) -> list[tuple[str, str]]:
    """The LCD's lines of the table now, of every summary page, and after a step."""
    shown = [render(table).lines]
    if table.phase is Phase.ROUND_OVER:
        for page in range(len(summary.pages(table))):
            shown.append(render(replace(table, summary=replace(table.summary, page=page))).lines)
    stepped, _ = step(table, Tick(100.0), 100.0, random.Random(2))
    return [*shown, render(stepped).lines]


@examples(1500)
@given(snapshots, st.none() | st.floats(0, 40).map(lambda value: round(value, 3)))
def test_a_snapshot_that_loads_can_be_drawn_on_every_screen_and_played(fields, left):
    data = snapshot_file(fields, left)
    try:
        table = codec.decode(
            snapshot._split(data)[0],
            settings=Settings({}),
            stations=STATIONS,
            has_launcher=True,
            now=100.0,
            rng=random.Random(1),
            left=left,
        )
    except (Damaged, codec.Undecodable) as err:
        assert str(err) and "\n" not in str(err)
        return
    for lines in every_screen(table):
        assert all(len(line) <= 16 for line in lines)
    assert table.launcher.owed <= owed.MAX_OWED
    assert table.turn is None or table.turn.seat in table.seated


async def first_screen(state_dir: Path) -> tuple[str, str]:
    async with SimTable(seed=1, state_dir=state_dir) as table:
        first = table.lcd
        await table.advance(20.0)  # summary pages turn, a resumed launcher deals
        return first


@examples(40)
@given(
    game=st.none()
    | st.tuples(snapshots, st.none() | st.floats(0, 40).map(lambda value: round(value, 3))),
    cards=st.none() | owed_files,
    chosen=st.none() | settings_files,
)
def test_the_daemon_starts_on_any_state_directory_and_draws_its_first_screen(game, cards, chosen):
    with tempfile.TemporaryDirectory() as name:
        state_dir = Path(name)
        for file, data in (
            (snapshot.FILE_NAME, None if game is None else snapshot_file(*game)),
            (owed.FILE_NAME, cards),
            (SETTINGS_FILE, chosen),
        ):
            if data is not None:
                (state_dir / file).write_bytes(data)
        lines = asyncio.run(first_screen(state_dir))
        assert all(len(line) == 16 for line in lines)
        # Set aside, or taken as it was: never changed in place and never lost.
        for file in (snapshot.FILE_NAME, owed.FILE_NAME, SETTINGS_FILE):
            with contextlib.suppress(FileNotFoundError):
                (state_dir / f"{file}.bad").read_bytes()
