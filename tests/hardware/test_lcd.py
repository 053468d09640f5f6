"""The LCD: RPLCD's output through each last hop into a model HD44780, and what the glass shows."""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from RPLCD import common

from controller.game.lcd_charset import SHOWN
from controller.game.lcd_glyphs import (
    ARROW_LEFT,
    ARROW_RIGHT,
    CUSTOM_CHARS,
    SUBSTITUTES,
    readable,
)
from hardware.device_errors import DisplayUnavailable
from hardware.display import fit
from hardware.lcd import CharacterDisplay, open_display
from hardware.lcd.gpio import GpioBus
from hardware.lcd.pcf8574 import Pcf8574Bus
from hardware.sim.hd44780 import HD44780, ModelBus, connect_pins, simulated_display

LCD_PINS = {"lcd.rs": 5, "lcd.e": 6, "lcd.d4": 12, "lcd.d5": 13, "lcd.d6": 19, "lcd.d7": 26}
ADDRESS = 0x27
TEXT = ("Seat 3: draw 2", f"{ARROW_LEFT} Menu {ARROW_RIGHT}")


@pytest.fixture(autouse=True)
def no_controller_delays(monkeypatch):
    """RPLCD waits out the controller's execution times; the model answers at once."""
    monkeypatch.setattr(common, "msleep", lambda ms: None)
    monkeypatch.setattr(common, "usleep", lambda us: None)


@pytest.fixture
def sim():
    display, model = simulated_display(glyphs=CUSTOM_CHARS, substitutes=SUBSTITUTES)
    yield display, model
    display.close()


class Backpack:
    """A fake SMBus with a PCF8574 at ADDRESS wired to an HD44780 by the backpack's layout.

    P0=RS, P1=RW, P2=E, P3=backlight, P4-P7=D4-D7. The LCD latches on E's falling edge what
    the port held while E was high. `fail_at` makes the given write (counting from 1) raise.
    """

    def __init__(self) -> None:
        self.model = HD44780()
        self.writes: list[int] = []
        # A PCF8574 powers up with every port line high, E included.
        self.port = 0xFF
        self.broken = False
        self.fail_at: int | None = None
        self.attempts = 0

    def write_byte(self, address: int, value: int) -> None:
        self.attempts += 1
        if self.broken or self.attempts == self.fail_at:
            raise OSError(121, "Remote I/O error")
        assert address == ADDRESS
        assert 0 <= value <= 0xFF
        self.writes.append(value)
        previous, self.port = self.port, value
        self.model.backlight = bool(value & 0x08)
        if previous & 0x04 and not value & 0x04:
            self.model.latch(bool(previous & 0x01), previous >> 4)

    def close(self) -> None:
        pass


@pytest.fixture
def backpack():
    return Backpack()


def test_text_reaches_the_controller_through_the_bus(sim):
    display, model = sim
    display.show(TEXT)
    assert model.lines == (fit(TEXT[0]), fit(TEXT[1]))
    assert display.lines == model.lines
    assert not model.eight_bit and model.two_lines and model.display_on
    assert model.faults == []


def test_glyphs_are_loaded_into_cgram_and_shown(sim):
    display, model = sim
    assert model.custom_chars[: len(CUSTOM_CHARS)] == CUSTOM_CHARS
    display.show((ARROW_LEFT + ARROW_RIGHT + " Volume", ARROW_LEFT + " high " + ARROW_RIGHT))
    assert model.lines[0] == fit("\x00\x01 Volume")
    assert model.lines[1] == fit("\x00 high \x01")


def test_every_letter_the_lcd_shows_reaches_the_glass_as_itself(sim):
    # German's ä ö ü are A00's own cells, ß its 0xE2, Ä Ö Ü glyphs in CGRAM: each reads back
    # as itself, as the terminal view and the page show the glass.
    display, model = sim
    letters = "".join(sorted(SHOWN - {" "}))
    for start in range(0, len(letters), 16):
        display.show((letters[start : start + 16], ""))
        assert readable(model.lines[0]).rstrip() == letters[start : start + 16].rstrip()
    display.show(("Größe Ärger", "Öl Übel"))
    assert [readable(line) for line in model.lines] == [fit("Größe Ärger"), fit("Öl Übel")]
    assert model.ddram[:5] == b"Gr\xef\xe2e"  # A00: ö 0xEF, ß 0xE2


def test_countdown_rewrites_only_the_changed_digit(sim):
    display, model = sim
    display.show(("Seat 2", "Time left 5s"))
    for seconds in (4, 3, 2, 1):
        writes, instructions = model.ddram_writes, model.instructions
        display.show(("Seat 2", f"Time left {seconds}s"))
        assert model.lines[1] == fit(f"Time left {seconds}s")
        assert model.ddram_writes - writes == 1
        # One cursor move and nothing else: no clear, so no flicker.
        assert model.instructions - instructions == 1


def test_showing_the_same_text_sends_nothing(sim):
    display, model = sim
    display.show(TEXT)
    writes, instructions = model.ddram_writes, model.instructions
    display.show(TEXT)
    assert (model.ddram_writes, model.instructions) == (writes, instructions)


def test_text_outside_the_rom_and_control_characters_become_spaces(sim):
    display, model = sim
    display.show(("a\tb\nc\x1bd", "\u00e9\u4e00"))
    assert model.lines == (fit("a b c d"), fit(""))


def test_gpio_pins_carry_the_same_transfers_as_the_model_bus(factory):
    listener = HD44780()
    connect_pins(listener, factory, LCD_PINS)
    display = CharacterDisplay(
        GpioBus(LCD_PINS, pin_factory=factory, settle=0), glyphs=CUSTOM_CHARS
    )
    reference, model = simulated_display(glyphs=CUSTOM_CHARS)
    for lines in (TEXT, ("Seat 3: draw 2", ARROW_LEFT + " 4 s " + ARROW_RIGHT), ("Round over", "")):
        display.show(lines)
        reference.show(lines)
        assert listener.lines == (fit(lines[0]), fit(lines[1]))
    assert listener.ddram == model.ddram
    assert listener.custom_chars[: len(CUSTOM_CHARS)] == CUSTOM_CHARS
    assert listener.ddram_writes == model.ddram_writes
    display.close()
    # Releasing the pins strobes nothing into the controller.
    assert listener.lines == (fit("Round over"), fit(""))
    assert listener.faults == []


def test_open_display_on_gpio_names_a_missing_pin(factory):
    pins = {role: pin for role, pin in LCD_PINS.items() if role != "lcd.d6"}
    with pytest.raises(DisplayUnavailable, match=r"lcd\.d6"):
        open_display("gpio", pins=pins, pin_factory=factory)


def test_open_display_on_gpio_drives_the_pins(factory):
    listener = HD44780()
    connect_pins(listener, factory, LCD_PINS)
    display = open_display("gpio", pins=LCD_PINS, pin_factory=factory, glyphs=CUSTOM_CHARS)
    display.show(TEXT)
    assert listener.lines == (fit(TEXT[0]), fit(TEXT[1]))
    display.close()


def test_pcf8574_bytes_follow_the_backpack_layout(backpack):
    display = CharacterDisplay(Pcf8574Bus(smbus=backpack), glyphs=CUSTOM_CHARS)
    display.show(TEXT)
    assert backpack.model.lines == (fit(TEXT[0]), fit(TEXT[1]))
    assert backpack.model.custom_chars[: len(CUSTOM_CHARS)] == CUSTOM_CHARS
    assert backpack.model.faults == []
    assert all(not value & 0x02 for value in backpack.writes), "RW must stay low"
    assert all(value & 0x08 for value in backpack.writes), "backlight stays on"


def test_pcf8574_sets_rs_before_raising_e(backpack):
    display = CharacterDisplay(Pcf8574Bus(smbus=backpack), glyphs=CUSTOM_CHARS)
    display.show(TEXT)
    previous = 0xFF
    for value in backpack.writes:
        if value & 0x04 and not previous & 0x04:
            assert (value ^ previous) & 0x01 == 0
        previous = value


def test_pcf8574_backlight_follows_the_display(backpack):
    display = CharacterDisplay(Pcf8574Bus(smbus=backpack), glyphs=CUSTOM_CHARS)
    display.show(TEXT)
    display.backlight(False)
    assert not backpack.model.backlight and not display.lit
    display.show(("Asleep", ""))
    assert not backpack.port & 0x08
    assert backpack.model.lines[0] == fit("Asleep")
    display.backlight(True)
    assert backpack.model.backlight


@pytest.mark.parametrize("failing_write", range(1, 25))
def test_bus_error_reinitialises_and_rewrites_the_whole_screen(backpack, failing_write, caplog):
    display = CharacterDisplay(Pcf8574Bus(smbus=backpack), glyphs=CUSTOM_CHARS)
    display.show(TEXT)
    backpack.fail_at = backpack.attempts + failing_write
    new_text = ("Seat 5: SLAP!", ARROW_LEFT + "   wild   " + ARROW_RIGHT)
    with caplog.at_level(logging.WARNING):
        display.show(new_text)
    assert backpack.model.lines == (fit(new_text[0]), fit(new_text[1]))
    assert backpack.model.custom_chars[: len(CUSTOM_CHARS)] == CUSTOM_CHARS
    assert display.healthy
    assert "re-initialising" in caplog.text


def test_bus_error_while_switching_the_backlight_heals(backpack):
    display = CharacterDisplay(Pcf8574Bus(smbus=backpack), glyphs=CUSTOM_CHARS)
    display.show(TEXT)
    backpack.fail_at = backpack.attempts + 1
    display.backlight(False)
    assert not backpack.model.backlight
    assert backpack.model.lines == (fit(TEXT[0]), fit(TEXT[1]))


def test_a_silent_lcd_never_raises_and_is_rewritten_when_it_answers(backpack, caplog):
    backpack.broken = True
    with caplog.at_level(logging.DEBUG):
        display = CharacterDisplay(Pcf8574Bus(smbus=backpack), glyphs=CUSTOM_CHARS)
        for seconds in (5, 4, 3):
            display.show(("Seat 1", f"{seconds}s"))
        display.backlight(False)
    assert not display.healthy
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, "a silent LCD is reported once, not on every update"
    backpack.broken = False
    display.show(("Seat 1", "2s"))
    assert display.healthy
    assert backpack.model.lines == (fit("Seat 1"), fit("2s"))
    assert not backpack.model.backlight


def test_reinitialising_resynchronises_a_half_sent_byte():
    model = HD44780()
    bus = ModelBus(model)
    CharacterDisplay(bus, glyphs=CUSTOM_CHARS).show(TEXT)
    # A transfer cut off after its first half leaves the controller waiting for the second.
    bus.write_nibble(True, 0x4)
    display = CharacterDisplay(bus, glyphs=CUSTOM_CHARS)
    display.show(("Again", "whole"))
    assert model.lines == (fit("Again"), fit("whole"))
    assert model.custom_chars[: len(CUSTOM_CHARS)] == CUSTOM_CHARS


def test_open_display_rejects_an_unknown_interface():
    with pytest.raises(DisplayUnavailable, match="interface"):
        open_display("spi")


def test_open_display_on_a_missing_i2c_bus_says_so():
    with pytest.raises(DisplayUnavailable, match=r"I2C bus 99|smbus2"):
        open_display("i2c", i2c_port=99)


def test_model_decodes_the_datasheet_initialisation_by_hand():
    model = HD44780()
    for nibble in (0x3, 0x3, 0x3, 0x2):
        model.latch(False, nibble)
    for instruction in (0x28, 0x0C, 0x01, 0x06, 0xC0 | 3):
        model.latch(False, instruction >> 4)
        model.latch(False, instruction & 0x0F)
    for char in b"Hi":
        model.latch(True, char >> 4)
        model.latch(True, char & 0x0F)
    assert model.lines == (fit(""), "   Hi" + " " * 11)
    assert model.faults == []


def _send(model: HD44780, value: int, *, rs: bool = False) -> None:
    model.latch(rs, value >> 4)
    model.latch(rs, value & 0x0F)


def _ready_model() -> HD44780:
    model = HD44780()
    for nibble in (0x3, 0x3, 0x3, 0x2):
        model.latch(False, nibble)
    for instruction in (0x28, 0x0C, 0x01, 0x06):
        _send(model, instruction)
    return model


def test_model_runs_line_one_on_into_line_two():
    model = _ready_model()
    _send(model, 0x80 | 39)
    for char in b"AB":
        _send(model, char, rs=True)
    assert model.lines[1][0] == "B"
    assert model.ddram[39] == ord("A")


def test_model_shifts_the_display():
    model = _ready_model()
    for char in b"0123456789ABCDEFG":
        _send(model, char, rs=True)
    _send(model, 0x18)  # shift the display left: one more column comes into view
    assert model.lines[0] == "123456789ABCDEFG"
    _send(model, 0x02)  # return home undoes the shift
    assert model.lines[0] == "0123456789ABCDEF"


def test_model_reports_a_write_to_missing_ddram():
    model = _ready_model()
    _send(model, 0x80 | 0x30)
    assert model.faults


# ASCII that the A00 ROM shows as itself, plus the display's own glyphs.
SHOWN_AS_IS = st.sampled_from(
    [chr(c) for c in range(0x20, 0x7E) if chr(c) != "\\"] + [ARROW_LEFT, ARROW_RIGHT]
)
LINE = st.text(SHOWN_AS_IS, max_size=20)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(LINE, LINE), min_size=1, max_size=6))
def test_glass_always_shows_the_last_text_and_only_changed_cells_are_written(screens):
    display, model = simulated_display(glyphs=CUSTOM_CHARS)
    shown = (fit(""), fit(""))
    for lines in screens:
        writes = model.ddram_writes
        display.show(lines)
        wanted = (fit(lines[0]), fit(lines[1]))
        assert model.lines == wanted
        changed = sum(
            a != b
            for old, new in zip(shown, wanted, strict=True)
            for a, b in zip(old, new, strict=True)
        )
        assert model.ddram_writes - writes == changed
        shown = wanted
    assert model.faults == []


def test_model_reads_the_open_low_data_lines_as_high_in_8_bit_mode():
    model = HD44780()
    model.latch(False, 0x0)  # DB7-DB4 low, DB3-DB0 pulled up: 0x0F, display control
    assert model.display_on and model.cursor_on and model.blink_on
    assert model.eight_bit


def test_readable_spells_the_glyphs_in_unicode(sim):
    display, model = sim
    display.show((ARROW_RIGHT + "Volume", ARROW_LEFT + "  low  " + ARROW_RIGHT))
    assert readable(model.lines[0]).rstrip() == "\u2192Volume"
    assert readable(model.lines[1]) == fit("\u2190  low  \u2192")


def test_gpio_pin_already_in_use_is_a_display_error(factory):
    pins = {**LCD_PINS, "lcd.d7": LCD_PINS["lcd.rs"]}
    with pytest.raises(DisplayUnavailable, match=r"lcd\.d7"):
        GpioBus(pins, pin_factory=factory, settle=0)
