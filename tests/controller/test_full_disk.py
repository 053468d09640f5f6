"""On a full disk the table plays on, says so on the LCD, and a restart never deals again a
card it dealt: the cards-owed file is only ever overwritten in place, which needs no space."""

import contextlib
import errno
import json
import logging
import os
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.config import Config
from controller.requests import ChangeSettings
from controller.settings import Settings
from controller.shell.renderer import NOTICE_SHOWN
from controller.simulation.table import SimTable
from controller.storage import statefile

DISK_FULL = ("Not saving:     ", "disk full       ")


@dataclass
class Disk:
    path: Path
    fill: Callable[[], None]


def _mounted_tmpfs(where):
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


@pytest.fixture
def disk(tmp_path, monkeypatch):
    """A small disk and `fill()`, which leaves no space on it: a real tmpfs where this
    machine lets one be mounted, else a disk that refuses every new block (ENOSPC)."""
    where = tmp_path / "disk"
    real = _mounted_tmpfs(where)

    def fill() -> None:
        if real:
            with contextlib.suppress(OSError), open(where / "filler", "wb", buffering=0) as filler:
                while True:
                    filler.write(b"\0" * 4096)
            return

        def no_space(*args, **kwargs):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        full = os.statvfs(where)
        monkeypatch.setattr(tempfile, "mkstemp", no_space)
        monkeypatch.setattr(
            statefile.os,
            "statvfs",
            lambda path: os.statvfs_result((*full[:4], 0, *full[5:])),
        )

    try:
        yield Disk(where, fill)
    finally:
        if real:
            subprocess.run(["umount", str(where)], check=False)


def penalty_of_4() -> Config:
    return Config(settings=Settings({"turn_timer": 4, "timeout_penalty": 4, "sleep_time": "off"}))


async def test_three_restarts_on_a_full_disk_deal_the_cards_owed_once_in_total(disk):
    async with SimTable(penalty_of_4(), seed=5, state_dir=disk.path) as table:
        for seat in ("seat1", "seat2", "play_pause"):
            await table.tap(seat)
        await table.advance(4.0)  # the turn times out: 4 cards are owed
        while table.cards_out < 1:
            await table.advance(0.001)
        dealt = table.cards_out + table.launcher.card_in_beam  # a card half out is dealt
    disk.fill()
    lcd_at_start = []
    for restart in range(3):
        async with SimTable(penalty_of_4(), seed=5, state_dir=disk.path) as table:
            lcd_at_start.append(table.lcd)
            if restart == 0:  # stopped again in the middle of dealing what was owed
                while table.cards_out < 1:
                    await table.advance(0.001)
            else:
                await table.advance(5.0)
            dealt += table.cards_out + table.launcher.card_in_beam
            assert table.daemon.table.settings.turn_timer == 4  # play goes on
    assert dealt == 4
    assert lcd_at_start == [DISK_FULL] * 3


async def test_a_setting_changed_on_a_full_disk_applies_and_the_lcd_says_it_is_not_kept(
    disk, monkeypatch, caplog
):
    async with SimTable(seed=1, state_dir=disk.path) as table:
        disk.fill()
        await table.advance(6.0)  # the start's notices are over
        table.daemon.handle(ChangeSettings({"turn_timer": 9}))
        await table.settle()
        assert table.lcd == DISK_FULL
        assert table.daemon.table.settings.turn_timer == 9
        keeper = table.daemon.settings_keeper
        assert keeper.not_saved == "no space left on device"  # what the shell is told
        table.daemon.handle(ChangeSettings({"turn_timer": 7}))  # refused again, while said
        await table.settle()
        await table.advance(NOTICE_SHOWN + 0.5)
        assert table.lcd != DISK_FULL  # said once, not once more
        said = f"cannot save the settings to {disk.path / 'settings.json'}: no space left on device"
        # The settings' own words (the game's snapshot, written on its own thread, may be
        # refused in between, or not yet: its words are the snapshot writer's).
        kept = [r for r in caplog.records if r.name == "controller.shell.settings_keeper"]
        assert [(r.levelno, r.getMessage()) for r in kept] == [(logging.ERROR, said)] * 2
        # Space again: the next change is kept, and nothing is said to be unsaved any more.
        monkeypatch.undo()
        (disk.path / "filler").unlink(missing_ok=True)
        table.daemon.handle(ChangeSettings({"turn_timer": 8}))
        await table.settle()
        assert keeper.not_saved is None
        assert json.loads((disk.path / "settings.json").read_text()) == {"turn_timer": 8}


async def test_a_start_on_a_full_disk_still_sweeps_the_leftovers_of_unfinished_writes(disk):
    # A power cut in the middle of a write left its temporary file, which holds space.
    leftover = disk.path / "game.json.k3x9q.tmp"
    leftover.write_bytes(b"\0" * 64 * 1024)
    disk.fill()
    async with SimTable(seed=1, state_dir=disk.path):
        assert not leftover.exists()
