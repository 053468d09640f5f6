"""Where the settings changed on the table (menu, shell, MQTT) survive a power cut.

The config file's [settings] are the starting values; the store in the state directory
holds only what was changed on the table since, so "Reset settings" simply empties it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..catalogs import N_
from ..errors import CrossedBounds, SettingError, UnreadableStateFile
from ..settings import Settings, Value, setting
from .statefile import read_json, unusable, write_json

log = logging.getLogger(__name__)

FILE_NAME = "settings.json"


@dataclass
class Loaded:
    settings: Settings
    problems: list[str] = field(default_factory=list)  # one line each, for the log
    corrupt: bool = False  # the file could not be read at all and was kept aside


class SettingsStore:
    def __init__(self, state_dir: Path, base: Settings) -> None:
        self.path = state_dir / FILE_NAME
        self.base = base
        self.changes: dict[str, Value] = {}

    def load(self, *, aside: bool = True) -> Loaded:
        """The base settings with the stored changes; bad entries are dropped and named. A
        file that cannot be read at all is set aside, unless `aside` is False (a look)."""
        try:
            raw = read_json(self.path, aside=aside)
            if raw is not None and not isinstance(raw, dict):
                raise unusable(self.path, "not a table of settings", aside=aside)
        except UnreadableStateFile as err:
            return Loaded(self.base, [f"{err}; defaults used"], corrupt=True)
        if raw is None:
            return Loaded(self.base)
        problems = []
        self.changes = {}
        for key, value in raw.items():
            try:
                self.changes[key] = setting(key).parse(value)
            except SettingError as err:
                log.warning("%s: %s; that setting keeps its value", self.path, err)
                problems.append(str(err))
        while True:
            try:
                return Loaded(self.base.replace(self.changes), problems)
            except CrossedBounds as err:  # a pair of bounds, each fine alone, crossed
                log.warning("%s: %s; both keep their values", self.path, err)
                for key in err.keys:
                    self.changes.pop(key, None)
                problems.append(str(err))

    def save(self, settings: Settings) -> None:
        """Remember every value that differs from the base, atomically."""
        changes = {k: v for k, v in settings.items() if v != self.base[k]}
        write_json(self.path, changes)
        self.changes = changes

    def set(self, changes: Mapping[str, object]) -> Settings:
        """Validate and store changes; raises SettingError naming a bad one."""
        current = self.base.replace(self.changes)
        updated = current.replace(changes)
        self.save(updated)
        return updated

    def reset(self) -> Settings:
        self.save(self.base)
        return self.base


def settings_notice(loaded: Loaded) -> tuple[str, str]:
    """What the LCD says once about settings that could not all be used."""
    if loaded.corrupt:
        return (N_("Settings damaged"), N_("defaults in use"))
    return (N_("Bad setting kept"), N_("at its old value"))
