"""The page's words: /words/LANG.json serves a language's `web` catalog as the build compiled
it (and the lights' meanings the stream sends in English), for the table's languages alone,
kept by the browser until it changes; the remote's settings come in the language the page
asks for; and every text of the page's HTML is a message of the catalog."""

from __future__ import annotations

import gettext
import io
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from controller.catalogs import LANGUAGE_NAMES, LANGUAGES, catalog, translation
from controller.game.light_marks import LIGHT_MARKS
from controller.settings import BY_KEY
from controller.web import remote
from controller.web.html_messages import extract

from .test_server import serving

STATIC = Path(__file__).parents[3] / "controller" / "web" / "static"
TEMPLATE = Path(__file__).parents[3] / "controller" / "locale" / "web.pot"


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_languages_words_are_its_catalog_and_the_lights_meanings(tmp_path, language):
    async with (
        serving(tmp_path) as (_table, page),
        page.session.get(f"{page.origin}/words/{language}.json") as response,
    ):
        assert response.status == 200
        assert response.content_type == "application/json"
        words = json.loads(await response.read())
    assert words.items() >= catalog(language, "web").items()
    assert "plural=" in words[""]
    for _, _, meaning in LIGHT_MARKS.values():
        assert words[meaning] == translation(language, "flashtable").gettext(meaning)


async def test_the_words_are_kept_until_they_change(tmp_path):
    async with serving(tmp_path) as (_table, page):
        url = f"{page.origin}/words/zh.json"
        async with page.session.get(url) as response:
            tag = response.headers["ETag"]
            assert response.headers["Cache-Control"] == "no-cache"
        async with page.session.get(url, headers={"If-None-Match": tag}) as response:
            assert response.status == 304
        async with page.session.get(url, headers={"If-None-Match": '"other"'}) as response:
            assert response.status == 200


@pytest.mark.parametrize(
    "path",
    [
        "/words/fr.json",
        "/words/EN.json",
        "/words/de",
        "/words/de.json/",
        "/words/../de.json",
        "/words/%2e%2e%2fde.json",
        "/words/de.po",
        "/words/",
    ],
)
async def test_words_of_a_language_the_table_lacks_are_not_found(tmp_path, path):
    async with serving(tmp_path) as (_table, page), page.session.get(page.origin + path) as answer:
        assert answer.status == 404, path


class Marked(gettext.NullTranslations):
    """A language whose every text is the English one between « »: what the remote shows
    of it can only have come through its catalog."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"«{singular if n == 1 else plural}»"


@pytest.mark.parametrize("language", ["de", "zh"])
async def test_the_remotes_settings_come_in_the_language_asked(tmp_path, monkeypatch, language):
    asked = []

    def marked(language: str, domain: str) -> gettext.NullTranslations:
        asked.append((language, domain))
        return Marked() if language != "en" else gettext.NullTranslations()

    monkeypatch.setattr(remote, "translation", marked)
    async with serving(tmp_path) as (_table, page):
        async with page.session.get(f"{page.origin}/remote?lang={language}") as response:
            translated = await response.json()
        async with page.session.get(f"{page.origin}/remote?lang=../xx") as response:
            english = await response.json()
    assert asked == [(language, "flashtable"), ("en", "flashtable")]
    for setting, other in zip(translated["settings"], english["settings"], strict=True):
        spec = BY_KEY[setting["key"]]
        assert setting["label"] == spec.label_in(Marked()) != other["label"]
        assert setting["label"].startswith("«")
        assert setting["about"] == f"«{spec.about}»" and other["about"] == spec.about
        for option in setting["options"]:
            assert option["text"] == spec.text(option["value"], Marked())
            assert option["about"] == f"«{spec.explain(option['value'])}»"


@pytest.mark.parametrize("page", sorted(STATIC.glob("*.html")), ids=lambda p: p.name)
def test_every_text_of_the_html_is_a_message_of_the_web_catalog(page):
    found = list(extract(io.BytesIO(page.read_bytes()), None, None, {}))
    with TEMPLATE.open("rb") as pot:
        template = read_po(pot)
    assert found
    for _, _, message, _ in found:
        assert message in template, message
        assert "  " not in message and "\n" not in message and message == message.strip()


def test_the_html_extractor_reads_marked_texts_with_their_fields_and_labels():
    html = (
        b'<h2 data-t>The game\n   to <span id="t" data-field="target">500</span></h2>'
        b'<ul aria-label="Seats"><li>not marked</li></ul><input placeholder="no name">'
        b'<p data-t>No password: <code data-field="command">a <b>b</b></code> sets one.</p>'
    )
    found = [(line, message) for line, _, message, _ in extract(io.BytesIO(html), None, None, {})]
    assert found == [
        (1, "The game to {target}"),
        (2, "Seats"),
        (2, "no name"),
        (2, "No password: {command} sets one."),
    ]


def test_the_page_offers_the_tables_languages_each_by_its_own_name():
    script = (STATIC / "words.js").read_text(encoding="utf-8")
    offered = re.search(r"const LANGUAGE_NAMES = \{(.*?)\};", script)
    assert offered is not None
    assert dict(re.findall(r"(\w+): \"(.*?)\"", offered[1])) == LANGUAGE_NAMES
    assert tuple(LANGUAGE_NAMES) == LANGUAGES
