"""Seat lights: every pattern rendered by one animator from the clock, in virtual time, with
no thread per light and no wake-ups while nothing moves."""

import threading

import pytest

from hardware.animator import FRAME, Animator
from hardware.clock import VirtualClock
from hardware.outputs import Light
from hardware.patterns import DIM_LEVEL, Pattern

LIGHT_PINS = (5, 6, 12, 13)


@pytest.fixture
def lights(factory):
    animator = Animator(factory.clock)
    lights = [Light(pin, animator, pin_factory=factory) for pin in LIGHT_PINS]
    yield lights
    for light in lights:
        light.close()


def run_until(clock: VirtualClock, when: float) -> None:
    while clock.run_next(when):
        pass
    clock.set(when)


def levels(light: Light, clock: VirtualClock, seconds: float, step: float) -> list[float]:
    """The light's output level sampled in the middle of every `step` for `seconds`."""
    start, seen = clock.now(), []
    for n in range(round(seconds / step)):
        run_until(clock, start + (n + 0.5) * step)
        seen.append(round(light.pin.state, 3))
    run_until(clock, start + seconds)
    return seen


@pytest.mark.parametrize(
    ("pattern", "half"),
    [(Pattern.BLINK, 0.4), (Pattern.BLINK_FAST, 0.12), (Pattern.FLASH, 0.06)],
)
def test_a_blink_is_on_then_off_for_its_half_period_from_the_moment_it_is_shown(
    lights, factory, pattern, half
):
    clock, light = factory.clock, lights[0]
    run_until(clock, clock.now() + 0.0137)  # not on any grid
    light.show(pattern)
    step = half / 4
    assert levels(light, clock, 4 * half, step) == [1.0] * 4 + [0.0] * 4 + [1.0] * 4 + [0.0] * 4


def test_a_pulse_fades_in_and_out_over_0_6_s_each_in_frames(lights, factory):
    clock, light = factory.clock, lights[0]
    light.show(Pattern.DIM)  # a seated player's light, as a turn comes to it
    light.show(Pattern.PULSE)
    seen = levels(light, clock, 1.2, FRAME)
    assert seen[0] == 0.0
    assert seen[15] == 1.0  # 0.6 s: the top
    assert seen[:16] == sorted(seen[:16]) and seen[15:] == sorted(seen[15:], reverse=True)
    assert len(set(seen)) == 16  # a new level every frame: a fade, not a jump
    assert levels(light, clock, 1.2, FRAME) == seen  # and again, the same


def test_steady_patterns_are_one_level_and_brightness_scales_every_level_at_once(lights, factory):
    clock, light = factory.clock, lights[0]
    light.brightness = 0.3
    light.show(Pattern.ON)
    assert light.pin.state == pytest.approx(0.3)
    light.show(Pattern.DIM)
    assert light.pin.state == pytest.approx(0.3 * DIM_LEVEL)
    light.show(Pattern.BLINK_FAST)
    assert set(levels(light, clock, 0.24, 0.06)) == {0.3, 0.0}
    run_until(clock, clock.now() + 0.01)  # in an "on" half
    light.brightness = 0.6  # a blinking light takes the new brightness at once
    assert light.pin.state == pytest.approx(0.6)
    light.show(Pattern.OFF)
    assert light.pin.state == 0.0


def test_lights_start_no_thread(lights, factory):
    before = threading.active_count()
    for light, pattern in zip(lights, WAVING, strict=True):
        light.show(pattern)
    run_until(factory.clock, factory.clock.now() + 1.0)
    assert threading.active_count() == before


WAVING = (Pattern.PULSE, Pattern.BLINK, Pattern.BLINK_FAST, Pattern.FLASH)


def test_the_animator_sleeps_while_nothing_moves(lights, factory):
    clock = factory.clock
    animator = lights[0]._animator
    for light, pattern in zip(
        lights, (Pattern.ON, Pattern.DIM, Pattern.OFF, Pattern.ON), strict=True
    ):
        light.show(pattern)
    assert clock.next_due() is None  # no timer at all
    lights[1].show(Pattern.BLINK)
    run_until(clock, clock.now() + 8.0)
    assert animator.wakes == 20  # one per edge, nothing in between
    lights[1].show(Pattern.ON)
    assert clock.next_due() is None
    wakes = animator.wakes
    run_until(clock, clock.now() + 600.0)
    assert animator.wakes == wakes


def test_one_timer_serves_every_light_that_moves(lights, factory):
    clock = factory.clock
    animator = lights[0]._animator
    for light in lights:
        light.show(Pattern.BLINK)  # all started at the same moment
    run_until(clock, clock.now() + 8.0)
    assert animator.wakes == 20  # as for one light: one wake-up writes them all
    assert len({round(light.pin.state, 3) for light in lights}) == 1


def test_a_late_wake_up_shows_what_the_clock_says_now(lights, factory):
    clock, light = factory.clock, lights[0]
    start = clock.now()
    light.show(Pattern.BLINK)
    clock.set(start + 1.0)  # the loop was busy: the edges at 0.4 s and 0.8 s come late
    assert clock.run_next(start + 1.0)
    assert light.pin.state == 1.0  # 1.0 s into a 0.4 s on / 0.4 s off blink: on
    assert clock.next_due() == pytest.approx(start + 1.2)  # the next edge, not a backlog


def test_a_new_pattern_is_seen_at_once_where_it_would_begin_at_the_level_shown(lights, factory):
    clock, blinking, dark = factory.clock, lights[0], lights[1]
    blinking.show(Pattern.BLINK_FAST)
    run_until(clock, clock.now() + 0.05)  # in its "on" half
    assert blinking.pin.state == 1.0
    blinking.show(Pattern.FLASH)  # would begin "on" too: begins with its "off" half
    assert blinking.pin.state == 0.0
    assert levels(blinking, clock, 0.24, 0.03) == [0.0, 0.0, 1.0, 1.0] * 2
    dark.show(Pattern.PULSE)  # from off: begins at its brightest and fades out
    assert dark.pin.state == pytest.approx(1.0, abs=0.01)
