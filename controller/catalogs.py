"""The table's languages and their message catalogs: gettext's compiled .mo files, one per
language and domain, read once when first asked for. English is the message ids themselves.

Domains: `flashtable` (every text the table's Python shows: the LCD, its menu, the settings'
texts, the notices, the terminal view) and `web` (the web page's own texts).
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "de", "zh")
# Each language by its own name, as a choice of language shows it.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "zh": "中文"}
DOMAINS = ("flashtable", "web")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
# English's plural rule, as a catalog's Plural-Forms header says it.
ENGLISH_PLURALS = "nplurals=2; plural=(n != 1);"


# What a translation is to its users: gettext's texts of one language and domain.
Words = gettext.NullTranslations


@cache
def translation(language: str, domain: str = "flashtable") -> Words:
    """The texts of `domain` in `language`: English (the ids themselves) for "en", for a
    language the table does not have, and for a message its catalog lacks."""
    if language == "en" or language not in LANGUAGES:
        return gettext.NullTranslations()
    return gettext.translation(domain, LOCALE_DIR, [language], fallback=True)


def missing() -> list[Path]:
    """The compiled catalogs an install should hold and does not (a checkout run without
    `./dev`, a copy that left out the .mo files): their texts show in English."""
    return [
        LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.mo"
        for language in LANGUAGES
        if language != "en"
        for domain in DOMAINS
        if gettext.find(domain, LOCALE_DIR, [language]) is None
    ]


# The languages the LCD shows: its ROM has no Chinese, so for "zh" it shows English.
ON_THE_LCD = ("en", "de")


def lcd_translation(language: str) -> Words:
    """The texts of the LCD in `language`, or in English where the glass cannot show it."""
    return translation(language if language in ON_THE_LCD else "en")


class _Compiled(gettext.GNUTranslations):
    # The standard library's parser keeps every message of a .mo file here: msgid -> msgstr,
    # (msgid, index) -> each plural form, "" -> the header.
    _catalog: dict[str | tuple[str, int], str]


def catalog(language: str, domain: str = "web") -> dict[str, str | list[str]]:
    """Every message of `domain` in `language`, for a page to translate with: msgid ->
    msgstr, a plural's singular msgid -> its forms in the catalog's order, and "" -> the
    language's plural rule (its Plural-Forms header). English: no messages, its rule."""
    path = gettext.find(domain, LOCALE_DIR, [language]) if language in LANGUAGES else None
    if language == "en" or path is None:
        return {"": ENGLISH_PLURALS}
    with open(path, "rb") as mo:
        compiled = _Compiled(mo)
    words: dict[str, str | list[str]] = {}
    plurals: dict[str, dict[int, str]] = {}
    for key, text in compiled._catalog.items():
        if isinstance(key, tuple):
            plurals.setdefault(key[0], {})[key[1]] = text
        elif key:
            words[key] = text
    for msgid, forms in plurals.items():
        words[msgid] = [forms[index] for index in sorted(forms)]
    words[""] = compiled.info().get("plural-forms", ENGLISH_PLURALS)
    return words


def cells(text: str) -> int:
    """The columns a terminal gives `text`: two for each wide character (Chinese), for the
    text tables of modules that run without Rich (the CLI's help, the headless player)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def decimal(words: Words, number: str) -> str:
    """`number`, as Python writes it ("12.5s"), with the decimal mark of `words`' language:
    "12,5s" in German."""
    whole, point, fraction = number.partition(".")
    if not point:
        return number
    # Translators: a number with decimals ("12.5"), its decimal mark as the language writes it.
    return words.gettext("{whole}.{fraction}").format(whole=whole, fraction=fraction)


def N_(text: str) -> str:
    """`text` itself, marked where it is written for the catalogs: it is translated where it
    is shown."""
    return text
