"""The table on a kernel GPIO chip, installed as docs/deploy.md says and run by systemd under
its sandbox: every press made by the test side through the kernel (tests/boot/pins.py),
every light and the motor read back from it, the launcher's beam driven by a model of its
mechanics (tests/boot/launcher_model.py), the SLAP race ranked by the kernel's edge times."""

from __future__ import annotations

import itertools
import json
import shlex
from functools import partial
from pathlib import Path

import pytest

from .guest_pins import CPU
from .guest_table import TABLE
from .launcher_model import LauncherModel
from .machine import Machine
from .pins import GUEST_TOOL, PRESSED, RELEASED, Pins, line
from .test_boot import MAIN_PID, restarted, restarts, start_table
from .watch import TableWatch

pytestmark = pytest.mark.timeout(1800)

CONFIG = "/etc/flashtable/flashtable.toml"
STARTED = "ExecMainStartTimestampMonotonic"  # the main process's start, in µs
KILLED = "/run/flashtable-killed.json"  # when the pin tool killed the daemon
SEATS = range(1, 7)
HELD_US = 80_000  # a press held long enough for the table's debounce


def seat_everyone(pins: Pins, watch: TableWatch, seats=SEATS, seated=()) -> None:
    """Each seat's button pressed in turn; each claim seen, and its light on, read back,
    beside those of the seats `seated` before; the other seats' lights off."""
    mark = watch.mark()
    steps = []
    for seat in seats:
        steps += [(HELD_US, f"seat{seat}", PRESSED), (HELD_US, f"seat{seat}", RELEASED)]
    pins.drive(steps)
    watch.until(
        lambda: {e["seat"] for e in watch.events("seat_claimed", mark)} == set(seats),
        f"seats {list(seats)} claimed",
    )
    lit = pins.read(*(f"seat{seat}.light" for seat in SEATS))
    assert lit == {f"seat{s}.light": int(s in (*seats, *seated)) for s in SEATS}, lit


def start_round(pins: Pins, watch: TableWatch) -> int:
    """Play/Pause pressed: the round starts; the first seat lit."""
    mark = watch.mark()
    pins.tap("play_pause")
    watch.event("round_started", after=mark)
    return int(watch.event("turn_started", after=mark)["seat"])


def slap_race(pins: Pins, watch: TableWatch, slapper: int, gaps_us: list[float]) -> dict:
    """The lit `slapper` presses SLAP, then the other seats press in seat order, each
    `gaps_us` after the one before (the first 150 ms after the SLAP): the race's result,
    and the guest's times of the presses."""
    racers = [seat for seat in SEATS if seat != slapper]
    assert len(gaps_us) == len(racers) - 1
    mark = watch.mark()
    steps = [
        (0, "slap", PRESSED),
        (HELD_US, "slap", RELEASED),
        (70_000, f"seat{racers[0]}", PRESSED),
    ]
    for seat, gap in zip(racers[1:], gaps_us, strict=True):
        steps.append((gap, f"seat{seat}", PRESSED))
    steps += [(HELD_US, f"seat{racers[0]}", RELEASED)]
    steps += [(0, f"seat{seat}", RELEASED) for seat in racers[1:]]
    at = pins.drive(steps)
    started = watch.event("slap_started", after=mark)
    assert started["seat"] == slapper
    result = watch.event("slap_result", after=mark)
    return {
        "result": result,
        "racers": racers,
        "slap_at": at[0],
        "press_at": at[2 : 2 + len(racers)],
    }


def assert_ranked_by_edges(race: dict) -> None:
    """The race's order follows the presses: every pair surely more than the tie's
    millisecond apart in the order they were pressed; each reaction time the press's own,
    to the ms; none earlier than an earlier press's. A press's edge lies between the guest's
    clock before its write and after it."""
    order = race["result"]["order"]
    ranked = [place["seat"] for place in order]
    ms = {place["seat"]: place["ms"] for place in order}
    presses = dict(zip(race["racers"], race["press_at"], strict=True))
    slap_before, slap_after = race["slap_at"]
    for seat, (before, after) in presses.items():
        low, high = (before - slap_after) / 1e6, (after - slap_before) / 1e6
        assert ms[seat] is not None and low - 0.5 <= ms[seat] <= high + 0.5, (
            seat,
            low,
            high,
            order,
        )
    for first in race["racers"]:
        for second in race["racers"]:
            surely_apart = (presses[second][0] - presses[first][1]) / 1e6
            if surely_apart > 1.0:
                assert ranked.index(first) < ranked.index(second), (first, second, order)
    reactions = [ms[seat] for seat in race["racers"]]
    assert reactions == sorted(reactions), order  # never reversed, ties included


def wakeups(machine: Machine, window: float) -> float:
    """The daemon's threads' context switches a second over `window` seconds of the guest's
    clock: how often anything in it wakes."""
    count = (
        f"cat /proc/{MAIN_PID}/task/*/status | awk '/ctxt_switches/ {{n += $2}} END {{print n}}'"
    )
    script = (
        f"a=$({count}); s=$(cut -d' ' -f1 /proc/uptime); sleep {window};"
        f" b=$({count}); e=$(cut -d' ' -f1 /proc/uptime); echo $a $b $s $e"
    )
    before, after, start, end = map(float, machine.run(script).out.split())
    return (after - before) / (end - start)


def test_a_round_on_the_kernel_chip_seats_turns_times_out_deals_and_races(
    machine: Machine, broker, figure
):
    """Table mode: six seats claimed, turns ended by their buttons, a timeout whose penalty
    the launcher deals card by card through the beam, and a SLAP race. Seated, lights
    steady, waiting for the round: nothing in the daemon polls the pins or plays a PWM wave
    at duty 0 or 1; its threads wake a few times a second at most (the watchdog's ping, the
    broker's keepalive), not thousands."""
    pins = Pins(machine)
    launcher = LauncherModel(machine)
    with TableWatch(broker, TABLE) as watch:
        start_table(machine)
        watch.online()
        mark = watch.mark()
        # No turn timer while the turns are ended by their buttons: a loaded host's press
        # never races the time.
        watch.set_settings(turn_timer="off", timeout_penalty=2, slap_penalty=1)
        watch.wait_for("settings", lambda m: m.json["turn_timer"] == "off", after=mark)
        seat_everyone(pins, watch)
        idle = wakeups(machine, 10)
        seat = start_round(pins, watch)
        # The lit seat's light pulses: PWM on the kernel's line, neither off nor steady.
        pins.wait_level(f"seat{seat}.light", lambda level: 0 < level < 1, "a pulsing light")
        for turn in range(3):
            if turn == 2:  # the next turn has a timer, long enough for the SLAP after it
                mark = watch.mark()
                watch.set_settings(turn_timer=20)
                watch.wait_for("settings", lambda m: m.json["turn_timer"] == 20, after=mark)
            mark = watch.mark()
            pins.tap(f"seat{seat}")
            ended = watch.event("turn_ended", after=mark)
            assert ended["seat"] == seat
            seat = int(watch.event("turn_started", after=mark)["seat"])
        # Nobody presses: the time runs out and the launcher deals the penalty.
        dealing = watch.mark()
        timeout = watch.event("timeout", after=dealing)
        assert timeout["seat"] == seat
        dealt = watch.event("dispense", after=dealing)
        assert (dealt["cards"], dealt["reason"]) == (2, "timeout")
        seat = int(watch.event("turn_started", after=dealing)["seat"])
        race = slap_race(pins, watch, seat, [1500, 3000, 2000, 5000])
        assert_ranked_by_edges(race)
        assert race["result"]["slowest"] == [race["racers"][-1]], race["result"]
        # Paused at the next turn (the turns' timeouts deal on meanwhile, on a slow machine):
        # every card asked of the launcher came through the beam, each counted once.
        mark = watch.mark()
        watch.event("turn_started", after=mark)
        pins.tap("play_pause")
        watch.wait_for(
            "state",
            lambda m: m.json["paused"] and (m.json["owed"], m.json["launcher"]) == (0, "idle"),
            after=mark,
        )
        asked = watch.events("dispense", dealing)
        assert {"timeout", "slap"} <= {d["reason"] for d in asked}, asked
        cards = sum(d["cards"] for d in asked)
        watch.until(lambda: len(watch.events("card_out", dealing)) >= cards, f"{cards} cards out")
        assert len(watch.events("card_out", dealing)) == cards == launcher.cards_out(), asked
    launcher.stop()
    figure(f"the daemon seated and waiting on the chip: {idle:.1f} wakeups a second")
    assert idle < 20, idle
    figure(f"SLAP race on the chip, reaction times: {race['result']['order']}")


def close_pairs_said_as_ties(race: dict) -> int:
    """Presses one after the other surely within the tie's millisecond are both marked as
    a tie; a place marked as a tie has a press that may lie within it. How many such pairs
    the race had."""
    tie = {place["seat"]: place["tie"] for place in race["result"]["order"]}
    at = dict(zip(race["racers"], race["press_at"], strict=True))
    close = 0
    for first, second in itertools.pairwise(race["racers"]):
        if (at[second][1] - at[first][0]) / 1e6 < 1.0:
            assert tie[first] and tie[second], (first, second, race)
            close += 1
    for seat, marked in tie.items():
        # Each edge lies within its write's [before, after]: a write that returned late (a
        # loaded guest) leaves its edge anywhere in there.
        near = [
            o
            for o in at
            if o != seat
            and (at[o][0] - at[seat][1]) / 1e6 <= 1.5
            and (at[seat][0] - at[o][1]) / 1e6 <= 1.5
        ]
        assert not marked or near, (seat, race)
    return close


def test_a_slap_race_is_ranked_by_the_kernels_edge_times_down_to_50_microseconds(
    machine: Machine, broker
):
    """Presses 50 µs to 5 ms apart, in a known order: the order is the presses', the close
    ones marked as ties, and no reaction time comes before an earlier press's."""
    pins = Pins(machine)
    with TableWatch(broker, TABLE) as watch:
        start_table(machine)
        watch.online()
        mark = watch.mark()
        watch.set_settings(mode="flash", turn_timer="off", slap_window=1)
        watch.wait_for("settings", lambda m: m.json["mode"] == "flash", after=mark)
        seat_everyone(pins, watch)
        seat = start_round(pins, watch)
        close = 0
        gap_sets = [[50, 100, 5000, 200], [1000, 50, 2500, 80], [300, 4000, 60, 1200]] * 3
        for races, gaps in enumerate(gap_sets, 1):
            race = slap_race(pins, watch, seat, gaps)
            assert_ranked_by_edges(race)
            close += close_pairs_said_as_ties(race)
            mark = watch.mark()
            seat = int(watch.event("turn_started", after=mark)["seat"])
            if races >= 3 and close:
                break
        # The test side made presses closer than the tie's millisecond, as it was asked.
        assert close, "no two presses came within a millisecond of each other"


def test_a_dispense_is_counted_exactly_from_the_beam_through_a_jam(machine: Machine, broker):
    """Six cards asked; the launcher jams after three: the motor stops, the table says so,
    and after the slot is cleared and OK pressed it deals the three still owed, no more."""
    pins = Pins(machine)
    launcher = LauncherModel(machine, jam_after=3)
    with TableWatch(broker, TABLE) as watch:
        start_table(machine)
        watch.online()
        mark = watch.mark()
        watch.command(action="dispense", cards=6)
        fault = watch.event("launcher_fault", after=mark)
        assert (fault["fault"], fault["owed"]) == ("jam", 3)
        assert len(watch.events("card_out", mark)) == 3
        # Stopped on the kernel's line: the motor is low, and no card comes.
        assert pins.read("launcher.motor.forward") == {"launcher.motor.forward": 0}
        assert launcher.cards_out() == 3
        launcher.clear()
        mark = watch.mark()
        pins.tap("encoder.push")
        assert watch.event("launcher_resumed", after=mark)["owed"] == 3
        state = watch.wait_for(
            "state", lambda m: (m.json["owed"], m.json["launcher"]) == (0, "idle"), after=mark
        ).json
        assert state["cards_dispensed"] == 6
        assert launcher.wait(lambda s: s["out"] >= 6, "6 cards")["out"] == 6
        assert pins.read("launcher.motor.forward") == {"launcher.motor.forward": 0}
    launcher.stop()


def test_a_daemon_killed_with_the_motor_running_has_its_line_driven_low_and_deals_no_card_twice(
    machine: Machine, broker, figure
):
    """SIGKILL while the motor's line is high: the line keeps its level, as a Pi's does, until
    outputs-off drives it low, before systemd starts the table again; the new daemon deals
    what the first had not, and every card it deals is one the launcher put out after that:
    none dealt twice."""
    # A card every 300 ms, in the beam for half of it: the beam's edges 150 ms apart, as
    # far from the table's jam time (0.8 s without an edge while the motor runs) as a real
    # launcher's. The hopper holds what the motor puts out until outputs-off, tens of
    # seconds on a loaded host.
    launcher = LauncherModel(machine, cards=1000, card_ms=300, block_ms=150)
    with TableWatch(broker, TABLE) as watch:
        start_table(machine)
        watch.online()
        before = restarts(machine)
        cursor = machine.cursor()
        # Killed in the guest once 2 cards are out, while the line is high: what brings it
        # low after that is outputs-off.
        forward = line("launcher.motor.forward")
        machine.run(
            f"nohup python3 {GUEST_TOOL} kill-high {MAIN_PID} gpiochip0 {forward}"
            f" {launcher.count_file} 2 >{KILLED} 2>&1 &"
        )
        watch.command(action="dispense", cards=6)
        # Killed, or the launcher stopped (a fault: the motor's line never rises again).
        stopped = f"journalctl -q -u flashtable --after-cursor={shlex.quote(cursor)}"
        machine.wait_until(f"test -s {KILLED} || {stopped} | grep -q 'launcher stopped: '")
        assert machine.run(f"test -s {KILLED}", check=False).rc == 0, (
            machine.journal(after=cursor),
            launcher.state(),
        )
        killed_at = int(json.loads(machine.run(f"cat {KILLED}").out)["killed_at"])
        mark = watch.mark()
        machine.wait_until(restarted(before))
        started = int(machine.run(f"systemctl show -P {STARTED} flashtable").out)
        journal = machine.journal(after=cursor)
        assert "Main process exited, code=killed, status=9/KILL" in journal, journal
        assert "outputs off: launcher.motor.forward" in journal, journal
        # Low again after the kill, before the new daemon started: outputs-off's doing.
        motor = launcher.state()["motor"]
        lows = [at for at, level in motor if level == 0 and at >= killed_at]
        assert lows and lows[0] < started * 1000, (motor, killed_at, started, journal)
        low_at = lows[0]
        online = watch.came_online(after=mark)
        # Dealt (idle: nothing owed), or stopped by a fault, which the wait ends on at once.
        state = watch.wait_for(
            "state", lambda m: m.json["launcher"] in ("idle", "jam", "empty"), after=online
        ).json
        assert (state["owed"], state["launcher"]) == (0, "idle"), (state, launcher.state())
        # What the new daemon owed as it started, by its first card: on a slow guest it deals
        # before its broker's connection is up (its events wait for it), so its first state
        # on the broker may come after cards, and its last card's event after its state.
        dealt = state["cards_dispensed"]
        watch.until(lambda: len(watch.events("card_out", mark)) >= dealt, f"{dealt} cards out")
        outs = watch.events("card_out", mark)
        owed = outs[0]["owed"] + 1 if outs else 0
        model = launcher.wait(lambda s: True, "")
        # The new daemon's cards are those out after its motor's first run, by the model's
        # count of cards (not the beam's edges: opening the beam's line with its pull-up moves
        # a clear beam's level until the model drives it again). Those out before it left
        # while the line was high after the kill and in the roller's run-on after it fell. A
        # card the kill left in the slot leaves in that run, and is the new daemon's: a card in
        # the beam as a dispense starts counts when it leaves (docs/state.md).
        runs = [(at, out) for at, out in model["runs"] if at > low_at]
        assert runs, (model, low_at)
        out_at_run = runs[0][1]
        assert state["cards_dispensed"] == owed == len(outs) == model["out"] - out_at_run, (
            state,
            outs,
            model,
            low_at,
        )
    launcher.stop()
    flew = out_at_run - (6 - owed)
    figure(
        f"SIGKILL to the motor's line low (outputs-off): {(low_at - killed_at) / 1e9:.1f} s;"
        f" {flew} card(s) out meanwhile, counted by no one"
    )


STALL_TOOL = Path(__file__).with_name("guest_stall.py")
GUEST_STALL = "/run/flashtable-stall.py"
TABLE_PYTHON = "/opt/flashtable/current/bin/python"


def test_a_stalled_loop_on_the_chip_lets_no_card_past_the_count(machine: Machine):
    """The table's own launcher on the chip, run by the installed table's Python (the daemon
    stopped), its event loop stalled for 2 s once all but one of the cards asked are counted:
    the beam's edges reach the ejector's gate on the pins' own thread, which stops the motor
    as the card beyond the count reaches the beam. The motor's lease alone would stop it a
    quarter of a second after the loop's last attention, a card too late at this
    launcher's pace."""
    # A card every 200 ms, in the beam for 150 of them (60 let the fourth card of three out:
    # the gate's stop from a busy guest's pins' thread came after the model's run-on). The
    # lease, 0.25 s after the count before the stall, comes after the next card has gone.
    launcher = LauncherModel(machine, card_ms=200, block_ms=150)
    machine.write(GUEST_STALL, STALL_TOOL.read_text(encoding="utf-8"))
    for cards in (3, 5):
        before = launcher.cards_out()
        spec = {
            "chip": "gpiochip0",
            "forward": line("launcher.motor.forward"),
            "backward": line("launcher.motor.backward"),
            "beam": line("launcher.beam"),
            "cards": cards,
            "at_card": cards - 1,
            "stall": 2.0,
        }
        # On the launcher model's CPU, as the daemon is (tests/boot/launcher_model.py).
        done = machine.run(
            f"taskset -c {CPU} {TABLE_PYTHON} {GUEST_STALL} {shlex.quote(json.dumps(spec))}"
        )
        result = json.loads(done.out.strip().splitlines()[-1])
        out = launcher.cards_out() - before
        assert result["stalled"] and result["halts"] == ["done"], result
        assert (result["counted"], out) == (cards, cards), (result, out)
    launcher.stop()


def test_on_a_board_of_two_chips_the_table_finds_the_pis_or_the_one_named(machine: Machine, broker):
    """A Pi 5 on an older kernel: the RP1's controller is not the first chip, and the table
    finds it by its label with nothing named. A board that is no Pi: the table says to name
    the chip, and plays on the one the config names."""
    with TableWatch(broker, TABLE) as watch:
        chips = Pins(machine).make_chips("gpio-brcmstb@107d508500:32", "pinctrl-rp1:54")
        rp1 = chips[1]["chip"]
        start_table(machine)
        watch.online()
        assert f"gpiod pins on {rp1} 'pinctrl-rp1' (54 lines)" in machine.journal()
        seat_everyone(Pins(machine, rp1), watch, seats=(1, 4))
        decoy = Pins(machine, chips[0]["chip"]).read("seat1.light", "seat4.light")
        assert decoy == {"seat1.light": 0, "seat4.light": 0}

        machine.run("systemctl stop flashtable")
        chips = Pins(machine).make_chips("gpio-sim-a:32", "gpio-sim-b:32")
        assert machine.run("systemctl start flashtable", check=False).rc != 0
        machine.wait_until("systemctl is-failed -q flashtable")
        assert "name the table's chip in [gpio] chip" in machine.journal(lines=20)
        machine.run(f"printf '\\n[gpio]\\nchip = \"gpio-sim-b\"\\n' >> {CONFIG}")
        machine.run("systemctl reset-failed flashtable")
        mark = watch.mark()
        start_table(machine)
        watch.online(after=mark)
        # The seats claimed on the RP1 are the table's still: lit on the chip it now drives.
        seat_everyone(Pins(machine, chips[1]["chip"]), watch, seats=(2,), seated=(1, 4))


def test_the_encoder_turned_fast_loses_and_reverses_no_detent(machine: Machine, broker):
    """Quadrature edges 1 ms apart: the turn timer, edited in the menu, moves by exactly the
    detents turned, each way."""
    pins = Pins(machine)

    def turn(detents: int, edge_us: float) -> None:
        a, b = ("encoder.a", "encoder.b") if detents > 0 else ("encoder.b", "encoder.a")
        steps = []
        for _ in range(abs(detents)):
            steps += [(edge_us, a, PRESSED), (edge_us, b, PRESSED)]
            steps += [(edge_us, a, RELEASED), (edge_us, b, RELEASED)]
        pins.drive(steps)

    def push() -> None:
        pins.tap("encoder.push")

    def timers(after: int) -> list[int]:
        """The turn timer's values, as the menu set them since `after`."""
        changes = [e["changes"] for e in watch.events("settings_changed", after)]
        return [c["turn_timer"] for c in changes if "turn_timer" in c]

    def reaches(after: int, value: int) -> bool:
        return value in timers(after)

    with TableWatch(broker, TABLE) as watch:
        start_table(machine)
        watch.online()
        seat_everyone(pins, watch, seats=(1, 2))
        turn(1, 30_000)  # opens the menu, on Start
        turn(2, 30_000)  # Mode, Turn timer
        # The menu sets the timer as it turns, a step a detent. The last turn, slow, comes
        # after every edge of the fast ones: a detent counted late would show before its own.
        timer = 6
        for detents, edge_us in ((12, 1000), (-9, 1000), (5, 1000), (1, 30_000)):
            mark = watch.mark()
            push()  # edit the turn timer
            turn(detents, edge_us)
            push()  # and keep it
            expected = timer + detents
            watch.until(partial(reaches, mark, expected), f"the turn timer at {expected}")
            seen = [timer, *timers(mark)]
            way = 1 if detents > 0 else -1
            steps = [(after - before) * way for before, after in itertools.pairwise(seen)]
            assert seen[-1] == expected and all(step > 0 for step in steps), (detents, seen)
            timer = expected
