"""What the remote offers: every setting the menu offers on this table, with the settings
model's own values, their text as the LCD shows it, its label and the line that says what
each value does, in the page's language; the commands."""

from __future__ import annotations

from ..catalogs import LANGUAGES, translation
from ..game import Table
from ..requests import MAX_DEAL, QUICK_DISPENSE
from ..settings import BY_KEY, SETTINGS

LAUNCHER_KEYS = (
    "launcher_profile",
    "custom_chance",
    "custom_min",
    "custom_max",
    "hit_ends_turn",
    "burst_cap",
    "jam_time",
)


def offered(table: Table) -> list[str]:
    """The settings' keys, as the menu has them for this table: handicaps for the seats
    fitted, the launcher's only where there is one."""
    keys = []
    for setting in SETTINGS:
        seat = setting.key.removeprefix("handicap_seat")
        if seat != setting.key and int(seat) > table.stations:
            continue
        if setting.key in LAUNCHER_KEYS and not table.has_launcher:
            continue
        keys.append(setting.key)
    return keys


def remote_model(table: Table, language: str) -> dict[str, object]:
    """The remote's form in `language` (English for one the table does not have): each
    setting with its label, what it does, and its allowed values in menu order, each with
    what it does."""
    words = translation(language if language in LANGUAGES else "en", "flashtable")
    return {
        "settings": [
            {
                "key": key,
                "label": BY_KEY[key].label_in(words),
                "about": words.gettext(BY_KEY[key].about),
                "options": [
                    {
                        "value": value,
                        "text": BY_KEY[key].text(value, words),
                        "about": words.gettext(BY_KEY[key].explain(value)),
                    }
                    for value in BY_KEY[key].options
                ],
            }
            for key in offered(table)
        ],
        "dispense": (
            {"max": MAX_DEAL, "quick": list(QUICK_DISPENSE)} if table.has_launcher else None
        ),
    }
