"""`flashtable outputs-off`, which systemd runs after the daemon ends in any way: the motor
stopped and every light and the buzzer dark, whatever level a killed daemon left them at."""

from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.commands.cli import main
from controller.commands.outputs_off import output_roles, outputs_off
from controller.config import Config

from ..hardware.gpiod_standin import Kernel


def test_every_output_a_killed_daemon_left_on_is_driven_off(tmp_path, capsys):
    # The launcher table of the build guide: its motor on seat 7 and 8's pins.
    launcher = {"launcher.motor.forward": 19, "launcher.motor.backward": 16, "launcher.beam": 26}
    config = Config(seats=6, pins=launcher)
    pinmap = config.pinmap(simulated=False)
    factory = MockFactory(pin_class=MockPWMPin)
    roles = output_roles(config)
    assert roles[:2] == ["launcher.motor.forward", "launcher.motor.backward"]
    assert {"buzzer", *(f"seat{n}.light" for n in range(1, 7))} <= set(roles)
    for role in roles:  # as the daemon left them when it was killed
        pin = factory.pin(pinmap[role])
        pin.function = "output"
        pin.state = 1
    assert outputs_off(config, tmp_path, pin_factory=factory) == 0
    assert {role: factory.pin(pinmap[role]).state for role in roles} == dict.fromkeys(roles, 0)
    assert capsys.readouterr().out.startswith("outputs off: launcher.motor.forward, ")


def test_on_simulated_pins_there_is_nothing_to_drive(tmp_path, capsys):
    config = tmp_path / "flashtable.toml"
    config.write_text('[gpio]\nfactory = "mock"\n', encoding="utf-8")
    assert main(["outputs-off", "--config", str(config), "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out == "outputs off: the pins are simulated (mock), nothing to drive\n"


def test_without_the_pis_pins_it_says_why_and_fails(tmp_path, capsys, monkeypatch):
    # This machine has no Raspberry Pi GPIO chip (nor, in a container, any chip).
    monkeypatch.setattr("hardware.gpio_chip.DEV", tmp_path)
    assert main(["outputs-off", "--state-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "flashtable: cannot drive the outputs off: no Raspberry Pi GPIO controller among the"
        " GPIO chips (none this user may open): name the table's chip in [gpio] chip"
    )
    assert err.count("\n") == 1


def test_a_line_another_holds_is_named_with_its_role_and_holder(tmp_path, capsys, monkeypatch):
    # The chip's requests are a stand-in's (no kernel GPIO chip here): seat 1's light is held.
    kernel = Kernel(monkeypatch)
    kernel.held[17] = "gpioset"
    assert main(["outputs-off", "--state-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        "flashtable: cannot drive the outputs off: GPIO17 (seat1.light) on gpiochip0 is busy:"
        " 'gpioset' holds it\n"
    )
    assert list(kernel.requests) == [18]  # the buzzer's line, before it; none after
