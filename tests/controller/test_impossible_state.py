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

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller import __version__
from controller.errors import DamagedFile, UndecodableSnapshot
from controller.game import Phase, Tick, codec, codec_records, render, step, summary
from controller.game.codec_records import MAX_SLAP_MS
from controller.settings import SETTINGS, Settings
from controller.simulation.table import SimTable
from controller.storage import owed, snapshot

STATIONS = 6  # the simulated table's seats
SETTINGS_FILE = "settings.json"

seats = st.integers(0, STATIONS + 1)  # 0 and 7 are no seat of this table
counts = st.integers(0, 10**6)
seconds = st.floats(0, 10**5).map(lambda value: round(value, 3))  # as the daemon writes them
few = st.integers(0, 4)
# SLAP reaction times (presses, total ms, best ms): none, and some a race gives or not.
slap_times = st.just((0, 0, None)) | st.tuples(
    few, st.integers(0, 4 * MAX_SLAP_MS), st.none() | st.integers(0, MAX_SLAP_MS)
)
# Times a race does give: the best no slower than the average.
race_times = st.just((0, 0, None)) | st.builds(
    lambda presses, best, slower: (presses, best * presses + slower, best),
    st.integers(1, 4),
    st.integers(0, 3000),
    st.integers(0, 2000),
)
standings = st.fixed_dictionaries(
    {
        "rounds": few,
        "seats": st.dictionaries(
            seats.map(str),
            st.tuples(few, few, few, st.integers(0, 4 * STATIONS), counts, slap_times).map(
                lambda values: [*values[:5], *values[5]]
            ),
            max_size=STATIONS,
        ),
    }
)

any_values = st.fixed_dictionaries(
    {
        "flashtable": st.just(__version__),
        "format": st.just(codec.FORMAT),
        "stations": st.just(STATIONS),
        "phase": st.sampled_from([phase.value for phase in Phase]),
        "finish": st.none() | st.sampled_from([*sorted(codec.FINISHES), "last"]),
        "places": st.lists(seats, max_size=STATIONS + 1),
        "standings": standings,
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
            st.tuples(counts, counts, counts, counts, seconds, slap_times).map(
                lambda values: [*values[:5], *values[5]]
            ),
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


PLAYING = {"turn", "slap", "notice", "paused", "extreme"}

# One thing wrong with a snapshot a game could write: the reader must refuse it, or resume a
# game that still plays (a change that happens to be harmless).
DAMAGE = (
    "place twice",
    "place of nobody",
    "one left unplaced",
    "turn of a player out",
    "a win too many",
    "a win too few",
    "places for the first out",
    "no finish",
    "finish between rounds",
    "winner not first",
    "slap best over average",
    "place past the seats",
)


@st.composite
def near_games(draw: st.DrawFn) -> dict:
    """Snapshots as a game writes them, with the round's finish, places and the evening's
    standings, often with one thing wrong (DAMAGE): so that these fields are read whole, and
    every impossible combination of them is tried."""
    fields = draw(any_values)
    phase = fields["phase"]
    seated = draw(st.lists(st.integers(1, STATIONS), min_size=2, max_size=STATIONS, unique=True))
    order = draw(st.permutations(seated))
    finish = draw(st.sampled_from(["first", "places"])) if phase in PLAYING else None
    places: list[int] = []
    if finish == "places":
        places = order[: draw(st.integers(0, len(seated) - 2))]
    elif phase == "round_over" and draw(st.booleans()):
        places = order[: draw(st.sampled_from([len(seated), *range(len(seated) - 1)]))]
    in_play = [seat for seat in seated if seat not in places]
    rounds = draw(few)
    winners = [draw(st.sampled_from(seated)) for _ in range(rounds)]
    entries = {}
    for seat in {*winners, *draw(st.lists(st.sampled_from(seated), unique=True))}:
        wins = winners.count(seat)
        played = draw(st.integers(max(wins, 1), max(rounds, 1)))
        placed = draw(st.integers(0, played))
        place_total = draw(st.integers(placed, placed * len(seated)))
        entries[seat] = [played, wins, placed, place_total, draw(few), *draw(race_times)]
    winner = places[0] if places else draw(st.none() | st.sampled_from(seated))
    fields.update(
        seated=seated,
        finish=finish,
        places=places,
        picks=draw(st.lists(st.sampled_from(seated), max_size=6)),
        stats={str(seat): [1, 0, 0, 0, 2.0, *draw(race_times)] for seat in seated},
        turn={"seat": draw(st.sampled_from(in_play or seated)), "played": 1.0, "left": 2.5},
        summary={"winner": winner, "page": draw(st.integers(0, 12))},
        launcher={"queue": [], "misses": 0, "cards_out": 0, "jams": 0},
    )
    damage = draw(st.none() | st.sampled_from(DAMAGE))
    if damage == "place twice" and places:
        places.append(places[0])
    elif damage == "place of nobody":
        places.append(draw(st.sampled_from([0, STATIONS + 1, *set(range(1, 7)) - set(seated)])))
    elif damage == "one left unplaced":
        fields["places"] = order[: len(seated) - 1]
    elif damage == "turn of a player out" and places:
        fields["turn"]["seat"] = places[-1]
    elif damage in ("a win too many", "a win too few") and entries:
        seat = draw(st.sampled_from(sorted(entries)))
        entries[seat][1] = max(0, entries[seat][1] + (1 if damage == "a win too many" else -1))
    elif damage == "places for the first out":
        fields["finish"] = "first"
    elif damage == "no finish":
        fields["finish"] = None
    elif damage == "finish between rounds":
        fields["finish"] = "places"
    elif damage == "winner not first" and places:
        fields["summary"]["winner"] = draw(st.sampled_from(seated))
    elif damage == "slap best over average" and entries:
        seat = draw(st.sampled_from(sorted(entries)))
        entries[seat][5:] = [2, 300, 200]
    elif damage == "place past the seats" and entries:
        seat = draw(st.sampled_from(sorted(entries)))
        entries[seat][2:4] = [1, STATIONS + 1]
    fields["standings"] = {
        "rounds": rounds,
        "seats": {str(seat): entry for seat, entry in entries.items()},
    }
    return fields


snapshots = any_values | near_games()


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


@examples(600)
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
    except (DamagedFile, UndecodableSnapshot) as err:
        assert str(err) and "\n" not in str(err)
        return
    for lines in every_screen(table):
        assert all(len(line) <= 16 for line in lines)
    assert table.launcher.owed <= owed.MAX_OWED
    assert table.turn is None or table.turn.seat in table.in_play
    assert set(table.places) <= table.seated and len(set(table.places)) == len(table.places)
    assert sum(s.wins for s in table.standings.seats.values()) == table.standings.rounds
    # What it resumed, it writes again as a snapshot it resumes.
    again = codec.decode(
        json.loads(json.dumps(codec.encode(table, 100.0))),
        settings=Settings({}),
        stations=STATIONS,
        has_launcher=True,
        now=100.0,
        rng=random.Random(1),
    )
    assert again.places == table.places and again.standings == table.standings


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


def test_slap_times_whose_best_is_slower_than_their_average_are_refused():
    """Two presses of 300 ms in all average 150 ms: a best of 150 is possible, 151 is not."""
    assert codec_records.slap_times(2, 300, 150).best_ms == 150
    with pytest.raises(UndecodableSnapshot, match=r"SLAP times \[2, 300, 151\] no race gives"):
        codec_records.slap_times(2, 300, 151)
