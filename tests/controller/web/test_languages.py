"""The page and the room screen in German and in Chinese, in a real browser (Debian's
chromium) against `flashtable run --sim` with `[web]`: the page follows the browser's
language, keeps the one picked in its header, and shows no English during an evening of
play (a round with a SLAP race, a deal, a round won and its points scored) but the table's
own data: the players' names and the LCD's glass. One table and one browser for the module;
the tests run in order. Game time is real here: every wait is for a condition.

What counts as English is read from the catalogs, not listed here: for German, a word of
the messages' English that no German text uses; for Chinese, any Latin word that no Chinese
text uses ("SLAP", "OK").

WEB_SCREENSHOTS=DIR saves the screenshots that docs/web.md shows into DIR.
"""

from __future__ import annotations

import re
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from controller.catalogs import catalog, translation
from controller.game.light_marks import LIGHT_MARKS
from controller.settings import SETTINGS

from .browser import A11Y, js, shoot, table_and_browser, until
from .conftest import PASSWORD

NAMES = {1: "Anna", 3: "Jörg"}
LETTER = "[A-Za-zÄÖÜäöüß]"  # of a Latin word (Chinese runs its words together)
WORD = re.compile(LETTER + "{2,}")
# Every text the page shows: what it reads (the LCD's glass, each language's own name in the
# choice of language and the players' names aside), each control's label and placeholder,
# each choice of a list, the page's title.
SHOWN = """
const own = [document.getElementById("lcd"), document.getElementById("language")];
let text = document.body.innerText.replace("Flash Table", "");
for (const element of own) text = text.replace(element.innerText, "");
const parts = [document.title, text];
for (const e of document.querySelectorAll("[aria-label], [placeholder]")) {
  if (e.getClientRects().length) parts.push(e.getAttribute("aria-label") || "", e.placeholder);
}
for (const option of document.querySelectorAll("option:not(#language option)")) {
  parts.push(option.textContent);
}
return parts.join("\\n");
"""


def words_of(texts: object) -> set[str]:
    found: set[str] = set()
    for text in texts:  # type: ignore[attr-defined]
        for part in [text] if isinstance(text, str) else text:
            found |= {w.lower() for w in WORD.findall(part)}
    return found


def catalogs(language: str) -> tuple[set[str], set[str]]:
    """The words of the English messages the page may show, and of their `language` texts."""
    english: set[str] = set()
    translated: set[str] = set()
    for domain in ("web", "flashtable"):
        for msgid, text in catalog(language, domain).items():
            if msgid:
                english |= words_of([msgid])
                translated |= words_of([text])
    return english, translated


def table_texts(language: str) -> list[str]:
    """The texts the page shows from the table's own domain (`flashtable`), as that catalog
    has them in `language`: the settings' labels, explanations and values, the lights'
    meanings. The table's catalog answers for these (tests/controller/test_catalogs.py)."""
    words = translation(language, "flashtable")
    english = [meaning for _, _, meaning in LIGHT_MARKS.values()]
    for setting in SETTINGS:
        english += [setting.label, setting.about]
        for value in setting.options:
            english += [setting.text(value), setting.explain(value)]
    return sorted({words.gettext(text) for text in english if text}, key=len, reverse=True)


def shown(browser: WebDriver, language: str) -> str:
    """The page's text, but for the players' names and the table's own domain's texts."""
    return without(str(js(browser, SHOWN)), [*NAMES.values(), *table_texts(language)])


def without(text: str, known: list[str]) -> str:
    """`text` with each of `known` taken out where it stands as a whole (not "aus" of "Staus")."""
    for part in known:
        text = re.sub(rf"(?<!{LETTER}){re.escape(part)}(?!{LETTER})", "", text)
    return text


table, browser = table_and_browser(
    "language-table",
    'turn_timer = 30\nsleep_time = "off"\nslap_window = 2\ntarget_score = 100\n',
    languages="de-AT,de;q=0.9,en;q=0.5",
)


def language(browser: WebDriver) -> object:
    return js(browser, "return document.documentElement.lang")


def phase(browser: WebDriver) -> str | None:
    return browser.find_element(By.TAG_NAME, "body").get_attribute("data-phase")


def live(browser: WebDriver) -> None:
    """Until the page has the table's state from its stream."""
    until(browser, phase, "the table's state")


def test_the_page_follows_the_browsers_language(browser, table):
    until(browser, lambda b: language(b) == "de", "German")
    assert Select(browser.find_element(By.ID, "language")).first_selected_option.text == "Deutsch"
    assert browser.find_element(By.ID, "table-title").text == "Der Tisch"


def test_an_evening_in_german_shows_no_english(browser, table):
    live(browser)
    browser.find_element(By.ID, "password").send_keys("not-the-password")
    browser.find_element(By.CSS_SELECTOR, "#login button").click()
    refused = "#login > .answer"
    until(browser, lambda b: b.find_elements(By.CSS_SELECTOR, refused), "refused")
    assert browser.find_element(By.CSS_SELECTOR, refused).text == "falsches Passwort"
    browser.find_element(By.ID, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "#login button").click()
    until(browser, lambda b: b.find_element(By.ID, "controls").is_displayed(), "the remote")
    for seat, name in NAMES.items():
        table.do(f"name {seat} {name}")
    for seat in (1, 2, 3):
        table.do(f"tap seat{seat}")
    table.do("tap play_pause")
    until(browser, lambda b: phase(b) == "turn", "a turn")
    table.do("tap slap")  # every seat races; nobody waits for the slowest
    for seat in (1, 2, 3):
        table.do(f"tap seat{seat}")
    until(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#slap li"), "a SLAP ranking")
    Select(browser.find_element(By.ID, "dispense")).select_by_visible_text("2 Karten")
    browser.find_element(By.ID, "deal").click()
    until(browser, lambda b: b.find_element(By.CSS_SELECTOR, "#dispense-box > .answer"), "dealt")
    until(browser, lambda b: phase(b) in ("turn", "notice", "slap"), "a round in play")
    table.do("press seat1")
    time.sleep(2.3)  # the player's own hold: the input itself, not a wait for the table
    table.do("release seat1")
    until(browser, lambda b: phase(b) == "round_over", "Anna went out")
    for seat, points in ((2, 1), (3, 30)):
        until(browser, lambda b, s=seat: b.find_element(By.ID, f"points-{s}"), "points asked")
        browser.find_element(By.ID, f"points-{seat}").send_keys(str(points))
        browser.find_element(By.ID, f"points-save-{seat}").click()
        row = f".row.points:has(#points-{seat}) > .answer"
        until(browser, lambda b, r=row: b.find_elements(By.CSS_SELECTOR, r), "entered")
    until(browser, lambda b: b.find_element(By.ID, "score-box").is_displayed(), "the score")
    # German's plural forms, by the catalog's rule: one point, no jams.
    assert browser.find_element(By.CSS_SELECTOR, ".row.points > .answer").text.endswith(
        ": 1 Punkt."
    )
    assert "0 Staus." in browser.find_element(By.ID, "launcher").text
    # German's decimal comma: the turns' seconds in the events and the round's table.
    timed = browser.find_element(By.ID, "events").text + browser.find_element(By.ID, "round").text
    assert re.search(r"\d,\d", timed) and not re.search(r"\d\.\d", timed), timed
    english, german = catalogs("de")
    left = words_of([shown(browser, "de")]) & (english - german)
    assert not left, shown(browser, "de")


def test_a_plural_rule_of_more_forms_picks_each(browser, table):
    # Polish's rule (three forms), read as words.js reads a catalog's: a language added later
    # needs no code.
    rule = "n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2"
    forms = js(browser, f"return [1, 2, 5, 12, 22, 112, 0].map(pluralFunction('{rule}'))")
    assert forms == [0, 1, 2, 2, 1, 2, 2]


@pytest.mark.parametrize("asked", ["constructor", "__proto__", "toString", "fr"])
def test_an_address_naming_a_language_the_table_lacks_is_passed_over(browser, table, asked):
    # Nor is an object's own name a language: the browser's comes next, and the page lives.
    browser.get(f"{table.url}?lang={asked}")
    until(browser, lambda b: language(b) == "de", "German")
    live(browser)


def test_the_language_picked_on_the_page_is_kept(browser, table):
    browser.get(f"{table.url}?lang=en")  # an address's language comes first
    until(browser, lambda b: language(b) == "en", "English")
    Select(browser.find_element(By.ID, "language")).select_by_value("zh")
    until(browser, lambda b: language(b) == "zh", "Chinese")
    assert "lang=" not in browser.current_url
    browser.get(table.url)
    until(browser, lambda b: language(b) == "zh", "kept")


def test_the_page_in_chinese_shows_no_latin_word_but_chinese_texts_own(browser, table):
    live(browser)
    until(browser, lambda b: b.find_element(By.ID, "controls").is_displayed(), "the remote")
    until(browser, lambda b: b.find_element(By.ID, "score-box").is_displayed(), "the score")
    until(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#events li"), "events")
    _, chinese = catalogs("zh")
    left = words_of([shown(browser, "zh")]) - chinese
    assert not left, (left, shown(browser, "zh"))
    assert browser.execute_script(A11Y) == []  # every control still named, every text legible
    shoot(browser, "web-zh.png")


def test_chinese_shows_as_glyphs_not_boxes(browser, table):
    # Two different characters drawn in the page's font: the same picture means both are a
    # missing glyph's box.
    drawn = js(
        browser,
        """
        const canvas = document.createElement("canvas");
        canvas.width = 120; canvas.height = 60;
        const pen = canvas.getContext("2d");
        pen.font = `40px ${getComputedStyle(document.body).fontFamily}`;
        return ["跳", "牌", "\\u{10FFFD}"].map((c) => {
          pen.clearRect(0, 0, 120, 60); pen.fillText(c, 10, 45); return canvas.toDataURL();
        });
        """,
    )
    jump, card, missing = drawn  # type: ignore[misc]
    assert jump != card and missing not in (jump, card)


def test_the_room_screen_in_chinese_shows_no_latin_word_but_chinese_texts_own(browser, table):
    browser.get(f"{table.url}room?lang=zh")
    room_live = lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-link") == "live"  # noqa: E731
    until(browser, room_live, "live")
    until(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#standings tr"), "standings")
    assert language(browser) == "zh"
    text = str(js(browser, "return [document.title, document.body.innerText].join('\\n')"))
    text = without(text, [*NAMES.values(), *table_texts("zh")])
    _, chinese = catalogs("zh")
    assert not words_of([text]) - chinese, text
