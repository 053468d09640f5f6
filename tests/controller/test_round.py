"""A whole round on the simulated table: four seats, turns, a timeout, a SLAP race, the round's
end and its summary, checking the lights and the LCD at every step."""

from controller.config import Config
from controller.game import replay
from controller.settings import Settings
from controller.simulation.table import SimTable

SEATS = (1, 2, 3, 4)
SETTINGS = Settings({"turn_timer": 4})


def lit_and_dim(table: SimTable, lit: int) -> None:
    """`lit` pulses (blinks a moment when picked twice running); the other seated players
    are dim; the stations nobody took are dark."""
    turn = table.daemon.table.turn
    shows = "blink" if turn is not None and turn.again else "pulse"
    for seat, pattern in table.lights.items():
        expected = shows if seat == lit else ("dim" if seat in SEATS else "off")
        assert pattern == expected, (seat, pattern)


async def test_a_whole_round_with_four_seats():
    async with SimTable(Config(settings=SETTINGS), seed=11) as table:
        # Seating.
        for seat in SEATS:
            await table.tap(f"seat{seat}")
        assert table.lcd == ("Table   timer 4s", "Seats 1 2 3 4   ")
        assert [table.light(s) for s in SEATS] == ["on"] * 4

        # The first pick.
        await table.tap("play_pause")
        [first] = table.lit()
        assert table.lcd == ("Table   timer 4s", f"Seat {first} turn   4s")
        lit_and_dim(table, first)

        # Two turns, each ended by the lit player's own button.
        for _ in range(2):
            [lit] = table.lit()
            await table.advance(1.0)
            assert table.lcd[1] == f"Seat {lit} turn   3s"
            await table.tap(f"seat{lit}")
            assert table.events_of("turn_ended")[-1].data["seat"] == lit
            [now_lit] = table.lit()
            lit_and_dim(table, now_lit)
            first_line = f"Seat {lit} again!" if now_lit == lit else "Table   timer 4s"
            assert table.lcd == (first_line.ljust(16), f"Seat {now_lit} turn   4s")

        # A timeout: fast blink in the last 2 s, then the penalty is named.
        [late] = table.lit()
        started = table.events_of("turn_started")[-1]
        await table.advance(2.0 - 0.12)
        assert table.light(late) == "blink_fast"
        assert table.lcd[1] == f"Seat {late} turn   2s"
        await table.advance(2.0)
        assert table.events_of("timeout")[-1].data == {"seat": late, "penalty": 2}
        assert table.events_of("penalty")[-1].data == {
            "seat": late,
            "cards": 2,
            "reason": "timeout",
        }
        assert table.lcd == (f"Seat {late} timeout!".ljust(16), "Draw 2 cards    ")
        assert table.light(late) == "flash"
        assert table.events_of("turn_started")[-1] is started
        await table.advance(2.5)
        [slapper] = table.lit()
        lit_and_dim(table, slapper)

        # A SLAP race: two racers press, one never does.
        await table.advance(0.5)
        await table.press("slap")
        slap_at = table.now
        assert table.lcd == ("SLAP!           ", "Hit your button!")
        racers = [s for s in SEATS if s != slapper]
        assert table.light(slapper) == "dim"
        assert [table.light(s) for s in racers] == ["blink"] * 3
        fast, slow, missing = racers[2], racers[0], racers[1]
        await table.advance(0.25)
        await table.press(f"seat{fast}")
        assert table.light(fast) == "on"
        await table.advance(0.162)
        await table.press(f"seat{slow}")
        await table.release("slap")
        await table.advance(0.2)
        for seat in (fast, slow):
            await table.release(f"seat{seat}")
        assert table.events_of("slap_result") == []
        await table.advance(slap_at + 3.0 - table.now)
        [result] = table.events_of("slap_result")
        assert [(p["seat"], p["ms"]) for p in result.data["order"]] == [
            (fast, 250),
            (slow, 412),
            (missing, None),
        ]
        assert table.events_of("penalty")[-1].data == {
            "seat": missing,
            "cards": 2,
            "reason": "slap",
        }
        assert table.lcd == (f"Slowest: Seat {missing}".ljust(16), "Draw 2 cards    ")
        assert table.light(missing) == "flash"
        await table.advance(2.0)
        assert table.lcd == (f"1. Seat {fast}  250ms", f"2. Seat {slow}  412ms")
        await table.advance(2.0)
        assert table.lcd == (f"3. Seat {missing} missed", " " * 16)
        await table.advance(2.0)
        [after_slap] = table.lit()
        lit_and_dim(table, after_slap)

        # The round's end: a seated player holds their button for 2 s.
        winner = next(s for s in SEATS if s != after_slap)
        await table.press(f"seat{winner}")
        await table.advance(1.9)
        assert table.lit() == [after_slap]
        await table.advance(0.1)
        assert table.lcd == ("Round over!     ", f"Seat {winner} wins!".ljust(16))
        assert table.light(winner) == "blink"
        assert table.lit() == []
        await table.release(f"seat{winner}")
        [over] = table.events_of("round_over")
        stats = {s["seat"]: s for s in over.data["seats"]}
        assert stats[late]["timeouts"] == 1
        assert stats[missing]["slaps_lost"] == 1
        assert sum(s["turns"] for s in stats.values()) == 4  # two ended, a timeout, a slap

        # The summary pages through the seats; each seat's light comes on with its screen.
        await table.advance(3.0)
        one = stats[1]
        turns = f"{one['turns']} turn" + ("" if one["turns"] == 1 else "s")
        assert table.lcd[0] == "Seat 1" + turns.rjust(10)
        assert table.light(1) == ("blink" if winner == 1 else "on")
        await table.advance(3.0)
        assert table.lcd[0] == "Seat 1    late " + str(one["timeouts"])

        # A new round keeps the seats.
        await table.tap("play_pause")
        assert len(table.lit()) == 1
        assert table.events_of("round_started")[-1].data["seats"] == list(SEATS)

        # The daemon's log replays to the very same table.
        daemon = table.daemon
        replayed, _ = replay(daemon.game_log, daemon.game_log.start, daemon.game_log.start_rng())
        assert replayed == daemon.table
