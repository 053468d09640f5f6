"""The message catalogs: each domain's template holds every text its sources mark, each
language translates every message of it (every plural form, the same placeholders, nothing
fuzzy), and the catalogs the table reads are those sources compiled by the project's build."""

from __future__ import annotations

import gettext
import io
import shutil
import string
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from controller import catalogs
from controller.catalogs import DOMAINS, LANGUAGES, LOCALE_DIR

TRANSLATED = [language for language in LANGUAGES if language != "en"]
PAIRS = [(domain, language) for domain in DOMAINS for language in TRANSLATED]


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def template(domain: str) -> Catalog:
    return read(LOCALE_DIR / f"{domain}.pot")


def source(domain: str, language: str) -> Catalog:
    return read(LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po")


def ids(message: Message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def texts(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def fields(text: str) -> set[str]:
    """The names of a text's `str.format` placeholders: "{cards} cards" -> {"cards"}."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_template_holds_every_text_its_sources_mark(domain):
    with (LOCALE_DIR / f"{domain}.cfg").open(encoding="utf-8") as cfg:
        methods, options = parse_mapping_cfg(cfg)
    marked = {
        message[2] if isinstance(message[2], str) else message[2][0]
        for message in extract_from_dir(LOCALE_DIR.parent, methods, options)
    }
    held = {ids(message)[0] for message in template(domain) if message.id}
    assert marked == held, "the template is stale: run ./dev catalogs, then translate"


@pytest.mark.parametrize(("domain", "language"), PAIRS)
def test_every_message_is_translated_in_every_form_with_the_same_placeholders(domain, language):
    po = source(domain, language)
    wanted = {ids(message)[0]: message for message in template(domain) if message.id}
    have = {ids(message)[0]: message for message in po if message.id}
    assert sorted(have) == sorted(wanted), "run ./dev catalogs to bring the catalog up to date"
    problems = []
    for msgid, message in have.items():
        forms = texts(message)
        if message.fuzzy:
            problems.append(f"{msgid!r}: fuzzy")
        if isinstance(wanted[msgid].id, tuple) != isinstance(message.id, tuple):
            problems.append(f"{msgid!r}: plural in one, not the other")
        if isinstance(message.id, tuple) and len(forms) != po.num_plurals:
            problems.append(f"{msgid!r}: {len(forms)} forms, not {po.num_plurals}")
        if not all(form.strip() for form in forms):
            problems.append(f"{msgid!r}: untranslated")
        placeholders = set().union(*(fields(text) for text in ids(message)))
        for form in forms:
            if form and fields(form) != placeholders:
                problems.append(f"{msgid!r}: {form!r} has {fields(form)}, not {placeholders}")
    assert problems == []


@pytest.mark.parametrize(("domain", "language"), PAIRS)
def test_the_catalogs_the_table_reads_are_their_sources_compiled(domain, language):
    po = source(domain, language)
    path = gettext.find(domain, LOCALE_DIR, [language])
    assert path, "no compiled catalog: ./dev compiles them as it installs the project"
    with open(path, "rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for message in po:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            for n, form in ((1, message.string[0]), (2, message.string[-1])):
                got = compiled.ngettext(message.id[0], message.id[1], n)
                assert got == (form or message.id[n > 1]), "stale: ./dev compiles again"
        else:
            got = compiled.gettext(message.id)
            assert got == (message.string or message.id), "stale: ./dev compiles again"


def test_english_is_the_texts_themselves_and_an_unknown_language_english():
    for language in ("en", "xx"):
        words = catalogs.translation(language)
        assert words.gettext("Paused") == "Paused"
        assert words.ngettext("{n} card", "{n} cards", 2) == "{n} cards"
        assert catalogs.catalog(language) == {"": catalogs.ENGLISH_PLURALS}


def test_an_install_with_every_catalog_misses_none():
    assert catalogs.missing() == []


def test_an_install_without_its_catalogs_misses_each(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    assert catalogs.missing() == [
        tmp_path / language / "LC_MESSAGES" / f"{domain}.mo"
        for language in TRANSLATED
        for domain in DOMAINS
    ]


@pytest.mark.parametrize(("domain", "language"), PAIRS)
def test_a_page_gets_every_message_of_a_catalog_with_its_plural_rule(domain, language):
    po = source(domain, language)
    words = catalogs.catalog(language, domain)
    assert words.pop("") == po.plural_forms
    expected = {
        ids(message)[0]: list(message.string) if isinstance(message.id, tuple) else message.string
        for message in po
        if message.id and all(texts(message))
    }
    assert words == expected


def test_the_wheel_carries_every_catalog_compiled(tmp_path):
    # The project's own build, offline (setuptools and Babel are the suite's), on a copy of
    # the sources alone: the checkout's compiled catalogs must not be what it ships.
    checkout = Path(catalogs.__file__).parents[1]
    project = tmp_path / "project"
    for name in ("pyproject.toml", "README.md"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(checkout / name, project / name)
    for package in ("controller", "hardware", "firmware"):
        shutil.copytree(
            checkout / package,
            project / package,
            ignore=shutil.ignore_patterns("*.mo", "__pycache__"),
        )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(tmp_path / "out"),
            str(project),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "out").glob("flashtable-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name for name in archive.namelist() if name.endswith(".mo")}
        expected = {
            f"controller/locale/{language}/LC_MESSAGES/{domain}.mo" for domain, language in PAIRS
        }
        assert shipped == expected
        for domain, language in PAIRS:
            compiled = gettext.GNUTranslations(
                io.BytesIO(archive.read(f"controller/locale/{language}/LC_MESSAGES/{domain}.mo"))
            )
            for message in source(domain, language):
                if message.id and not isinstance(message.id, tuple):
                    assert compiled.gettext(message.id) == (message.string or message.id)
