"""The settings of a running table: changed from the menu, MQTT or a reread file, kept in
the state directory, and followed by the hardware (volume, brightness, jam time).

The table plays on what the LCD shows even when the disk refuses the write. Loop thread only.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from ..game.state import Lines
from ..requests import ChangeSettings, RereadSettings, ResetSettings
from ..settings import Settings
from ..storage.settings_store import Loaded, SettingsStore, settings_notice
from ..storage.statefile import not_saving, reason_of
from .launcher_link import LauncherLink

if TYPE_CHECKING:
    from hardware.board import Board

log = logging.getLogger(__name__)


class SettingsKeeper:
    def __init__(self, store: SettingsStore | None, base: Settings) -> None:
        self.store = store
        self.base = base  # what "Reset settings" goes back to: the config's values
        self.not_saved: str | None = None  # why the disk refused the last write, if it did

    @classmethod
    def at_start(
        cls, state_dir: Path | None, base: Settings
    ) -> tuple[SettingsKeeper, Settings, list[Lines]]:
        """The keeper of the settings kept in `state_dir` over the config's `base` (none
        kept without a state directory), the settings to start with, and what the LCD says
        once of a file that could not all be used."""
        store = None if state_dir is None else SettingsStore(state_dir, base)
        loaded = store.load() if store is not None else Loaded(base)
        problems = [settings_notice(loaded)] if loaded.problems else []
        return cls(store, base), loaded.settings, problems

    def answer(
        self, request: ChangeSettings | ResetSettings | RereadSettings, current: Settings
    ) -> tuple[Settings, Lines | None]:
        """The settings `request` leads to from `current`, kept, and what the LCD should say
        of a settings file that could not all be used. Raises SettingError for a bad change."""
        if isinstance(request, ChangeSettings):
            return self._keep(current.replace(request.changes))
        if isinstance(request, ResetSettings):
            return self._keep(self.base)
        if self.store is None:
            return current, None
        loaded = self.store.load()
        log.info("settings reread from %s", self.store.path)
        return loaded.settings, settings_notice(loaded) if loaded.problems else None

    def _keep(self, settings: Settings) -> tuple[Settings, Lines | None]:
        if self.store is not None:
            try:
                self.store.save(settings)
            except OSError as err:
                self.not_saved = reason_of(err)
                log.error("cannot save the settings to %s: %s", self.store.path, self.not_saved)
                return settings, not_saving(err)
            self.not_saved = None
        return settings, None


class HardwareSettings:
    """Applies what the hardware itself follows, only when the settings change."""

    def __init__(self, board: Board, launcher: LauncherLink) -> None:
        self._board = board
        self._launcher = launcher
        self._applied: Settings | None = None

    def follow(self, settings: Settings) -> None:
        if settings is self._applied:
            return
        self._applied = settings
        self._board.buzzer.volume = settings.volume
        for light in self._board.lights.values():
            light.brightness = settings.brightness / 100
        self._launcher.apply(settings)
