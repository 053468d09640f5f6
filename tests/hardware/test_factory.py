"""The pin factory comes from the config, else gpiozero's environment variable, else lgpio."""

import pytest

from hardware.clock import VirtualClock
from hardware.device_errors import PinFactoryUnavailable
from hardware.factory import factory_name
from hardware.sim.pins import SimFactory


def test_config_beats_environment(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "rpigpio")
    assert factory_name("mock") == "mock"
    assert factory_name(None) == "rpigpio"
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    assert factory_name(None) == "lgpio"


def test_unknown_factory_is_refused(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "pigpio")
    with pytest.raises(PinFactoryUnavailable, match="not 'pigpio'"):
        factory_name(None)


def test_mock_factory_runs_on_the_given_clock():
    clock = VirtualClock(50.0)
    factory = SimFactory(clock)
    assert factory.ticks() == 50.0
