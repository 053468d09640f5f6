"""An HD44780 character LCD controller, fed what its E strobe latches, as the datasheet has it.

It powers up in 8-bit mode: until a function set selects 4-bit mode, every strobe is a whole
instruction whose DB0-DB3 read high (4-bit wiring leaves them open, and the chip pulls them
up). After that, strobes pair up into bytes, high half first. It keeps DDRAM (two lines of
40), CGRAM (eight 5x8 glyphs), the address counter, entry mode, display control and shift.
The busy time of each instruction is not modelled: it answers at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING

from RPLCD.codecs import hd44780_a00, hd44780_a02, st7066_0b

from ..display import COLUMNS
from ..lcd.character import CharacterDisplay

if TYPE_CHECKING:
    from .pins import SimFactory

ROWS = 2
LINE_LENGTH = 40
LINE2 = 0x40
DDRAM_SIZE = 80
CGRAM_SIZE = 64
GLYPHS = 8
UNKNOWN = "\ufffd"

_ROM_TABLES = {"A00": hd44780_a00, "A02": hd44780_a02, "ST0B": st7066_0b}
# The A00 ROM's 0xFF has every dot lit: a full block reads truer than the table's black square;
# its 0xE2, a beta in the table, is the sharp s German reads there (and writes with it: ß).
_ROM_OVERRIDES = {"A00": {0xFF: "\u2588", 0xE2: "ß"}}


@cache
def rom_glyphs(rom: str) -> Mapping[int, str]:
    """Character code → the text a ROM cell shows (codes 0-15 are CGRAM, not in here)."""
    table: dict[int, str] = {}
    for char, code in _ROM_TABLES[rom].encoding_table.items():
        if code >= 2 * GLYPHS:
            table.setdefault(code, char)
    table.update(_ROM_OVERRIDES.get(rom, {}))
    return table


class HD44780:
    """The controller and its glass. `latch(rs, nibble)` is one falling edge of E."""

    def __init__(self, *, rom: str = "A00") -> None:
        self._rom = rom_glyphs(rom)
        self.backlight = True
        self.ddram_writes = 0
        self.cgram_writes = 0
        self.instructions = 0
        self.faults: list[str] = []
        self.power_on()

    def power_on(self) -> None:
        """The state of the datasheet's internal reset."""
        self.eight_bit = True
        self.two_lines = False
        self.display_on = False
        self.cursor_on = False
        self.blink_on = False
        self.increment = True
        self.shift_on_write = False
        self.shift = 0
        self.address = 0
        self.in_cgram = False
        self.ddram = bytearray(b" " * DDRAM_SIZE)
        self.cgram = bytearray(CGRAM_SIZE)
        self._pending: tuple[bool, int] | None = None

    @property
    def lines(self) -> tuple[str, str]:
        """The two rows on the glass; CGRAM glyphs read as chr(0)..chr(7), blank when off."""
        if not self.display_on:
            return (" " * COLUMNS, " " * COLUMNS)
        if not self.two_lines:
            # One-line mode drives only the top row of a two-row glass.
            top = (self.ddram[(self.shift + col) % DDRAM_SIZE] for col in range(COLUMNS))
            return ("".join(map(self._glyph, top)), " " * COLUMNS)
        rows = []
        for row in range(ROWS):
            base = row * LINE_LENGTH
            codes = (self.ddram[base + (self.shift + col) % LINE_LENGTH] for col in range(COLUMNS))
            rows.append("".join(map(self._glyph, codes)))
        return (rows[0], rows[1])

    @property
    def custom_chars(self) -> tuple[tuple[int, ...], ...]:
        """The eight CGRAM glyphs, each eight rows of five pixels."""
        return tuple(tuple(self.cgram[slot * 8 : slot * 8 + 8]) for slot in range(GLYPHS))

    def latch(self, rs: bool, nibble: int) -> None:
        """E fell with RS and DB7-DB4 (bits 3-0 of `nibble`) as given."""
        nibble &= 0x0F
        if self.eight_bit:
            self._execute(rs, nibble << 4 | 0x0F)
            return
        if self._pending is None:
            self._pending = (rs, nibble)
            return
        first_rs, high = self._pending
        self._pending = None
        if first_rs != rs:
            self.faults.append("RS changed between the two halves of a byte")
        self._execute(rs, high << 4 | nibble)

    def _execute(self, rs: bool, value: int) -> None:
        if rs:
            self._write(value)
        else:
            self.instructions += 1
            self._instruction(value)

    def _instruction(self, value: int) -> None:
        if value & 0x80:
            self.in_cgram = False
            self.address = value & 0x7F
            if self._ddram_index(self.address) is None:
                self.faults.append(f"no DDRAM at address {self.address:#04x}")
        elif value & 0x40:
            self.in_cgram = True
            self.address = value & 0x3F
        elif value & 0x20:
            self.eight_bit = bool(value & 0x10)
            self.two_lines = bool(value & 0x08)
        elif value & 0x10:
            step = 1 if value & 0x04 else -1
            if value & 0x08:
                # Shifting the display right brings earlier DDRAM columns into view.
                self.shift = (self.shift - step) % LINE_LENGTH
            else:
                self._step(step)
        elif value & 0x08:
            self.display_on = bool(value & 0x04)
            self.cursor_on = bool(value & 0x02)
            self.blink_on = bool(value & 0x01)
        elif value & 0x04:
            self.increment = bool(value & 0x02)
            self.shift_on_write = bool(value & 0x01)
        elif value & 0x02:
            self.in_cgram, self.address, self.shift = False, 0, 0
        elif value & 0x01:
            self.ddram[:] = b" " * DDRAM_SIZE
            self.in_cgram, self.address, self.shift = False, 0, 0
            self.increment = True

    def _write(self, value: int) -> None:
        step = 1 if self.increment else -1
        if self.in_cgram:
            self.cgram[self.address] = value & 0x1F
            self.cgram_writes += 1
            self._step(step)
            return
        index = self._ddram_index(self.address)
        if index is None:
            self.faults.append(f"data written to missing DDRAM address {self.address:#04x}")
        else:
            self.ddram[index] = value
            self.ddram_writes += 1
        self._step(step)
        if self.shift_on_write:
            self.shift = (self.shift + step) % LINE_LENGTH

    def _ddram_index(self, address: int) -> int | None:
        if not self.two_lines:
            return address if address < DDRAM_SIZE else None
        line, col = divmod(address, LINE2)
        return line * LINE_LENGTH + col if col < LINE_LENGTH else None

    def _step(self, step: int) -> None:
        if self.in_cgram:
            self.address = (self.address + step) % CGRAM_SIZE
        elif not self.two_lines:
            self.address = (self.address + step) % DDRAM_SIZE
        else:
            # Line one ends at 0x27 and runs on into line two at 0x40, and back round.
            index = self._ddram_index(self.address) or 0
            line, col = divmod((index + step) % DDRAM_SIZE, LINE_LENGTH)
            self.address = line * LINE2 + col

    def _glyph(self, code: int) -> str:
        if code < 2 * GLYPHS:
            # Codes 8-15 address the same eight CGRAM glyphs as 0-7.
            return chr(code % GLYPHS)
        return self._rom.get(code, UNKNOWN)


class ModelBus:
    """The simulator's last hop: each 4-bit transfer goes straight into an `HD44780`."""

    def __init__(self, model: HD44780) -> None:
        self.model = model

    def write_nibble(self, rs: bool, nibble: int) -> None:
        self.model.latch(rs, nibble)

    def set_backlight(self, on: bool) -> None:
        self.model.backlight = on

    def close(self) -> None:
        pass


def connect_pins(
    model: HD44780, factory: SimFactory, pins: Mapping[str, int]
) -> Callable[[object], None]:
    """Wire `model` to the mock pins of the roles lcd.rs, lcd.e, lcd.d4-lcd.d7.

    The model latches on each falling edge of E, reading RS and D4-D7 as they stand.
    Returns the listener, so a caller can remove it from the E pin's `listeners`.
    """
    rs = factory.pin(pins["lcd.rs"])
    enable = factory.pin(pins["lcd.e"])
    data = [factory.pin(pins[f"lcd.d{n}"]) for n in (4, 5, 6, 7)]

    def on_enable(value: object) -> None:
        if not value:
            nibble = sum(1 << bit for bit, pin in enumerate(data) if pin.state)
            model.latch(bool(rs.state), nibble)

    enable.listeners.append(on_enable)
    return on_enable


def simulated_display(
    *,
    glyphs: Sequence[Sequence[int]] = (),
    charmap: str = "A00",
    substitutes: Mapping[str, int] | None = None,
) -> tuple[CharacterDisplay, HD44780]:
    """The real driver on a model HD44780; read the glass from the model's `lines`."""
    model = HD44780(rom=charmap)
    display = CharacterDisplay(
        ModelBus(model), glyphs=glyphs, charmap=charmap, substitutes=substitutes
    )
    return display, model
