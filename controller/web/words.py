"""The page's words in a language, as /words/LANG.json serves them to words.js: the `web`
domain's catalog (msgid -> text, a plural's forms, "" -> the Plural-Forms rule) and the
texts the page receives in English from the table's stream (each light's meaning), in the
`flashtable` domain's words. Built once per language, with the tag the page's cache checks."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from ..catalogs import LANGUAGES, catalog, translation
from ..game.light_marks import LIGHT_MARKS


@cache
def words_json(language: str) -> tuple[bytes, str]:
    """The JSON body for `language` (one of LANGUAGES) and its entity tag."""
    assert language in LANGUAGES
    words = dict(catalog(language, "web"))
    table = translation(language, "flashtable")
    for _, _, meaning in LIGHT_MARKS.values():
        words.setdefault(meaning, table.gettext(meaning))
    body = json.dumps(words, ensure_ascii=False, sort_keys=True).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
