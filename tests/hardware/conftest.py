"""The hardware tests' set-up: a fresh simulated pin factory on a virtual clock per test,
always reset afterwards (as gpiozero's own tests do with theirs)."""

import pytest

from hardware.clock import VirtualClock
from hardware.sim.pins import SimFactory


@pytest.fixture
def factory():
    factory = SimFactory(VirtualClock())
    yield factory
    factory.reset()
