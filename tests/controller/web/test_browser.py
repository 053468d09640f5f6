"""The page in a real browser (Debian's chromium) against `flashtable run --sim` with `[web]`:
the live view follows presses on the table, the remote's changes reach the table and the
LCD menu's reach the page, a wrong password and a cross-site form change nothing, and a
phone shows every seat. One table and one browser for the module; the tests run in order,
as one evening at the table. Game time is real here: every wait is for a condition.

WEB_SCREENSHOTS=DIR saves the screenshots that docs/web.md shows into DIR.
"""

from __future__ import annotations

import http.server
import json
import socket
import threading
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from controller.settings import BY_KEY, MEANINGS
from controller.web.connections import MAX_STREAMS_PER_CLIENT
from tests.ports import free_port

from .browser import A11Y, WAIT, js, on_a_phone, shoot, table_and_browser, until
from .conftest import PASSWORD
from .running_table import RunningTable

# Its tests take long in all: the file starts first (tests/conftest.py).
pytestmark = pytest.mark.long

table, browser = table_and_browser(
    "web-table", 'turn_timer = 4\nsleep_time = "off"\nslap_window = 2\n'
)


def pattern(browser: WebDriver, seat: int) -> str | None:
    return js(browser, f"return document.getElementById('seat-{seat}')?.dataset.pattern")  # type: ignore[return-value]


def seat_showing(browser: WebDriver, *patterns: str) -> int | None:
    for seat in (1, 2, 3):
        if pattern(browser, seat) in patterns:
            return seat
    return None


def answer_of(browser: WebDriver, row: str) -> str | None:
    """The answer shown in the row `row` (a CSS selector) of a control, if any."""
    found = browser.find_elements(By.CSS_SELECTOR, f"{row} > .answer")
    return found[0].text if found else None


def on_screen(browser: WebDriver, css: str) -> bool:
    """Whether the element `css` shows within the viewport, as the page is scrolled now."""
    found = browser.find_elements(By.CSS_SELECTOR, css)
    if not found or not found[0].is_displayed():
        return False
    box = f"document.querySelector('{css}').getBoundingClientRect()"
    top, bottom, height = js(browser, f"const b = {box}; return [b.top, b.bottom, innerHeight]")  # type: ignore[misc]
    return bool(top >= 0 and bottom <= height)


def test_the_live_view_follows_joins_the_turn_its_time_and_a_slap(browser, table):
    until(browser, lambda b: b.find_element(By.ID, "link").text == "live", "the stream is live")
    for seat in (1, 2, 3):
        table.do(f"tap seat{seat}")
        until(browser, lambda b, s=seat: pattern(b, s) == "on", f"seat {seat} shows joined")
    assert "(1)" in browser.find_element(By.ID, "seat-1").text  # readable without colour
    lcd = table.do("lcd").split("|")
    until(
        browser,
        lambda b: [ln.rstrip() for ln in b.find_element(By.ID, "lcd").text.split("\n")] == lcd,
        "the page shows the LCD's lines",
    )
    table.do("tap play_pause")
    lit = until(browser, lambda b: seat_showing(b, "pulse"), "a seat pulses: its turn")
    assert f"Seat {lit}'s turn" in browser.find_element(By.ID, "turn-text").text
    bar = browser.find_element(By.ID, "bar")
    first = float(until(browser, lambda b: bar.get_attribute("aria-valuenow"), "the bar"))  # type: ignore[arg-type]
    until(browser, lambda b: float(bar.get_attribute("aria-valuenow")) < first - 0.2, "time runs")
    # The lit player plays a SLAP card; the others race to their buttons.
    table.do("tap slap")
    for seat in {1, 2, 3} - {lit}:
        table.do(f"tap seat{seat}")
    ranking = until(
        browser,
        lambda b: [e.text for e in b.find_elements(By.CSS_SELECTOR, "#slap li")],
        "a SLAP ranking",
    )
    assert any(line.endswith(" ms") for line in ranking), ranking  # type: ignore[union-attr]
    assert "SLAP: " in browser.find_element(By.ID, "events").text
    # The next turn runs into its last seconds: the bar warns.
    until(browser, lambda b: bar.get_attribute("data-warning") == "yes", "the last seconds")
    shoot(browser, "web-view.png")


def test_a_wrong_password_changes_nothing_and_the_right_one_opens_the_remote(browser, table):
    before = table.do("setting turn_timer")
    field = browser.find_element(By.ID, "password")
    field.send_keys("not-the-password")
    browser.find_element(By.CSS_SELECTOR, "#login button").click()
    until(browser, lambda b: answer_of(b, "#login") == "wrong password", "refused")
    assert not browser.find_element(By.ID, "controls").is_displayed()
    assert table.do("setting turn_timer") == before
    field.send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "#login button").click()
    until(browser, lambda b: b.find_element(By.ID, "controls").is_displayed(), "the remote")
    assert not browser.find_element(By.ID, "login").is_displayed()


def test_a_setting_changed_on_the_page_reaches_the_table(browser, table):
    Select(browser.find_element(By.ID, "set-turn_timer")).select_by_visible_text("9 s")
    deadline = time.monotonic() + WAIT
    while table.do("setting turn_timer") != "9":
        assert time.monotonic() < deadline, "the table never took the page's turn timer"
    until(
        browser,
        lambda b: answer_of(b, ".setting:has(#set-turn_timer)") == "Turn timer: 9 s",
        "told",
    )


def test_every_setting_on_the_remote_says_what_its_value_does(browser, table):
    rows = browser.find_elements(By.CSS_SELECTOR, "#settings .setting")
    assert rows
    for row in rows:
        key = row.find_element(By.TAG_NAME, "select").get_attribute("name")
        value = json.loads(row.find_element(By.TAG_NAME, "select").get_attribute("value"))
        assert row.find_element(By.CSS_SELECTOR, ".about").text == BY_KEY[key].explain(value)
    Select(browser.find_element(By.ID, "set-volume")).select_by_visible_text("low")
    about = browser.find_element(By.ID, "about-volume")
    until(browser, lambda b: about.text == MEANINGS["volume"]["low"], "what low does")
    deadline = time.monotonic() + WAIT
    while table.do("setting volume") != "low":
        assert time.monotonic() < deadline, "the table never took the page's volume"


def test_a_setting_changed_on_the_lcd_reaches_the_page(browser, table):
    table.do("turn 1")  # the menu opens (and pauses the turn)
    for _ in range(40):
        if "Turn timer" in table.do("lcd").split("|")[0]:
            break
        table.do("turn 1")
    else:
        raise AssertionError("no Turn timer in the menu")
    table.do("tap encoder.push")
    table.do("turn 1")  # 9 s -> 10 s, at once
    selected = Select(browser.find_element(By.ID, "set-turn_timer"))
    until(browser, lambda b: selected.first_selected_option.text == "10 s", "the page follows")
    table.do("tap encoder.push")
    table.do("press encoder.push")
    time.sleep(1.2)  # a held push: back out of the menu
    table.do("release encoder.push")
    assert table.do("setting turn_timer") == "10"


def paused(b: WebDriver) -> bool:
    """Pause pressed on the page whenever a turn runs, until the table is paused: the round
    plays in real time, so a turn can time out between seeing it and the press arriving."""
    if b.find_element(By.TAG_NAME, "body").get_attribute("data-phase") == "turn":
        b.find_element(By.CSS_SELECTOR, "button[data-action=pause]").click()
    return b.find_element(By.TAG_NAME, "body").get_attribute("data-phase") == "paused"


def test_pause_resume_and_a_confirmed_new_round_from_the_page(browser, table):
    until(browser, paused, "paused from the page")
    phase = lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-phase")  # noqa: E731
    browser.find_element(By.CSS_SELECTOR, "button[data-action=resume]").click()
    until(browser, lambda b: phase(b) in ("turn", "notice", "slap"), "resumed from the page")
    browser.find_element(By.ID, "new-round").click()
    assert browser.find_element(By.ID, "confirm").is_displayed()  # asks first
    browser.find_element(By.ID, "confirm-yes").click()
    until(browser, lambda b: b.find_element(By.ID, "round").is_displayed(), "the round's summary")
    assert "Turns" in browser.find_element(By.ID, "round-table").text


def test_a_jam_shows_on_the_page_and_ok_at_the_table_clears_it(browser, table):
    # The round the last test started runs its turns in real time: paused from the page, and
    # any penalty a timeout brought dealt, the launcher owes only the cards asked for here.
    until(browser, paused, "the round paused")
    launcher = browser.find_element(By.ID, "launcher")
    until(browser, lambda b: launcher.get_attribute("data-state") == "idle", "nothing owed")
    table.do("jam")
    Select(browser.find_element(By.ID, "dispense")).select_by_visible_text("3 cards")
    browser.find_element(By.ID, "deal").click()
    until(browser, lambda b: launcher.get_attribute("data-state") == "jam", "the jam shows")
    assert "JAM" in launcher.text and "3 owed" in launcher.text
    shoot(browser, "web-remote.png", "remote")
    shoot(browser, "web-jam.png", "launcher-box")
    table.do("clear")
    table.do("tap encoder.push")  # OK
    until(browser, lambda b: launcher.get_attribute("data-state") != "jam", "the jam is over")


class OtherSite(http.server.BaseHTTPRequestHandler):
    """Another site that the signed-in browser visits: its page posts forms to the table."""

    target = ""

    def do_GET(self) -> None:
        page = (
            f'<form id="s" method="post" action="{self.target}settings" enctype="text/plain">'
            '<input name=\'{"turn_timer": 5, "x": "\' value=\'"}\'></form>'
            f'<form id="c" method="post" action="{self.target}command" target="other">'
            '<input name="action" value="dispense"><input name="cards" value="12"></form>'
            "<script>document.getElementById('c').submit();"
            "setTimeout(() => document.getElementById('s').submit(), 300)</script>"
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *args: object) -> None:
        pass


def test_a_cross_site_form_post_changes_nothing(browser, table):
    before = (table.do("setting turn_timer"), table.do("lcd"))
    OtherSite.target = table.url
    # A thread per connection: Chromium may open one it sends nothing on (a preconnect), and
    # a server of one thread would wait on it, and its shutdown with it, until Chromium lets
    # it go a minute later.
    site = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), OtherSite)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://localhost:{site.server_port}/")
        until(browser, lambda b: b.current_url.endswith("/settings"), "the form went")
        until(browser, lambda b: "error" in b.page_source, "the table answered")
        assert "a change" in browser.page_source
    finally:
        site.shutdown()
        site.server_close()
    assert table.do("setting turn_timer") == before[0]
    browser.get(table.url)
    until(browser, lambda b: b.find_element(By.ID, "link").text == "live", "back on the page")
    events = browser.find_element(By.ID, "events").text
    assert "deals 12 cards" not in events  # no dispense of 12 ever happened


def test_an_answer_shows_beside_its_control_on_a_phone(browser, table):
    with on_a_phone(browser):
        browser.get(table.url)
        until(browser, lambda b: b.find_element(By.ID, "controls").is_displayed(), "remote")
        last = browser.find_elements(By.CSS_SELECTOR, ".setting select")[-1]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", last)
        choice = Select(last)
        other = next(o.text for o in choice.options if o.text != choice.first_selected_option.text)
        choice.select_by_visible_text(other)
        row = ".setting:last-child"
        until(browser, lambda b: (answer_of(b, row) or "").endswith(f": {other}"), "answered")
        assert on_screen(browser, f"{row} > .answer")  # beside it, where the operator looks


def the_sign_in_form_is_where_the_operator_looks(browser: WebDriver) -> bool:
    return (
        on_screen(browser, "#login")
        and js(browser, "return document.activeElement.id") == "password"
    )


def sign_in_again(browser: WebDriver) -> None:
    browser.find_element(By.ID, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "#login button").click()
    until(
        browser,
        lambda b: (
            not b.find_element(By.ID, "login").is_displayed()
            and b.find_element(By.ID, "controls").is_displayed()
        ),
        "signed in: the form goes, the remote shows",
    )
    until(browser, lambda b: b.find_element(By.ID, "link").text == "live", "live again")


def test_a_restart_brings_the_sign_in_form_back_where_the_operator_looks(browser, table):
    browser.get(table.url)
    until(browser, lambda b: b.find_element(By.ID, "controls").is_displayed(), "remote")
    js(browser, "document.getElementById('actions').scrollIntoView()")
    table.restart()  # every session ends with the daemon
    until(browser, the_sign_in_form_is_where_the_operator_looks, "the form, without a reload")
    assert not browser.find_element(By.ID, "controls").is_displayed()
    sign_in_again(browser)


def sign_out_elsewhere(browser: WebDriver, table: RunningTable) -> None:
    """The page's session ends by a sign-out from another of its tabs."""
    cookie = next(c for c in browser.get_cookies() if c["name"] == "flashtable_session")
    request = urllib.request.Request(
        table.url + "logout",
        data=b"{}",
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Origin": table.url.rstrip("/"),
            "Cookie": f"flashtable_session={cookie['value']}",
        },
    )
    with urllib.request.urlopen(request, timeout=WAIT) as answer:
        assert answer.status == 200


def test_signing_out_elsewhere_brings_the_sign_in_form_back(browser, table):
    js(browser, "document.getElementById('actions').scrollIntoView()")
    sign_out_elsewhere(browser, table)
    until(browser, the_sign_in_form_is_where_the_operator_looks, "the form, without a reload")
    sign_in_again(browser)


def test_a_control_used_after_its_session_ended_asks_for_the_password_beside_it(browser, table):
    js(browser, "source.close()")  # the page hears nothing of the session's end
    sign_out_elsewhere(browser, table)
    row = ".setting:has(#set-turn_timer)"
    js(browser, "document.getElementById('set-turn_timer').scrollIntoView({block: 'center'})")
    choice = Select(browser.find_element(By.ID, "set-turn_timer"))
    choice.select_by_visible_text("12 s")
    until(browser, lambda b: answer_of(b, row) == "sign in first", "refused beside it")
    until(browser, the_sign_in_form_is_where_the_operator_looks, "the form beside it")
    beside = "document.getElementById('login').previousElementSibling"
    assert js(browser, f"return {beside}.contains(document.getElementById('set-turn_timer'))")
    sign_in_again(browser)
    assert table.do("setting turn_timer") != "12"


def test_too_many_viewers_is_said_on_the_page_and_it_comes_back(browser, table):
    browser.get("about:blank")
    held = [open_stream(table) for _ in range(MAX_STREAMS_PER_CLIENT)]
    try:
        browser.get(table.url)
        until(browser, lambda b: "too many viewers" in b.find_element(By.ID, "link").text, "said")
    finally:
        for stream in held:
            stream.close()
    until(browser, lambda b: b.find_element(By.ID, "link").text == "live", "back when room")


def open_stream(table: RunningTable) -> socket.socket:
    """A live view from this machine's address, as the browser's: open once its first
    message has come."""
    stream = socket.create_connection(("127.0.0.1", table.port), timeout=WAIT)
    stream.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{table.port}\r\n\r\n".encode())
    seen = b""
    while b"event: state" not in seen:
        chunk = stream.recv(65536)
        assert chunk, "the stream ended"
        seen += chunk
    return stream


def phase(browser: WebDriver) -> str | None:
    return browser.find_element(By.TAG_NAME, "body").get_attribute("data-phase")


def test_names_and_points_from_the_remote_reach_the_table_and_the_page(browser, table):
    until(browser, lambda b: b.find_element(By.ID, "controls").is_displayed(), "remote")
    for seat, name in ((1, "Anna"), (3, "李小龙")):
        field = browser.find_element(By.ID, f"name-{seat}")
        js(browser, f"document.getElementById('name-{seat}').scrollIntoView({{block: 'center'}})")
        field.clear()
        field.send_keys(name)
        browser.find_element(By.ID, f"name-save-{seat}").click()
        row = f".row.name:has(#name-{seat})"
        until(
            browser,
            lambda b, r=row, n=name, s=seat: answer_of(b, r) == f"Seat {s} is {n}.",
            "named",
        )
    until(browser, lambda b: "Anna" in b.find_element(By.ID, "seat-1").text, "seat 1 shows Anna")
    assert browser.find_element(By.ID, "seat-3").get_attribute("aria-label").startswith("李小龙: ")
    # A round in play, and Anna goes out: she holds her button 2 s.
    until(browser, lambda b: phase(b) is not None, "a phase")
    if phase(browser) == "paused":
        browser.find_element(By.CSS_SELECTOR, "button[data-action=resume]").click()
    elif phase(browser) in ("seating", "round_over"):
        browser.find_element(By.CSS_SELECTOR, "button[data-action=start]").click()
    until(browser, lambda b: phase(b) in ("turn", "notice", "slap"), "a round in play")
    table.do("press seat1")
    time.sleep(2.3)  # the player's own hold: the input itself, not a wait for the table
    table.do("release seat1")
    until(browser, lambda b: phase(b) == "round_over", "Anna went out")
    assert "Anna won." in browser.find_element(By.ID, "round-winner").text
    until(browser, lambda b: b.find_element(By.ID, "points-2").is_displayed(), "points asked")
    assert not browser.find_elements(By.ID, "points-1")  # the winner's hand is empty
    for seat, points in ((2, 40), (3, 25)):
        field = browser.find_element(By.ID, f"points-{seat}")
        js(browser, f"document.getElementById('points-{seat}').scrollIntoView({{block: 'center'}})")
        field.send_keys(str(points))
        browser.find_element(By.ID, f"points-save-{seat}").click()
        row = f".row.points:has(#points-{seat})"
        until(
            browser,
            lambda b, r=row, p=points: (answer_of(b, r) or "").endswith(f": {p} points."),
            "in",
        )
    score = browser.find_element(By.ID, "score-table")
    until(browser, lambda b: "Anna 65" in score.text.replace("\n", " "), "Anna's total on the page")
    assert "李小龙" in score.text
    assert table.do("total 1") == "65"  # the table's own total, as the LCD's pages show it
    shoot(browser, "web-score.png", "score-box")


def test_on_a_phone_sign_in_is_at_the_top_and_names_and_points_are_one_tap_away(browser, table):
    with on_a_phone(browser):
        browser.get(table.url)
        until(browser, lambda b: b.find_element(By.ID, "controls").is_displayed(), "remote")
        assert on_screen(browser, "#jump")  # as the page opens
        shoot(browser, "web-phone-remote.png")
        # The round the last test scored still takes corrections: its points are a part too.
        for link, field in (("Card points", "#points-2"), ("Players", "#name-1")):
            js(browser, "window.scrollTo(0, 0)")
            # The points' link shows once the page has the round from its stream.
            until(browser, lambda b, t=link: b.find_elements(By.LINK_TEXT, t), link)
            browser.find_element(By.LINK_TEXT, link).click()
            until(browser, lambda b, f=field: on_screen(b, f), f"{link}, one tap from the top")
        browser.find_element(By.ID, "logout").click()
        until(browser, lambda b: b.find_element(By.ID, "login").is_displayed(), "signed out")
        js(browser, "window.scrollTo(0, 0)")
        assert on_screen(browser, "#login")  # the first thing the phone shows
        assert not browser.find_element(By.ID, "jump").is_displayed()
        sign_in_again(browser)


def test_a_phone_shows_every_seat_without_scrolling_sideways(browser, table):
    with on_a_phone(browser) as width:
        browser.get(table.url)
        until(browser, lambda b: b.find_element(By.ID, "link").text == "live", "live")
        until(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, ".seat")) == 3, "seats")
        assert js(browser, "return document.documentElement.scrollWidth") <= width
        for seat in browser.find_elements(By.CSS_SELECTOR, ".seat"):
            box = seat.rect
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, seat.text
        shoot(browser, "web-phone.png")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_page_passes_a_contrast_and_label_check(browser, table, scheme):
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
    )
    try:
        browser.get(table.url)
        until(browser, lambda b: b.find_element(By.ID, "controls").is_displayed(), "remote")
        until(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, ".seat")) == 3, "seats")
        assert browser.execute_script(A11Y) == []
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
