"""Answers worked out ahead (controller.shell.answers) are the engine's own: over random games, each
answer given for a press or a wakeup is what the lights show once the engine has stepped; and
at the table, ending a turn and a turn running out are lit before the engine steps for them."""

import asyncio
import logging

import pytest
from hypothesis import HealthCheck, event, given, settings

import controller.game
from controller.config import Config
from controller.game import Phase, Press, Tick, lights, next_wakeup
from controller.settings import Settings
from controller.shell.answers import Answers
from controller.simulation.table import SimTable

from .game.strategies import INPUTS, RandomGame, games


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_every_answer_worked_out_ahead_is_what_the_step_shows(game):
    loop = asyncio.new_event_loop()
    try:
        played = RandomGame(game)
        answers = Answers(loop, dict.fromkeys(INPUTS), played.rng)
        given = 0

        def stepped(before, step_event):
            nonlocal given
            if isinstance(step_event, Press | Tick):
                ahead = answers.ahead(before, step_event, played.now)
                if ahead is not None:
                    assert ahead == lights(played.table)
                    given += 1
            answers.prepare(played.table, played.now, next_wakeup(played.table))
            loop.run_until_complete(answers.ready())

        played.play(stepped)
        event("some answers given ahead" if given else "no answer given ahead")
    finally:
        loop.close()


async def test_the_next_seat_and_a_timeout_are_lit_before_the_engine_steps(monkeypatch):
    config = Config(settings=Settings({"mode": "flash", "turn_timer": 3, "timeout_penalty": 0}))
    async with SimTable(config, seed=4) as table:
        for seat in (1, 2, 3):
            await table.tap(f"seat{seat}")
        await table.tap("play_pause")
        at_step: list[tuple[object, list[str]]] = []  # each step's event, the lights then
        timed_out: list[list[str]] = []  # the lights as the engine steps for a timeout
        engine_step = controller.game.step

        def step(state, step_event, now, rng):
            result = engine_step(state, step_event, now, rng)
            if rng is table.daemon.rng:  # the daemon's own step, not an answer's
                shown = [table.light(seat) for seat in (1, 2, 3)]
                at_step.append((step_event, shown))
                if state.phase is Phase.TURN and result[0].phase is Phase.NOTICE:
                    timed_out.append(shown)
            return result

        monkeypatch.setattr(controller.game, "step", step)
        changed = 0
        for _ in range(12):
            [lit] = table.lit()
            before = [table.light(seat) for seat in (1, 2, 3)]
            at_step.clear()
            await table.daemon.answers.ready()  # a player's press comes long after
            await table.press(f"seat{lit}")
            after = [table.light(seat) for seat in (1, 2, 3)]
            changed += after != before  # a seat lit again blinks on
            assert at_step == [(Press(f"seat{lit}", at_step[0][0].time), after)]
            await table.release(f"seat{lit}")
            await table.advance(0.5)
        assert changed >= 6
        [lit] = table.lit()
        turn = table.daemon.table.turn
        await table.advance_to(turn.deadline - 0.001)
        await table.daemon.answers.ready()
        await table.advance(0.5)
        assert table.light(lit) == "flash"
        assert timed_out == [[table.light(seat) for seat in (1, 2, 3)]]
        assert table.daemon.answers.missed == 0


@pytest.mark.parametrize("failing", ["seat2", "the wakeup"])
async def test_an_answer_that_cannot_be_worked_out_is_logged_and_the_others_still_are(
    monkeypatch, caplog, failing
):
    async with SimTable(seed=4) as table:
        engine_step = controller.game.step

        def step(state, step_event, now, rng):
            ahead = rng is not table.daemon.rng
            if ahead and getattr(step_event, "input", "the wakeup") == failing:
                raise RuntimeError(f"no answer for {failing}")
            return engine_step(state, step_event, now, rng)

        monkeypatch.setattr(controller.game, "step", step)
        await table.tap("seat1")
        await table.daemon.answers.ready()
        now, answers = table.now, table.daemon.answers
        shown = {
            name: answers.ahead(table.daemon.table, Press(name, now), now) is not None
            for name in ("seat2", "seat3")
        }
        assert shown == {"seat2": failing != "seat2", "seat3": True}
    # Once for each table the answers are worked out for: how many, the loop's pace decides.
    failed = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert {r.getMessage() for r in failed} == {f"working out the answer to {failing} failed"}
    assert all(r.exc_info is not None for r in failed)
