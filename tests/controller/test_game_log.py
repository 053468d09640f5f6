"""The replay log: bounded, and the events recorded since any point can still be read."""

import random

import controller.shell.game_log
from controller.game import Tick, new_table
from controller.settings import Settings
from controller.shell.game_log import GameLog


def test_events_since_a_number_survive_the_log_starting_over(monkeypatch):
    monkeypatch.setattr(controller.shell.game_log, "LIMIT", 100)
    table, rng = new_table(Settings(), 4), random.Random(1)
    log = GameLog(table, rng)
    for n in range(250):
        log.record(table, float(n), Tick(float(n)), rng)
    assert log.recorded == 250 and len(log) == 50
    assert [now for now, _ in log.since(230)] == [float(n) for n in range(230, 250)]
    # What was dropped is gone; what is kept comes back whole.
    assert [now for now, _ in log.since(120)] == [float(n) for n in range(200, 250)]
    assert log.since(250) == []
