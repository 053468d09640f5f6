"""Notices (a disk that refuses the settings, the launcher's link) give way to the screen the
players need: a jam or an empty hopper waits for their OK, and a sleeping table is dark. A
notice waits for the screen and is then shown in full."""

from controller.simulation.table import SimTable

from .test_launcher_table import config, jam_after_the_first_penalty_card, start


def refuse_saving(table: SimTable, monkeypatch) -> None:
    """The disk refuses the settings from now on: a change says "Not saving" on the LCD."""
    import errno

    def full(settings):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(table.daemon.settings_keeper.store, "save", full)


async def change_a_setting(table: SimTable) -> None:
    from controller.requests import ChangeSettings

    table.daemon.submit(ChangeSettings({"volume": "low"}))
    await table.settle()


async def test_a_notice_during_a_jam_waits_until_the_players_said_ok(tmp_path, monkeypatch):
    settings = config(timeout_penalty=4, sleep_time="off")
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await jam_after_the_first_penalty_card(table)
        refuse_saving(table, monkeypatch)
        await change_a_setting(table)
        for _ in range(8):  # the jam and the count owed stay up, however long it takes
            assert table.lcd == ("JAM: clear slot ", "press OK  3 owed")
            await table.advance(1.0)
        table.clear_jam()
        await table.tap("encoder.push")
        assert table.lcd[0] == "Not saving:     "  # then the notice, in full
        await table.advance(4.5)
        assert table.lcd[0] == "Not saving:     "
        await table.advance(1.0)
        assert table.lcd[0] != "Not saving:     "
        assert table.cards_out == 4 * len(table.events_of("timeout"))  # every card dealt


async def test_a_jam_takes_the_lcd_from_a_notice_at_once(tmp_path, monkeypatch):
    settings = config(timeout_penalty=4, sleep_time="off")
    async with SimTable(settings, seed=5, state_dir=tmp_path) as table:
        await start(table, 1, 2)
        await table.advance(4.0)
        while table.cards_out < 1:
            await table.advance(0.01)
        refuse_saving(table, monkeypatch)
        await change_a_setting(table)
        assert table.lcd[0] == "Not saving:     "
        table.jam()
        await table.advance(1.0)  # the jam time is 0.8 s
        assert table.lcd == ("JAM: clear slot ", "press OK  3 owed")
        table.clear_jam()
        await table.tap("encoder.push")
        assert table.lcd[0] == "Not saving:     "  # shown again, for its whole time
        await table.advance(4.5)
        assert table.lcd[0] == "Not saving:     "


async def test_a_notice_while_the_table_sleeps_is_shown_when_it_wakes(tmp_path, monkeypatch):
    async with SimTable(config(sleep_time=1), seed=5, state_dir=tmp_path) as table:
        await table.advance(61.0)
        assert table.lcd_model.backlight is False
        refuse_saving(table, monkeypatch)
        await change_a_setting(table)
        await table.advance(6.0)  # longer than a notice shows, on a dark LCD
        assert table.lcd_model.backlight is False
        await table.tap("seat1")
        assert table.lcd_model.backlight is True
        assert table.lcd[0] == "Not saving:     "
