"""`flashtable sim --headless --script`: the script format, the event log, and its errors."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from controller.config import Config
from controller.errors import ScriptError
from controller.tui import run_view
from controller.tui.script import input_names, parse

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "full-round.txt"
PLACES_EXAMPLE = ROOT / "docs" / "examples" / "places-round.txt"
FAMILY_EXAMPLE = ROOT / "docs" / "examples" / "family-evening.txt"
EVENING_EXAMPLE = ROOT / "docs" / "examples" / "evening-to-500.txt"
EVENT_LINE = re.compile(r"^ {0,3}\d+ +\d+\.\d{3} [a-z_]+( .*)?$")


def headless(tmp_path: Path, script: str) -> Path:
    path = tmp_path / "play.txt"
    path.write_text(script, encoding="utf-8")
    return path


def run(path: Path, capsys, *, seats: int = 6, seed: int = 1) -> tuple[int, list[str], str]:
    status = run_view(Config(seats=seats), seed=seed, time_scale=1.0, script=path)
    out = capsys.readouterr()
    return status, out.out.splitlines(), out.err


def test_example_script_plays_a_full_round(capsys, monkeypatch):
    waits = []
    real_sleep = asyncio.sleep

    async def sleep(delay, *args, **kwargs):
        waits.append(delay)
        return await real_sleep(0, *args, **kwargs)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    status, lines, err = run(EXAMPLE, capsys, seats=8)
    assert (status, err) == (0, "")
    events = [line for line in lines if not line.startswith("#")]
    # About a minute of game time, played without waiting for any of it.
    assert float(events[-1].split()[1]) > 50
    assert not [delay for delay in waits if delay]
    assert all(EVENT_LINE.match(line) for line in events), events
    kinds = [line.split()[2] for line in events]
    for kind in ("seat_claimed", "round_started", "turn_ended", "timeout", "slap_started"):
        assert kind in kinds
    for kind in ("slap_result", "paused", "resumed", "round_over"):
        assert kind in kinds
    # The launcher: a burst, penalties dealt out exactly, a jam cleared with OK.
    for kind in ("hit", "dispense", "card_out", "launcher_fault", "launcher_resumed"):
        assert kind in kinds
    reasons = re.findall(r"dispense +seat=\d cards=(\d+) reason=(\w+)", "\n".join(events))
    assert reasons == [("2", "timeout"), ("2", "slap"), ("4", "hit"), ("2", "timeout")]
    assert kinds.count("card_out") == 10
    notes = [line.split(None, 2)[2] for line in lines if line.startswith("#")]
    assert "launcher jammed" in notes and "slot cleared" in notes
    assert any(
        note.startswith("warning hardware.gpio_ejector: launcher stopped: jam") for note in notes
    )
    assert [int(line.split()[0]) for line in events] == list(range(1, len(events) + 1))
    seconds = [float(line.split()[1]) for line in events]
    assert seconds == sorted(seconds) and seconds[-1] > 50
    assert any(line.startswith("#") and "lcd |" in line for line in lines)


def test_a_family_evening_gives_no_penalty_the_players_did_not_see_coming(capsys):
    status, lines, err = run(FAMILY_EXAMPLE, capsys)
    assert (status, err) == (0, "")
    events = [line.split(None, 3) for line in lines if not line.startswith("#")]
    kinds = [event[2] for event in events]
    for kind in ("hit", "slap_result", "paused", "resumed", "timeout", "place_taken"):
        assert kind in kinds
    # Every penalty the table gave is one the script expected, where the players saw it come.
    script = FAMILY_EXAMPLE.read_text(encoding="utf-8")
    expected = re.findall(r"^expect event (timeout|slap_result) ", script, re.M)
    given = [e[3].split()[-1] for e in events if e[2] == "penalty"]
    assert len(given) == len(expected) == 2 and given == ["reason=slap", "reason=timeout"]
    # No turn ran out while its cards flew or the menu showed: the only timeout's turn saw
    # neither a hit nor a pause.
    timed_out = kinds.index("timeout")
    turn_began = max(i for i, kind in enumerate(kinds[:timed_out]) if kind == "turn_started")
    assert not {"hit", "paused"} & set(kinds[turn_began:timed_out])


def test_an_evening_to_500_with_names_and_a_restart_ends_with_the_games_winner(capsys):
    status, lines, err = run(EVENING_EXAMPLE, capsys)
    assert (status, err) == (0, "")
    events = [line for line in lines if not line.startswith("#")]
    assert all(EVENT_LINE.match(line) for line in events), events
    kinds = [line.split()[2] for line in events]
    assert kinds.count("round_over") == 4
    assert kinds.count("points_entered") == 13  # three hands a round, one corrected
    # The table restarted in the middle of the third round: its events are numbered anew,
    # and the game went on from the paused turn with the totals it had.
    restarted = notes(lines).index("restart: the table stops and starts again on its state")
    assert restarted > 0
    [resumed] = [line for line in events if line.split()[2] == "resumed"]
    assert resumed.split()[0] == "1"
    totals = [
        dict(re.findall(r"(\w+)=(\S+)", line)) for line in events if " points_entered " in line
    ]
    assert [t["total"] for t in totals if t["winner"] == "3"] == [
        "45",
        "125",
        "227",
        "297",
        "392",
        "440",
        "452",
        "492",
        "501",
    ]
    [won] = [line for line in events if line.split()[2] == "game_won"]
    assert "seat=3 name=李小龙 total=501 target=500" in won
    # The next round starts a new game.
    assert kinds.index("game_won") < kinds.index("new_game")
    assert kinds[kinds.index("new_game") + 1] == "round_started"
    assert "lcd |Seat 3 wins     |the game!    501| lights 1:dim 2:dim 3:blink 4:dim" in notes(
        lines
    )


def test_example_script_plays_a_round_for_places(capsys):
    status, lines, err = run(PLACES_EXAMPLE, capsys)
    assert (status, err) == (0, "")
    events = [line for line in lines if not line.startswith("#")]
    assert all(EVENT_LINE.match(line) for line in events), events
    out: set[int] = set()
    taken = []
    for line in events:
        kind, data = line.split()[2], dict(re.findall(r"(\w+)=(\S+)", line))
        if kind == "place_taken":
            out.add(int(data["seat"]))
            taken.append(int(data["place"]))
        elif kind == "player_back":
            out.discard(int(data["seat"]))
        elif kind == "turn_started":
            assert int(data["seat"]) not in out, line  # never the turn of a player out
        elif kind == "slap_started":
            assert not set(map(int, data["racers"].strip("[]").split(","))) & out
    assert taken == [1, 2, 2, 3, 4]  # seat 2 went out twice: brought back between
    assert "round_over" in [line.split()[2] for line in events]
    notes = [line.split(None, 2)[2] for line in lines if line.startswith("#")]
    assert "Standings after 1 round:" in notes
    assert any("places 1st:3" in note for note in notes)


def test_the_same_seed_plays_the_same_round(capsys):
    first = run(EXAMPLE, capsys, seats=8)
    again = run(EXAMPLE, capsys, seats=8)
    assert first == again


def test_the_cli_runs_the_example_script():
    command = [sys.executable, "-m", "controller", "sim", "--headless", "--script", str(EXAMPLE)]
    result = subprocess.run(
        [*command, "--seed", "1"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"round_started +seats=\[1,3,5\]", result.stdout)
    assert "round_over" in result.stdout


def test_script_event_lines_carry_seq_time_type_and_data(tmp_path, capsys):
    path = headless(tmp_path, "tap seat2\nwait 1\ntap seat4 play_pause\nwait 0.5\n")
    status, lines, _ = run(path, capsys)
    assert status == 0
    assert lines[0] == "   1    0.000 seat_claimed     seat=2"
    assert lines[1] == "   2    1.120 seat_claimed     seat=4"
    started = r"   3    1\.240 round_started    seats=\[2,4\] mode=table finish=first$"
    assert re.match(started, lines[2])
    assert re.match(r"   4    1\.240 turn_started     seat=[24] limit=6\.0$", lines[3])


def test_lit_others_and_expect_follow_the_table(tmp_path, capsys):
    script = """
        tap seat1 seat2 seat3 play_pause
        expect event turn_started
        tap others          # not their turn: nothing happens
        expect event turn_ended seat=1
    """
    status, lines, err = run(headless(tmp_path, script), capsys)
    assert status == 1
    assert [line.split()[2] for line in lines][-1] == "turn_started"
    assert err.startswith("flashtable: ") and err.rstrip().endswith(
        "line 5: no event turn_ended seat=1 since the last one expected"
    )
    assert err.count("\n") == 1
    script = """
        tap seat1 seat2 seat3 play_pause
        wait 1
        tap lit
        expect event turn_ended seconds=1.12
        expect lit none
    """
    status, _, err = run(headless(tmp_path, script), capsys)
    assert status == 1
    assert re.search(r"line 6: lit seats are \[\d\], not none$", err.strip())


def test_inputs_on_prints_the_presses_the_table_received(tmp_path, capsys):
    path = headless(tmp_path, "inputs on\ntap seat1\ninputs off\ntap seat2\nshow\n")
    status, lines, _ = run(path, capsys)
    assert status == 0
    assert lines[:2] == ["   -    0.000 > seat1", "   1    0.000 seat_claimed     seat=1"]
    assert lines[2] == "   2    0.120 seat_claimed     seat=2"
    assert lines[3] == "#       0.240 lcd |Table   timer 6s|Seats 1 2       | lights 1:on 2:on"


def test_hold_and_press_release_are_long_presses(tmp_path, capsys):
    script = "press seat1\nwait 9\nrelease seat1\nhold seat2 9s\n"
    status, lines, _ = run(headless(tmp_path, script), capsys)
    assert status == 0
    stuck = [line.split()[1:] for line in lines if "button_" in line]
    assert stuck == [
        ["8.000", "button_stuck", "input=seat1"],
        ["9.000", "button_freed", "input=seat1"],
        ["17.000", "button_stuck", "input=seat2"],
        ["18.000", "button_freed", "input=seat2"],
    ]


def notes(lines: list[str]) -> list[str]:
    """The player's own lines, without their "#" and time."""
    return [line.split(None, 2)[2] for line in lines if line.startswith("#")]


def test_a_jammed_penalty_waits_for_the_slot_to_be_cleared_and_ok(tmp_path, capsys):
    script = """
        tap seat1 seat2 play_pause
        jam
        wait 7                  # the turn times out; the launcher starts and stalls
        expect event dispense cards=2 reason=timeout
        expect event launcher_fault fault=jam owed=2
        expect lcd "JAM: clear slot"
        expect lcd "press OK  2 owed"
        expect cards_out 0
        tap encoder.push        # OK, but the card is still stuck: it jams again
        wait 1
        expect event launcher_resumed owed=2
        expect event launcher_fault fault=jam owed=2
        clear
        expect lcd "JAM: clear slot"
        ok
        expect event launcher_resumed owed=2
        wait 1
        expect cards_out 2
        expect cards_left 52
        wait 10
        expect cards_out 4      # the next timeout: two more, and no more than that
    """
    status, lines, err = run(headless(tmp_path, script), capsys)
    assert (status, err) == (0, "")
    assert notes(lines)[:2] == [
        "launcher jammed",
        "warning hardware.gpio_ejector: launcher stopped: jam, 2 card(s) still owed",
    ]
    assert notes(lines).count("slot cleared") == 1  # `ok` had nothing left to free
    events = [line for line in lines if not line.startswith("#")]
    assert all(EVENT_LINE.match(line) for line in events), events
    owed = [line.split()[-1] for line in events if " card_out " in line]
    assert owed == ["owed=1", "owed=0", "owed=1", "owed=0"]


def test_an_empty_hopper_waits_for_a_refill_and_ok(tmp_path, capsys):
    script = """
        empty
        expect cards_left 0
        tap seat1 seat2 play_pause
        wait 7
        expect event launcher_fault fault=empty owed=2
        expect lcd "Refill cards"
        expect lcd "press OK  2 owed"
        refill 20
        expect cards_left 20
        expect lcd "Refill cards"   # it waits for OK
        ok
        wait 1
        expect event launcher_resumed owed=2
        expect cards_out 2
        expect cards_left 18
        refill
        expect cards_left 54
    """
    status, lines, err = run(headless(tmp_path, script), capsys)
    assert (status, err) == (0, "")
    assert [note for note in notes(lines) if not note.startswith("warning")] == [
        "hopper emptied (54 cards taken out)",
        "hopper refilled (+20, 20 in it)",
        "hopper refilled (+36, 54 in it)",
    ]


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("tap seat1\nfly away\n", "line 2: unknown command 'fly'"),
        ("tap seat9\n", "line 1: no button 'seat9'"),
        ("wait soon\n", "line 1: 'soon' is not a number of seconds"),
        ("turn 1.5\n", "line 1: steps must be a whole number, not '1.5'"),
        (
            "# fine\n\nhold seat1\n",
            "line 3: hold takes a button and a number of seconds, as in 'hold seat1 2.5'",
        ),
        ("expect light 1 sparkle\n", "line 1: no light pattern 'sparkle'"),
        ("expect light seat7 on\n", "line 1: no seat 'seat7' at this table"),
        ("expect lit 9\n", "line 1: no seat '9' at this table"),
        ("expect lit one\n", "line 1: a seat is a number or seatN, not 'one'"),
        ("expect lcd 'open quote\n", "line 1: a quote is opened and never closed"),
        ("expect lit\n", "line 1: expect lit takes a seat, or none, as in 'expect lit 3'"),
        ("tap lit\n", "line 1: 'lit': no seat has the turn now"),
        ("expect lcd Paused\n", "line 1: LCD shows ('Table   timer 6s', 'Press to join   ')"),
        ("expect cards_out 3\n", "line 1: 0 cards out, not 3"),
        ("expect cards_left 5\n", "line 1: 54 cards left in the hopper, not 5"),
        ("expect cards_left many\n", "line 1: cards must be a whole number, not 'many'"),
        ("refill -3\n", "line 1: refill takes a number of cards to add, not -3"),
        ("ok now\n", "line 1: ok takes nothing after it, not 'now'"),
        ("jam 2\n", "line 1: jam takes nothing after it, not '2'"),
        ("set turn_timer=99\n", "line 1: turn_timer cannot be '99'; allowed: off, 2-30 s"),
        ("set custom_min=10\n", "line 1: custom_min (10) cannot be above custom_max (8)"),
        ("set finish places\n", "line 1: 'finish' is not KEY=VALUE: write finish=places"),
        ("set\n", "line 1: set takes KEY=VALUE pairs, as in 'set finish=places'"),
        ("standings 3\n", "line 1: standings takes nothing after it, not '3'"),
        ("expect place 3 first\n", "line 1: a place must be a whole number, not 'first'"),
        ("expect place 3 9\n", "line 1: a place is 1 to 8, or none, not '9'"),
        ("expect place 3\n", "line 1: expect place takes a seat and a place, or none"),
        ("expect place 3 none\nexpect place 3 1\n", "line 2: seat 3 has place none, not 1"),
        ("expect standings 3 wins\n", "line 1: standings has rounds, wins, average_place"),
        ("expect standings wins=1\n", "line 1: standings has rounds, not 'wins=1'"),
        ("expect standings 3 wins=1\n", "line 1: seat 3 has no standings yet"),
        ("expect standings rounds=1\n", "line 1: the standings: rounds is 0, not 1"),
        ('name 1 "Ann\x07a"\n', "line 1: a name may not hold the character U+0007"),
        ("name 1\n", "line 1: name takes a seat and a name"),
        ("points 2 1000\n", "line 1: a hand's card points are 0 to 999, not 1000"),
        ("points 2 5\n", "line 1: points: no round is waiting for its points"),
        ("expect total 3 5\n", "line 1: seat 3's total is 0, not 5"),
    ],
)
def test_a_bad_script_exits_1_naming_the_line(tmp_path, capsys, script, message):
    path = headless(tmp_path, script)
    status, _, err = run(path, capsys)
    assert status == 1
    assert err.startswith(f"flashtable: {path}: {message}")
    assert err.count("\n") == 1


def test_set_changes_a_setting_as_the_shell_does_and_show_adds_the_places(tmp_path, capsys):
    script = """
        set finish=places turn_timer=off
        tap seat1 seat2 seat3 play_pause
        hold seat1 2.5
        expect place 1 1
        show
        standings
    """
    status, lines, _ = run(headless(tmp_path, script), capsys)
    assert status == 0
    assert re.match(r"   1    0\.000 settings_changed changes=\{.*\"finish\":\"places\"", lines[0])
    shown = notes(lines)
    assert shown[0].startswith("lcd |Seat 1 1st place|") and shown[0].endswith(" places 1st:1")
    # The first place scores the others' hands: the game to 500 waits for their points.
    assert shown[1:] == [
        "Game to 500: Seat 1 0, Seat 2 0, Seat 3 0",
        "Card points to enter for Seat 2, Seat 3",
        "No round counted yet: the standings start with the first one won.",
    ]


def test_a_script_that_cannot_be_parsed_plays_nothing(tmp_path, capsys):
    status, lines, _ = run(headless(tmp_path, "tap seat1\ntap seat2\nbogus\n"), capsys)
    assert status == 1 and lines == []


def test_a_missing_script_is_one_line(tmp_path, capsys):
    status, _, err = run(tmp_path / "nope.txt", capsys)
    assert status == 1 and err.endswith("nope.txt: no such file\n")
    assert "Errno" not in err and err.count("\n") == 1


def test_scripts_name_only_the_buttons_the_table_has():
    names = input_names(Config(seats=3))
    assert names == {"seat1", "seat2", "seat3", "slap", "launcher", "play_pause", "encoder.push"}
    with pytest.raises(ScriptError, match="line 1: no button 'seat4'"):
        parse("tap seat4", names)


def test_expect_names_a_seat_by_number_or_as_its_button(tmp_path, capsys):
    script = """
        tap seat1 seat2
        expect light 1 on
        expect light seat2 on
        tap play_pause
        expect lit {lit}
    """
    _, _, err = run(headless(tmp_path, script.format(lit="none")), capsys)  # who the seed lit
    lit = re.search(r"lit seats are \[(\d)\]", err).group(1)
    for name in (lit, f"seat{lit}"):
        status, _, err = run(headless(tmp_path, script.format(lit=name)), capsys)
        assert (status, err) == (0, "")
