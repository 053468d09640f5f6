"""A press is answered by the lights first: in the step that ends a turn, a light changes
before the buzzer sounds, before the game's events go out (log, MQTT) and before the LCD is
written, whose controller needs waits between writes (docs/performance.md)."""

from controller.config import Config
from controller.settings import Settings
from controller.simulation.table import SimTable

QUIET = Settings({"mode": "flash", "turn_timer": "off", "sleep_time": "off"})


async def test_ending_a_turn_changes_a_light_before_sound_events_and_lcd(monkeypatch):
    async with SimTable(Config(seats=3, settings=QUIET), seed=1) as table:
        for seat in (1, 2, 3):
            await table.tap(f"seat{seat}")
        await table.tap("play_pause")
        [seat] = table.lit()
        order: list[str] = []
        for light in table.daemon.board.lights.values():
            light.pin.listeners.append(lambda level: order.append("light"))
        table.pin("buzzer").listeners.append(lambda level: order.append("sound"))
        table.daemon.publisher.listen(lambda event: order.append("event"))
        display = table.daemon.board.display
        show = display.show
        monkeypatch.setattr(display, "show", lambda lines: (order.append("lcd"), show(lines)))
        await table.press(f"seat{seat}")
        assert table.lit() != [seat]
        assert {"sound", "event", "lcd"} <= set(order)
        assert order[0] == "light", order
