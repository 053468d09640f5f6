"""The rules engine, event by event, with no hardware and no waiting."""

import random

from controller.game import Phase, Press, Release, Stuck, Tick, new_table, next_wakeup, render, step
from controller.game.engine import STUCK_AFTER
from controller.game.turns import TIMEOUT_HOLD
from controller.settings import Settings

T0 = 100.0


def play(events, settings=None, stations=4, seed=0):
    """Feed events (each handled at its own time) and collect every effect."""
    table = new_table(Settings(settings or {}), stations)
    rng = random.Random(seed)
    effects = []
    for event in events:
        table, more = step(table, event, event.time, rng)
        effects += more
    return table, effects


def tap(name, at, hold=0.1):
    return [Press(name, at), Release(name, at + hold)]


def announced(effects, kind):
    return [e.data for e in effects if getattr(e, "type", None) == kind]


def started(seats=(1, 2, 3), settings=None, seed=0):
    # Taps: a seat button held for 8 s while seating would be stuck.
    events = [e for n, s in enumerate(seats) for e in tap(f"seat{s}", T0 + n)]
    events.append(Press("play_pause", T0 + 10))
    return play(events, settings, seed=seed)


def test_claim_and_release_seats():
    table, effects = play([Press("seat1", T0), Press("seat3", T0 + 1), Press("seat1", T0 + 2)])
    assert table.seated == {3}
    assert announced(effects, "seat_claimed") == [{"seat": 1}, {"seat": 3}]
    assert announced(effects, "seat_released") == [{"seat": 1}]
    assert [e.name for e in effects if hasattr(e, "name")] == ["join", "join", "leave"]


def test_a_station_that_is_not_fitted_is_ignored():
    table, _ = play([Press("seat7", T0)], stations=4)
    assert table.seated == frozenset()


def test_the_turn_timer_counts_from_the_press_edge():
    table, _ = started(settings={"turn_timer": 4})
    assert table.phase is Phase.TURN
    assert table.turn.started == T0 + 10
    assert table.turn.deadline == T0 + 14


def test_the_countdown_wakes_the_daemon_each_second_then_at_the_deadline():
    table, _ = started(settings={"turn_timer": 3})
    rng = random.Random(0)
    wakeups = []
    while table.phase is Phase.TURN:
        when = next_wakeup(table)
        wakeups.append(when - T0)
        table, _ = step(table, Tick(when), when, rng)
    assert wakeups == [11.0, 12.0, 13.0]
    assert table.phase is Phase.NOTICE


def test_ticks_sound_in_the_last_two_seconds_only():
    table, _ = started(settings={"turn_timer": 5})
    rng = random.Random(0)
    sounds = []
    for second in range(1, 5):
        table, effects = step(table, Tick(T0 + 10 + second), T0 + 10 + second, rng)
        sounds.append([e.name for e in effects if hasattr(e, "name")])
    assert sounds == [[], [], ["tick"], ["tick"]]


def test_timeout_shows_seat_and_penalty_then_picks_the_next_player():
    table, _ = started(settings={"turn_timer": 4, "timeout_penalty": 3})
    seat = table.turn.seat
    rng = random.Random(0)
    table, effects = step(table, Tick(T0 + 14), T0 + 14, rng)
    assert announced(effects, "timeout") == [{"seat": seat, "penalty": 3}]
    assert render(table).lines == (f"Seat {seat} timeout!", "Draw 3 cards")
    assert render(table).lights[seat - 1] == "flash"
    table, effects = step(table, Tick(T0 + 14 + TIMEOUT_HOLD), T0 + 14 + TIMEOUT_HOLD, rng)
    assert table.phase is Phase.TURN
    assert table.turn.started == T0 + 14 + TIMEOUT_HOLD
    assert announced(effects, "turn_started")


def test_a_press_before_the_deadline_wins_even_if_handled_after_it():
    table, _ = started(settings={"turn_timer": 4})
    seat = table.turn.seat
    rng = random.Random(0)
    # The edge was at 13.99 s; the daemon handles it at 14.01 s.
    table, effects = step(table, Press(f"seat{seat}", T0 + 13.99), T0 + 14.01, rng)
    assert announced(effects, "timeout") == []
    assert announced(effects, "turn_ended") == [{"seat": seat, "seconds": 3.99}]


def test_only_the_lit_seat_ends_the_turn():
    table, _ = started()
    other = next(s for s in (1, 2, 3) if s != table.turn.seat)
    after, effects = step(table, Press(f"seat{other}", T0 + 11), T0 + 11, random.Random(0))
    assert (after.turn.seat, after.turn.deadline) == (table.turn.seat, table.turn.deadline)
    assert effects == []


def test_penalty_words():
    for penalty, text in [(0, "No penalty"), (1, "Draw 1 card"), (2, "Draw 2 cards")]:
        table, _ = started(settings={"turn_timer": 2, "timeout_penalty": penalty})
        table, _ = step(table, Tick(T0 + 12), T0 + 12, random.Random(0))
        assert render(table).lines[1] == text


def test_pause_keeps_the_time_left_to_the_millisecond():
    # A pause this long would otherwise end in sleep (see test_rest.py).
    table, _ = started(settings={"turn_timer": 6, "sleep_time": "off"})
    rng = random.Random(0)
    table, _ = step(table, Press("play_pause", T0 + 12.345), T0 + 12.345, rng)
    assert table.phase is Phase.PAUSED
    assert render(table).lines[0] == "Paused"
    assert set(render(table).lights) <= {"dim", "off"}
    table, _ = step(table, Tick(T0 + 500), T0 + 500, rng)
    assert table.phase is Phase.PAUSED
    table, _ = step(table, Press("play_pause", T0 + 1000), T0 + 1000, rng)
    assert table.phase is Phase.TURN
    assert round(table.turn.deadline - (T0 + 1000), 6) == round(6 - 2.345, 6)


def test_stuck_at_power_on_is_not_seated_until_released():
    table, effects = play([Stuck("seat2", T0), Press("seat2", T0 + 1)])
    assert table.seated == frozenset()
    assert announced(effects, "button_stuck") == [{"input": "seat2"}]
    table, effects = step(table, Release("seat2", T0 + 2), T0 + 2, random.Random(0))
    assert announced(effects, "button_freed") == [{"input": "seat2"}]
    table, _ = step(table, Press("seat2", T0 + 3), T0 + 3, random.Random(0))
    assert table.seated == {2}


def test_held_while_seating_becomes_stuck_and_unseated():
    table, _ = play([Press("seat2", T0)])
    assert next_wakeup(table) == T0 + STUCK_AFTER
    table, effects = step(table, Tick(T0 + STUCK_AFTER), T0 + STUCK_AFTER, random.Random(0))
    assert announced(effects, "button_stuck") == [{"input": "seat2"}]
    assert table.seated == frozenset()
    assert table.stuck == {"seat2"}
    assert render(table).lines == ("Seat 2 button", "stuck: check it")


def test_start_with_fewer_than_two_is_refused():
    table, effects = play([Press("seat1", T0), Press("play_pause", T0 + 1)])
    assert table.phase is Phase.SEATING
    assert announced(effects, "start_refused") == [{"seated": 1}]
    assert render(table).lines[0] == "Need 2+ players"


def test_same_seed_same_game():
    first, _ = started(seed=42, settings={"turn_timer": 3})
    second, _ = started(seed=42, settings={"turn_timer": 3})
    assert first == second
