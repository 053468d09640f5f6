"""The headless player's table, one at a time, so that a script may restart it."""

from __future__ import annotations

from pathlib import Path

from controller.config import Config
from controller.simulation.table import SimTable


class Tables:
    """`restart` stops the table (its last snapshot written, as at a SIGTERM) and starts
    another on the same state directory, which resumes its game paused."""

    def __init__(self, config: Config, seed: int, firmware: bool, state_dir: Path | None):
        self._config, self._seed, self._firmware = config, seed, firmware
        self._state_dir = state_dir
        self._table: SimTable | None = None

    async def start(self) -> SimTable:
        made = SimTable(
            self._config, seed=self._seed, firmware=self._firmware, state_dir=self._state_dir
        )
        self._table = await made.__aenter__()
        return self._table

    async def restart(self) -> SimTable:
        await self.stop()
        return await self.start()

    async def stop(self) -> None:
        table, self._table = self._table, None
        if table is not None:
            await table.__aexit__(None, None, None)
