"""The engine's one timer: always exactly one wakeup pending for the time the engine asks."""

from controller.wakeup import Wakeup
from hardware.clock import VirtualClock


def test_a_late_handled_wakeup_never_leaves_two_timers():
    clock = VirtualClock(0.0)
    woke: list[float] = []
    wakeup = Wakeup(clock, 0.0, lambda: woke.append(clock.now()))
    wakeup.at(1.0)
    clock.run_next(1.0)  # it fires; the daemon has not handled it yet...
    wakeup.at(2.0)  # ...when an edge moves the wakeup on
    wakeup.fired()  # now the first wakeup is handled
    wakeup.at(2.0)  # and the engine still wants 2.0
    while clock.run_next(10.0):
        pass
    assert woke == [1.0, 2.0]


def test_moving_the_wakeup_cancels_the_old_time():
    clock = VirtualClock(0.0)
    woke: list[float] = []
    wakeup = Wakeup(clock, 0.5, lambda: woke.append(clock.now()))
    wakeup.at(1.0)
    wakeup.at(3.0)
    wakeup.at(None)
    wakeup.at(4.0)
    while clock.run_next(10.0):
        pass
    assert woke == [4.5]
