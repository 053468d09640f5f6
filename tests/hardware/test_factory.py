"""The pin factory comes from the config, else gpiozero's environment variable, else gpiod
(the kernel's GPIO chip)."""

import pytest

from hardware.clock import VirtualClock
from hardware.device_errors import PinFactoryUnavailable
from hardware.factory import factory_name, former_note
from hardware.sim.pins import SimFactory


def test_config_beats_environment(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert factory_name("gpiod") == "gpiod"
    assert factory_name(None) == "mock"
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    assert factory_name(None) == "gpiod"


@pytest.mark.parametrize("name", ["pigpio", "native", "RPi.GPIO"])
def test_unknown_factory_is_refused(monkeypatch, name):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", name)
    with pytest.raises(PinFactoryUnavailable, match=f"not '{name.lower()}'"):
        factory_name(None)


@pytest.mark.parametrize("name", ["lgpio", "rpigpio", "LGPIO"])
def test_a_former_factory_is_the_chip_and_says_so(monkeypatch, name):
    """gpiozero's factories the table used before its own pins drove the same chip."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert factory_name(name) == "gpiod"
    assert f"pin factory '{name.lower()}' is now the table's own gpiod pins" in str(
        former_note(name)
    )
    assert former_note("gpiod") is None and former_note(None) is None


def test_mock_factory_runs_on_the_given_clock():
    clock = VirtualClock(50.0)
    factory = SimFactory(clock)
    assert factory.ticks() == 50.0
