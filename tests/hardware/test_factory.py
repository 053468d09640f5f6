"""The pin factory comes from the config, else gpiozero's environment variable, else gpiod
(the kernel's GPIO chip)."""

import pytest

from hardware.clock import VirtualClock
from hardware.device_errors import PinFactoryUnavailable
from hardware.factory import factory_name
from hardware.sim.pins import SimFactory


def test_config_beats_environment(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert factory_name("gpiod") == "gpiod"
    assert factory_name(None) == "mock"
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    assert factory_name(None) == "gpiod"


@pytest.mark.parametrize("name", ["pigpio", "lgpio", "rpigpio"])
def test_unknown_factory_is_refused(monkeypatch, name):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", name)
    with pytest.raises(PinFactoryUnavailable, match=f"not '{name}'"):
        factory_name(None)


def test_mock_factory_runs_on_the_given_clock():
    clock = VirtualClock(50.0)
    factory = SimFactory(clock)
    assert factory.ticks() == 50.0
