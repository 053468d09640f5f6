"""`flashtable sim` serves the page by default, on this machine alone, and says where;
`flashtable run` serves none without a `[web]` section."""

from __future__ import annotations

import aiohttp

import controller.tui
from controller.commands.cli import main
from controller.config import Config, WebConfig
from controller.tui.app import TableApp
from tests.ports import free_port


def test_flashtable_sim_serves_the_page_on_this_machine_unless_the_config_says(
    monkeypatch, tmp_path
):
    seen: list[Config] = []

    def view(config: Config, **options: object) -> int:
        seen.append(config)
        return 0

    monkeypatch.setattr(controller.tui, "run_view", view)
    assert main(["sim", "--state-dir", str(tmp_path)]) == 0
    off = tmp_path / "off.toml"
    off.write_text("[web]\nenabled = false\n")
    assert main(["sim", "--config", str(off), "--state-dir", str(tmp_path)]) == 0
    script = tmp_path / "script.txt"
    script.write_text("tap seat1\n")
    assert main(["sim", "--headless", "--script", str(script)]) == 0
    assert [c.web for c in seen] == [
        WebConfig(enabled=True, listen="127.0.0.1:8080"),
        WebConfig(enabled=False),
        None,  # a script plays without a page
    ]


async def test_the_simulated_tables_view_says_where_its_page_is(tmp_path):
    port = free_port()
    config = Config(seats=3, web=WebConfig(enabled=True, listen=f"127.0.0.1:{port}"))
    app = TableApp(config, seed=1, run_clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert f"   ! web page on http://127.0.0.1:{port}/" in app.log_view.plain
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/remote") as answer,
        ):
            assert (await answer.json())["password_set"] is False  # no password: remote off
