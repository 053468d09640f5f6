"""The room screen (/room) in a real browser (Debian's chromium) at a TV's 1920x1080 and at a
phone's size, against `flashtable run --sim` with `[web]`: the seats around a circle, the lit
seat and its countdown readable from the sofa, a SLAP race as a big ranked list, a jam as a
full-width alarm, the standings with the leader first, events as sentences, and a table that
stops greyed with the time it went. One table and one browser for the module; the tests run
in order, as one round at the table. Game time is real here: every wait is for a condition.

WEB_SCREENSHOTS=DIR saves the screenshots that docs/web.md shows into DIR.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from .browser import A11Y, chromium, js, on_a_phone, shoot, until
from .running_table import RunningTable

# Its tests take long in all: the file starts first (tests/conftest.py).
pytestmark = pytest.mark.long

TV = (1920, 1080)
SEATS = (1, 2, 3, 4)
NAME_PX = 120  # the lit seat's name, at least, on a 1080p screen: readable at 3 m
NAMES = {1: "Anna", 2: "Ben", 3: "Chloé", 4: ""}  # seat 4 keeps its number
HANDS = (40, 35, 30)  # the card points left in the losers' hands: the winner reaches 100


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningTable]:
    running = RunningTable(
        tmp_path_factory.mktemp("room-table"),
        settings='turn_timer = 30\nsleep_time = "off"\nslap_window = 2\ntarget_score = 100\n',
        seats=len(SEATS),
    )
    yield running
    running.stop()


@pytest.fixture(scope="module")
def room(table: RunningTable) -> Iterator[WebDriver]:
    driver = chromium(*TV)
    as_a_tv(driver)
    driver.get(f"{table.url}room")
    until(
        driver,
        lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-link") == "live",
        "live",
    )
    yield driver
    driver.quit()


def as_a_tv(browser: WebDriver) -> None:
    """The page's viewport exactly 1920x1080, as a TV's."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": TV[0], "height": TV[1], "deviceScaleFactor": 1, "mobile": False},
    )


def box(browser: WebDriver, css: str) -> dict[str, float]:
    return js(browser, f"return document.querySelector('{css}').getBoundingClientRect().toJSON()")  # type: ignore[return-value]


def called(seat: int) -> str:
    return NAMES[seat] or f"Seat {seat}"


def lit_seat(table: RunningTable) -> int:
    """The seat whose light shows its turn, read from the table's own light pins."""
    patterns = table.do("lights").split()
    return patterns.index("pulse") + 1


def events(browser: WebDriver) -> list[str]:
    return [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#events li")]


def test_the_seats_sit_around_a_circle_and_the_lit_one_shows_huge_with_its_countdown(room, table):
    for seat in SEATS:
        table.do(f"tap seat{seat}")
    until(
        room,
        lambda b: len(b.find_elements(By.CSS_SELECTOR, '.seat[data-seated="yes"]')) == 4,
        "seated",
    )
    for seat in SEATS:
        if NAMES[seat]:
            table.do(f"name {seat} {NAMES[seat]}")
    for seat in SEATS:
        until(
            room,
            lambda b, s=seat: b.find_element(By.CSS_SELECTOR, f"#seat-{s} .name").text == called(s),
            "the seat's name",
        )
    ring = box(room, "#ring")
    middle = (ring["x"] + ring["width"] / 2, ring["y"] + ring["height"] / 2)
    angles = []
    for seat in SEATS:
        place = box(room, f"#seat-{seat}")
        x, y = place["x"] + place["width"] / 2, place["y"] + place["height"] / 2
        # From the bottom (90° with y downwards), clockwise on the screen, to the degree.
        angles.append(round(math.degrees(math.atan2(y - middle[1], x - middle[0])) - 90) % 360)
    assert angles[0] == 0, angles  # seat 1 at the bottom
    assert all(b > a for a, b in itertools.pairwise(angles)), angles

    table.do("tap play_pause")
    lit = lit_seat(table)
    until(room, lambda b: b.find_element(By.ID, "who").text == called(lit), "the lit seat's name")
    until(room, lambda b: b.find_element(By.ID, "count").text.isdigit(), "the countdown")
    first = int(room.find_element(By.ID, "count").text)
    until(
        room, lambda b: int(b.find_element(By.ID, "count").text or first) < first, "it counts down"
    )
    assert room.find_element(By.ID, f"seat-{lit}").get_attribute("data-pattern") == "pulse"
    assert box(room, "#who")["height"] >= NAME_PX
    assert box(room, "#count")["height"] > box(room, "#who")["height"]
    assert js(room, "return document.documentElement.scrollWidth") <= TV[0]


def test_a_slap_race_shows_as_a_big_ranked_list_with_times(room, table):
    slapper = lit_seat(table)
    table.do("tap slap")
    racers = [seat for seat in SEATS if seat != slapper]
    for seat in racers:
        table.do(f"tap seat{seat}")
    until(room, lambda b: b.find_element(By.ID, "slap-box").is_displayed(), "the ranking")
    ranking = [
        (
            item.find_element(By.CLASS_NAME, "who").text,
            item.find_element(By.CLASS_NAME, "time").text,
        )
        for item in room.find_elements(By.CSS_SELECTOR, "#slap li")
    ]
    ranks = [
        item.find_element(By.CLASS_NAME, "rank").text
        for item in room.find_elements(By.CSS_SELECTOR, "#slap li")
    ]
    assert ranks == [f"{n}." for n in range(1, len(racers) + 1)], ranks
    assert sorted(name for name, _ in ranking) == sorted(called(s) for s in racers), ranking
    times = [int(time.removesuffix(" ms").removesuffix(" ms (tie)")) for _, time in ranking]
    assert times == sorted(times), ranking  # fastest first
    size = js(room, "return parseFloat(getComputedStyle(document.getElementById('slap')).fontSize)")
    assert size >= 36, size  # px: a line readable across the room
    until(room, lambda b: any(line.startswith("SLAP: ") for line in events(b)), "the race said")


def test_a_jam_is_an_alarm_across_the_whole_screen_until_ok(room, table):
    table.do("jam")
    table.do("deal 2")
    until(room, lambda b: b.find_element(By.ID, "alarm").is_displayed(), "the alarm")
    alarm = box(room, "#alarm")
    assert alarm["x"] == 0 and alarm["width"] == TV[0]
    assert "jammed" in room.find_element(By.ID, "alarm").text
    for seat in SEATS:  # the table stays in sight below it
        place = box(room, f"#seat-{seat}")
        assert place["top"] >= alarm["bottom"] and place["bottom"] <= TV[1], (seat, place, alarm)
    shoot(room, "room-jam.png")
    table.do("clear")
    table.do("tap encoder.push")  # OK
    until(room, lambda b: not b.find_element(By.ID, "alarm").is_displayed(), "the alarm ends")


def test_a_game_won_puts_its_winner_in_the_middle_and_first_in_the_standings(room, table):
    def a_turn(b: WebDriver) -> bool:  # the jam's OK may leave the turn paused: play on
        if b.find_element(By.ID, "what").text == "Paused":
            table.do("tap play_pause")
        return "pulse" in table.do("lights").split()

    until(room, a_turn, "a turn")
    winner = lit_seat(table)
    table.do(f"press seat{winner}")  # their last card: pressed, and held to go out
    until(room, lambda b: b.find_element(By.ID, "what").text == "won the round!", "the round ends")
    assert room.find_element(By.ID, "who").text == called(winner)
    table.do(f"release seat{winner}")
    until(room, lambda b: f"{called(winner)} won the round!" in events(b), "the win said")
    # The hands' points, entered for the others: the winner's total reaches the target.
    for seat, points in zip([s for s in SEATS if s != winner], HANDS, strict=True):
        table.do(f"points {seat} {points}")
    total = sum(HANDS)
    until(
        room,
        lambda b: b.find_element(By.ID, "what").text == f"wins the game: {total} points!",
        "the game's winner",
    )
    assert room.find_element(By.ID, "who").text == called(winner)
    assert room.find_element(By.CSS_SELECTOR, f"#seat-{winner} .total").text == f"{total} points"
    rows = [
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in room.find_elements(By.CSS_SELECTOR, "#standings tr")[1:]
    ]
    assert rows[0][:3] == [called(winner), str(total), "1"], rows  # player, points, wins
    assert [row[1:3] for row in rows[1:]] == [["0", "0"]] * (len(SEATS) - 1), rows
    until(room, lambda b: any("wins the game" in line for line in events(b)), "the game said")
    shoot(room, "room-tv.png")
    assert room.execute_script(A11Y) == []  # contrast and labels, with every part showing


def test_events_read_as_sentences(room, table):
    said = events(room)
    assert said, "no events shown"
    for line in said:
        assert "=" not in line and "_" not in line and "{" not in line, line


def test_on_a_phone_the_circle_fits_the_width(room, table):
    with on_a_phone(room) as width:
        room.get(f"{table.url}room")
        until(room, lambda b: len(b.find_elements(By.CSS_SELECTOR, ".seat")) == len(SEATS), "seats")
        assert js(room, "return document.documentElement.scrollWidth") <= width
        until(room, lambda b: b.find_element(By.ID, "standings-box").is_displayed(), "standings")
        shown = [
            *room.find_elements(By.CSS_SELECTOR, ".seat"),
            room.find_element(By.ID, "standings"),
        ]
        shown += room.find_elements(By.CSS_SELECTOR, "#slap li")
        for element in shown:
            place = element.rect
            assert place["x"] >= 0 and place["x"] + place["width"] <= width, element.text
            assert place["y"] >= 0, element.text
        shoot(room, "room-phone.png")
    as_a_tv(room)
    room.get(f"{table.url}room")
    until(
        room,
        lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-link") == "live",
        "live",
    )


def test_a_table_that_stops_greys_the_screen_and_says_since_when(room, table):
    table.stop()
    until(room, lambda b: b.find_element(By.ID, "offline").is_displayed(), "offline said")
    assert re.fullmatch(r"table offline since \d\d:\d\d", room.find_element(By.ID, "offline").text)
    grey = js(room, "return getComputedStyle(document.querySelector('main')).filter")
    assert "grayscale(1)" in str(grey), grey
    shoot(room, "room-offline.png")
    table.restart()
    until(room, lambda b: not b.find_element(By.ID, "offline").is_displayed(), "back online")
    assert room.find_element(By.TAG_NAME, "body").get_attribute("data-link") == "live"
