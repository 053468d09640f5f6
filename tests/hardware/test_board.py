"""Every role of the map is a gpiozero device on the pin the map names (on mock pins)."""

from controller.game.lcd_glyphs import CUSTOM_CHARS
from hardware.board import Board
from hardware.clock import VirtualClock
from hardware.pinmap import DEFAULT_PINS, SIM_HEADER, SIMULATION_EXTRA_PINS, PinMap
from hardware.sim.hd44780 import simulated_display
from hardware.sim.pins import SimFactory


def build(factory, pinmap, edges=None):
    return Board(
        pinmap,
        pin_factory=factory,
        clock=factory.clock,
        display=simulated_display(glyphs=CUSTOM_CHARS)[0],
        on_edge=lambda *edge: (edges if edges is not None else []).append(edge),
        on_turn=lambda steps: None,
    )


def gpio(device) -> int:
    return int(device.pin.info.name.removeprefix("GPIO"))


def test_every_role_of_the_default_map_is_wired_to_its_pin(factory):
    board = build(factory, PinMap.build(8))
    try:
        wired = {
            f"{name}.button" if name.startswith("seat") else name: gpio(device)
            for name, device in board.inputs.items()
        }
        wired |= {f"seat{seat}.light": gpio(light) for seat, light in board.lights.items()}
        wired["buzzer"] = gpio(board.buzzer)
        wired["encoder.a"] = gpio(board.encoder.a)
        wired["encoder.b"] = gpio(board.encoder.b)
        assert wired == dict(DEFAULT_PINS)
        assert board.motor is None
    finally:
        board.close()


def test_the_simulated_table_wires_the_optional_roles_too(factory):
    pinmap = PinMap.build(
        8, base={**DEFAULT_PINS, **SIMULATION_EXTRA_PINS}, header=SIM_HEADER, i2c_in_use=False
    )
    board = build(factory, pinmap)
    try:
        assert gpio(board.inputs["play_pause"]) == SIMULATION_EXTRA_PINS["play_pause"]
        assert gpio(board.empty) == SIMULATION_EXTRA_PINS["launcher.empty"]
        assert gpio(board.motor.forward_device) == SIMULATION_EXTRA_PINS["launcher.motor.forward"]
        assert gpio(board.motor.backward_device) == SIMULATION_EXTRA_PINS["launcher.motor.backward"]
        assert gpio(board.beam) == SIMULATION_EXTRA_PINS["launcher.beam"]
    finally:
        board.close()


def test_a_pressed_button_reports_its_edge_with_the_pin_time(factory):
    edges = []
    board = build(factory, PinMap.build(8), edges)
    try:
        factory.clock.set(1234.5678)
        factory.pin(DEFAULT_PINS["slap"]).drive_low()
        factory.clock.set(1234.7)
        factory.pin(DEFAULT_PINS["slap"]).drive_high()
        assert edges == [("slap", True, 1234.5678), ("slap", False, 1234.7)]
    finally:
        board.close()


def test_buttons_held_at_start_are_found(factory):
    factory.pin(DEFAULT_PINS["seat2.button"]).drive_low()
    board = build(factory, PinMap.build(8))
    try:
        assert board.pressed_now() == ["seat2"]
    finally:
        board.close()


def test_the_buzzer_plays_a_tune_note_by_note_in_virtual_time(factory):
    board = build(factory, PinMap.build(8))
    try:
        pin = factory.pin(DEFAULT_PINS["buzzer"])
        board.buzzer.play("test", [("A4", 0.1), (None, 0.05), ("A5", 0.1)])
        assert (pin.frequency, pin.state) == (440, 0.5)
        factory.clock.run_next(factory.clock.now() + 1)
        assert pin.state == 0
        factory.clock.run_next(factory.clock.now() + 1)
        assert (round(pin.frequency), pin.state) == (880, 0.5)
        factory.clock.run_next(factory.clock.now() + 1)
        assert pin.state == 0 and board.buzzer.playing is None
        board.buzzer.volume = "low"
        board.buzzer.play("test", [("A4", 0.1)])
        assert 0 < pin.state < 0.5
        board.buzzer.volume = "off"
        board.buzzer.play("test", [("A4", 0.1)])
        assert pin.state == 0 and board.buzzer.playing is None
    finally:
        board.close()


def test_a_simulated_pin_reports_only_the_edges_it_watches():
    clock = VirtualClock(1.0)
    pin = SimFactory(clock).pin(22)
    pin.pull = "up"
    seen: list[bool] = []
    pin.edges = "falling"

    def changed(ticks, state):  # gpiozero keeps only a weak reference: held here
        seen.append(state)

    pin.when_changed = changed
    pin.drive_low()
    pin.drive_high()
    pin.drive_low()
    assert seen == [False, False]
    pin.when_changed = None
