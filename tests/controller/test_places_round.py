"""Rounds for places (finish = places) and the evening's standings on the simulated table: the
real daemon, its LCD, lights and menu, in virtual time."""

import random

from controller.config import Config
from controller.game.holds import WIN_HOLD
from controller.settings import Settings
from controller.simulation.table import SimTable

from .test_menu import back, goto, lcd, push

SEATS = (1, 2, 3, 4)
PLACES = {"finish": "places", "turn_timer": 6, "sleep_time": "off", "mode": "flash"}


def config(**settings) -> Config:
    return Config(settings=Settings({**PLACES, **settings}))


async def seat_and_start(table: SimTable, *seats: int) -> None:
    for seat in seats:
        await table.tap(f"seat{seat}")
    await table.tap("play_pause")


async def go_out(table: SimTable, seat: int) -> None:
    await table.hold(f"seat{seat}", WIN_HOLD + 0.2)


def places(table: SimTable) -> tuple[int, ...]:
    return table.daemon.table.places


def turns_never_reached_a_player_out(table: SimTable) -> None:
    """Read in order: every turn started went to a player not out at that moment."""
    out: set[int] = set()
    for event in table.events:
        if event.type == "place_taken":
            out.add(event.data["seat"])
        elif event.type == "player_back":
            out.discard(event.data["seat"])
        elif event.type == "round_started":
            out.clear()
        elif event.type == "turn_started":
            assert event.data["seat"] not in out, event


async def test_four_players_play_until_every_place_is_taken():
    rng = random.Random(7)
    async with SimTable(config(), seed=7) as table:
        await seat_and_start(table, *SEATS)
        named = []
        while table.daemon.table.phase.value != "round_over":
            [lit] = table.lit()
            in_play = sorted(set(SEATS) - set(places(table)))
            if rng.random() < 0.2:
                leaving = rng.choice(in_play)
                await go_out(table, leaving)
                if table.daemon.table.phase.value == "round_over":
                    break
                place = len(places(table))
                named.append(table.lcd[0])
                assert table.lcd[0] == f"Seat {leaving} {('1st', '2nd', '3rd')[place - 1]} place"
                for seat in places(table):
                    assert table.light(seat) == "on"
            else:
                await table.advance(rng.uniform(0.2, 2.0))
                await table.tap(f"seat{lit}")
            assert len(table.lit()) == 1 and table.lit()[0] not in places(table)
        assert len(named) == 2  # the third one out ends the round with the last one left
        taken = [(e.data["seat"], e.data["place"]) for e in table.events_of("place_taken")]
        assert [place for _, place in taken] == [1, 2, 3, 4]
        [over] = table.events_of("round_over")
        assert over.data["places"] == [seat for seat, _ in taken]
        assert over.data["winner"] == taken[0][0]
        assert sorted(over.data["places"]) == list(SEATS)
        assert table.lcd == ("Round over!     ", f"Seat {taken[0][0]} wins!    ")
        turns_never_reached_a_player_out(table)


async def test_a_slap_race_with_two_players_out_is_raced_by_the_two_still_in():
    async with SimTable(config(slap_window=3, slap_penalty=2), seed=3) as table:
        await seat_and_start(table, *SEATS)
        [lit] = table.lit()
        gone = [seat for seat in SEATS if seat != lit][:2]
        for seat in gone:
            await go_out(table, seat)
        [slapper] = table.lit()
        [racer] = [seat for seat in SEATS if seat not in (*gone, slapper)]
        await table.tap("slap")
        assert table.lcd == ("SLAP!           ", "Hit your button!")
        assert table.events_of("slap_started")[-1].data["racers"] == [racer]
        assert [table.light(seat) for seat in gone] == ["on", "on"]
        assert table.light(racer) == "blink"
        for seat in gone:
            await table.tap(f"seat{seat}")  # out: no race press
        await table.advance(0.3)
        await table.tap(f"seat{racer}")
        await table.advance(3.0)
        result = table.events_of("slap_result")[-1].data
        assert [place["seat"] for place in result["order"]] == [racer]
        assert result["slowest"] == [racer]
        assert {e.data["seat"] for e in table.events_of("penalty")} == {racer}
        await table.advance(4.0)
        assert table.lit() in ([slapper], [racer])


async def test_a_player_out_by_mistake_is_brought_back_from_the_menu_after_a_question():
    async with SimTable(config(), seed=5) as table:
        await seat_and_start(table, *SEATS)
        [lit] = table.lit()
        first, second = [seat for seat in SEATS if seat != lit][:2]
        await go_out(table, first)
        await go_out(table, second)
        await goto(table, "Bring back")
        await push(table)
        assert lcd(table) == (f"→Seat {first} (1st)", "out by mistake?")
        await table.turn(1)
        assert lcd(table) == (f"→Seat {second} (2nd)", "out by mistake?")
        await push(table)
        assert lcd(table) == (f"Seat {second} back in?", "push=yes hold=no")
        await back(table)  # no: nothing changes
        assert places(table) == (first, second)
        await push(table)
        await push(table)  # yes
        assert places(table) == (first,)
        assert table.events_of("player_back")[-1].data == {"seat": second, "places": [first]}
        await back(table)
        await back(table)  # the menu closes and the turn goes on
        assert not table.daemon.panel.is_open
        assert table.light(second) in ("dim", "pulse", "blink", "blink_fast")
        for _ in range(40):
            [lit] = table.lit()
            await table.tap(f"seat{lit}")
        turns_never_reached_a_player_out(table)
        started = [e.data["seat"] for e in table.events_of("turn_started")]
        assert second in started[-40:]


async def test_the_standings_after_three_rounds_match_the_rounds_and_survive_a_restart(tmp_path):
    finished: list[list[int]] = []
    async with SimTable(config(), seed=2, state_dir=tmp_path) as table:
        await seat_and_start(table, *SEATS)
        for round_number in range(3):
            if round_number:
                await table.tap("play_pause")  # a new round, the same seats
            order = [*SEATS[round_number:], *SEATS[:round_number]]
            for seat in order[:-1]:
                await go_out(table, seat)
            assert table.events_of("round_over")[-1].data["places"] == order
            finished.append(order)
        reported = table.events_of("round_over")[-1].data["standings"]
    expected = {
        seat: {
            "rounds": 3,
            "wins": sum(order[0] == seat for order in finished),
            "average_place": round(sum(order.index(seat) + 1 for order in finished) / 3, 2),
        }
        for seat in SEATS
    }
    assert reported["rounds"] == 3
    assert {e["seat"]: {k: e[k] for k in expected[1]} for e in reported["seats"]} == expected
    async with SimTable(config(), seed=2, state_dir=tmp_path) as table:
        standings = table.daemon.table.standings
        assert standings.rounds == 3
        assert {
            seat: {
                "rounds": s.rounds,
                "wins": s.wins,
                "average_place": round(s.average_place, 2),
            }
            for seat, s in standings.seats.items()
        } == expected
        await goto(table, "Standings")
        await push(table)
        # The score to 500 first, kept across the restart too: the last round's points wait.
        assert lcd(table) == ("Card points    0", "3 to enter")
        await goto(table, "Standings after")
        assert lcd(table) == ("Standings after", "3 rounds")
        await table.turn(1)
        assert lcd(table)[0] == "Seat 1  3 rounds"


async def test_reset_standings_asks_first():
    async with SimTable(config(), seed=4) as table:
        await seat_and_start(table, 1, 2)
        await go_out(table, 1)
        assert table.daemon.table.standings.rounds == 1
        await goto(table, "Standings")
        await push(table)
        await goto(table, "Reset standings")
        assert lcd(table) == ("→Reset standings", "start over")
        await push(table)
        assert lcd(table) == ("Reset standings?", "push=yes hold=no")
        await back(table)
        assert table.daemon.table.standings.rounds == 1
        assert table.events_of("standings_reset") == []
        await push(table)
        await push(table)
        assert table.daemon.table.standings.rounds == 0
        assert table.events_of("standings_reset")[-1].data == {"reason": "menu"}
        await goto(table, "Standings: none")
        assert lcd(table) == ("Standings: none", "play a round")


async def test_with_finish_first_the_first_out_wins_as_before():
    async with SimTable(config(finish="first"), seed=4) as table:
        await seat_and_start(table, 1, 2, 3)
        [lit] = table.lit()
        await go_out(table, lit)
        assert table.events_of("place_taken") == []
        [over] = table.events_of("round_over")
        assert (over.data["winner"], over.data["places"]) == (lit, [])
        assert table.lcd == ("Round over!     ", f"Seat {lit} wins!    ")
