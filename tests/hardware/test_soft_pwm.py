"""Software PWM runs a thread only while some duty is strictly between 0 and 1: a light off
or steadily on is one write and nothing after it."""

import itertools
import threading
import time

from hardware.soft_pwm import SoftPWM


class Line:
    def __init__(self) -> None:
        self.writes: list[bool] = []
        self.changed = threading.Condition()

    def __call__(self, level: bool) -> None:
        with self.changed:
            self.writes.append(level)
            self.changed.notify_all()

    def wait_writes(self, count: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.writes) >= count, 60), self.writes


def wait_stopped(pwm: SoftPWM) -> None:
    deadline = time.monotonic() + 60
    while pwm.running:
        assert time.monotonic() < deadline, "the PWM thread did not end"
        time.sleep(0.001)


def test_off_and_fully_on_are_one_write_and_no_thread():
    pwm, line = SoftPWM(), Line()
    pwm.set("light", line, 100, 0.0)
    pwm.set("light", line, 100, 1.0)
    assert line.writes == [False, True]
    assert not pwm.running
    assert not [t for t in threading.enumerate() if t.name == "soft-pwm"]


def test_a_duty_in_between_toggles_the_line_until_it_is_steady_again():
    pwm, line = SoftPWM(), Line()
    pwm.set("light", line, 1000, 0.5)
    assert pwm.running
    line.wait_writes(20)
    assert all(a != b for a, b in zip(line.writes, line.writes[1:], strict=False))
    pwm.set("light", line, 1000, 0.0)
    wait_stopped(pwm)
    count = len(line.writes)
    assert line.writes[-1] is False
    time.sleep(0.01)
    assert len(line.writes) == count  # no edge of the wave after the steady level


def test_the_thread_serves_every_wave_and_ends_with_the_last():
    pwm, first, second = SoftPWM(), Line(), Line()
    pwm.set("a", first, 500, 0.3)
    pwm.set("b", second, 700, 0.6)
    first.wait_writes(10)
    second.wait_writes(10)
    pwm.stop("a")
    assert pwm.running
    pwm.set("b", second, 700, 1.0)
    wait_stopped(pwm)
    assert second.writes[-1] is True


def test_waves_of_one_frequency_and_duty_change_together_in_one_wakeup():
    """Five dim lights, set a few milliseconds apart: their cycles start on one grid, so once
    each has had its first pulse, each wakeup of the thread writes all five edges or none, not
    one wakeup for each light. (A light set while the others are high rises at the next
    wakeup, their fall, and its first pulse ends alone: a pulse is whole from its rise.)"""
    pwm = SoftPWM()
    writes: list[tuple[int, str, bool]] = []
    enough = threading.Event()

    def line(name: str):
        def write(level: bool) -> None:
            writes.append((pwm.wakes, name, level))
            if len(writes) >= 200:
                enough.set()

        return write

    lights = [f"seat{n}" for n in range(1, 6)]
    for name in lights:
        pwm.set(name, line(name), 100, 0.15)
        time.sleep(0.003)
    assert enough.wait(60)
    for name in lights:
        pwm.stop(name)
    wait_stopped(pwm)
    by_wake: dict[int, list[tuple[str, bool]]] = {}
    seen = writes[:200]
    # The wakeup in which the last of the lights' first pulses ended.
    all_set = max(next(w for w, n, level in seen if n == name and not level) for name in lights)
    for wake, name, level in seen:
        if all_set < wake < seen[-1][0]:  # the wakeups seen whole
            by_wake.setdefault(wake, []).append((name, level))
    assert len(by_wake) > 10
    for wake, edges in by_wake.items():
        assert sorted(name for name, _ in edges) == lights, (wake, edges)
        assert len({level for _, level in edges}) == 1, (wake, edges)


def test_a_late_wakeup_makes_a_whole_pulse_later_never_none():
    """The thread wakes 2 ms after every edge it slept for (a busy CPU, another thread
    holding the GIL): a dim light's 1.5 ms pulse at 100 Hz still rises in every period and
    stays high its whole time, as a buzzer's quiet tone does, rather than its high window
    passing while the thread slept."""
    now = [0]
    late_ns = 2_000_000
    writes: list[tuple[int, bool]] = []
    done = threading.Event()

    def sleep(seconds: float) -> None:
        now[0] += round(seconds * 1e9) + late_ns
        if now[0] >= 1_000_000_000:
            pwm.stop("light")
            done.set()

    pwm = SoftPWM(clock=lambda: now[0], sleep=sleep)
    pwm.set("light", lambda level: writes.append((now[0], level)), 100, 0.15)
    assert done.wait(60)
    wait_stopped(pwm)
    rises = [at for at, level in writes if level]
    highs = [fall - rise for (rise, up), (fall, _) in itertools.pairwise(writes) if up]
    assert len(rises) >= 95, writes[:10]  # one a period, the last second's
    assert all(high >= 1_500_000 for high in highs), highs
    assert all(a != b for (_, a), (_, b) in itertools.pairwise(writes))
