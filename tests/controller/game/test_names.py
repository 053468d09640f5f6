"""Players' names: checked as the spec says, kept by the table, shown on the LCD where its
characters can show them (the seat's number otherwise), in the reports, and across a
restart, also from a snapshot written before names were kept."""

import re

import pytest

from controller.catalogs import translation
from controller.errors import UndecodableSnapshot
from controller.game.codec import FORMAT, encode
from controller.game.events import SeatName
from controller.game.holds import JUMP_HOLD
from controller.game.seat_names import checked, lcd_name, name_of
from controller.game.slap import PAGE_TIME
from controller.game.standings import report

from .driver import Game


def name(game: Game, seat: int, text: str) -> None:
    game.feed(SeatName(seat, checked(text), game.now))


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("  Anna ", "Anna"),
        ("李小龙", "李小龙"),
        ("Zoe\u0308", "Zoë"),  # composed: one character, as typed on another keyboard
        ("अनन्या", "अनन्या"),
        ("李小龙李小龙李小龙李小龙", "李小龙李小龙李小龙李小龙"),  # twelve characters
        ("", ""),
    ],
)
def test_a_name_is_trimmed_and_composed_in_any_script(raw, kept):
    assert checked(raw) == kept


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("Ann\na", "may not hold the character U+000A"),
        ("Anna\x1b[2J", "may not hold the character U+001B"),
        ("\u202eannA", "may not hold the character U+202E"),  # text turned right to left
        ("Maximilianus1", "a name has 12 characters at most, not 13"),
        (7, "a name is text, not int"),
    ],
)
def test_a_name_with_control_characters_or_too_long_is_refused_saying_why(raw, said):
    with pytest.raises(ValueError, match=re.escape(said)):
        checked(raw)


def test_a_lit_players_name_shows_on_the_lcd_and_an_empty_name_clears_it():
    game = Game({"turn_timer": 6}, seed=1)
    game.seat(1, 2)
    name(game, 1, "Anna")
    name(game, 2, "Björn")  # the LCD's ROM has ö
    game.tap("play_pause")
    lit = game.lit
    expected = {1: "Anna turn", 2: "Björn turn"}[lit]
    assert game.lines[1] == expected + "6s".rjust(16 - len(expected))
    assert game.announced("seat_named") == [
        {"seat": 1, "name": "Anna"},
        {"seat": 2, "name": "Björn"},
    ]
    name(game, lit, "")
    assert game.lines[1].startswith(f"Seat {lit} turn")
    assert lit not in game.table.names


def test_a_name_the_lcd_cannot_show_is_the_seats_number_there():
    game = Game(seed=1)
    name(game, 3, "李小龙")
    name(game, 4, "Chloé")  # é is not in the ROM
    assert lcd_name(game.table, 3) == "Seat 3"
    assert lcd_name(game.table, 4) == "Seat 4"
    assert game.table.names == {3: "李小龙", 4: "Chloé"}  # kept whole for the page and MQTT


def test_a_long_name_is_cut_to_what_fits_beside_the_words_and_the_time():
    game = Game({"turn_timer": 6, "timeout_penalty": 2}, seed=1)
    game.seat(1, 2)
    name(game, 1, "Maximilianus")
    name(game, 2, "Maximilianus")
    game.tap("play_pause")
    assert game.lines[1] == "Maximili turn 6s"
    game.wait(6.1)
    assert game.lines[0] == "Maximil timeout!"
    assert all(len(line) <= 16 for line in game.lines)


def test_a_player_is_called_by_name_or_by_the_seats_number_in_the_tables_language():
    game = Game(seed=1)
    name(game, 1, "Anna")
    assert name_of(game.table, 1) == "Anna"
    assert name_of(game.table, 3) == "Seat 3"
    assert name_of(game.table, 3, translation("de")) == "Sitz 3"


def test_a_name_given_again_or_cleared_where_there_is_none_changes_nothing_and_is_not_said():
    game = Game(seed=1)
    name(game, 1, "Anna")
    name(game, 1, "Anna")
    name(game, 2, "")
    assert game.table.names == {1: "Anna"}
    assert game.announced("seat_named") == [{"seat": 1, "name": "Anna"}]


def test_naming_a_player_keeps_the_table_awake():
    game = Game({"sleep_time": 1}, seed=1)
    game.tap("seat1")
    game.wait(50.0)
    name(game, 1, "Anna")
    game.wait(59.9)  # a minute after the name all but a moment
    assert not game.table.asleep
    game.wait(0.2)
    assert game.table.asleep


def test_a_seat_the_table_does_not_have_is_not_named():
    game = Game(stations=4)
    name(game, 5, "Eve")
    assert game.table.names == {}
    assert game.announced("seat_named") == []


def test_names_go_with_the_standings_and_the_round_over_event():
    game = Game({"turn_timer": "off"}, seed=1)
    game.seat(1, 2)
    name(game, 2, "Ben")
    game.tap("play_pause")
    game.hold(f"seat{game.lit}", 2.5)
    [over] = game.announced("round_over")
    assert [(s["seat"], s["name"]) for s in over["seats"]] == [(1, ""), (2, "Ben")]
    assert [(s["seat"], s["name"]) for s in over["standings"]["seats"]] == [(1, ""), (2, "Ben")]
    assert report(game.table.standings, game.table.names)["seats"][1]["name"] == "Ben"


def test_names_are_kept_across_a_restart():
    game = Game(seed=1)
    game.seat(1, 2)
    name(game, 1, "李小龙")
    snapshot = encode(game.table, game.now)
    assert snapshot["format"] == FORMAT
    game.resume(snapshot)
    assert game.table.names == {1: "李小龙"}


def test_a_snapshot_from_before_names_resumes_without_them():
    game = Game({"turn_timer": 6}, seed=1)
    game.start(1, 2)
    snapshot = encode(game.table, game.now)
    del snapshot["names"], snapshot["score"]
    snapshot["format"] = 2
    game.resume(snapshot)
    assert game.table.names == {}
    assert game.table.seated == {1, 2}
    game.tap("play_pause")
    assert game.table.turn is not None


@pytest.mark.parametrize(
    ("kept", "said"),
    [("", "an empty name kept"), ("An\nna", "a name may not hold the character U+000A")],
)
def test_a_snapshot_keeping_a_name_no_player_can_have_is_refused_saying_why(kept, said):
    game = Game(seed=1)
    name(game, 1, "Anna")
    snapshot = encode(game.table, game.now)
    snapshot["names"]["1"] = kept
    with pytest.raises(UndecodableSnapshot) as refused:
        game.resume(snapshot)
    assert str(refused.value) == said


LONG = "Maximilianus"


def test_a_long_name_is_cut_to_the_room_a_jump_in_leaves_it():
    game = Game({"jump_in": "on", "turn_timer": 6}, seed=1)
    game.seat(1, 2, 3)
    for seat in (1, 2, 3):
        name(game, seat, LONG)
    game.tap("play_pause")
    jumper = game.others(game.lit)[0]
    game.hold(f"seat{jumper}", JUMP_HOLD + 0.1)
    assert game.lines[0] == "Jump-In! Maximil"


def test_a_long_name_is_cut_to_the_room_the_slap_results_leave_it():
    game = Game({"turn_timer": 6}, seed=1)
    game.seat(1, 2, 3)
    for seat in (1, 2, 3):
        name(game, seat, LONG)
    game.tap("play_pause")
    game.wait(1.0)
    game.press("slap")
    t = game.now
    a, b = game.others(game.table.race.slapper)
    game.press(f"seat{a}", t + 0.3)
    game.press(f"seat{b}", t + 0.45)
    game.run_until(t + 3.0)
    assert game.lines == ("Slowest: Maximil", "Draw 2 cards")
    game.run_until(t + 3.0 + PAGE_TIME)
    assert game.lines == ("1. Maximil 300ms", "2. Maximil 450ms")
