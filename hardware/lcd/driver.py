"""RPLCD's HD44780 command set, cursor cache and custom characters over a `NibbleBus`."""

from __future__ import annotations

from RPLCD import common
from RPLCD.lcd import BaseCharLCD

from ..display import COLUMNS, ROWS
from .bus import NibbleBus


# RPLCD ships no types: to mypy its classes, this one's base among them, are Any.
class NibbleLCD(BaseCharLCD):  # type: ignore[misc]
    """An HD44780 in 4-bit mode; constructing one runs the full initialisation sequence."""

    data_bus_mode = common.LCD_4BITMODE

    def __init__(
        self, bus: NibbleBus, *, cols: int = COLUMNS, rows: int = ROWS, charmap: str = "A00"
    ) -> None:
        self.bus = bus
        # Callers place every cell themselves, so RPLCD's line wrapping would only add commands.
        super().__init__(cols=cols, rows=rows, dotsize=8, charmap=charmap, auto_linebreaks=False)

    def _init_connection(self) -> None:
        # The bus is opened by its owner and outlives re-initialisations.
        pass

    def _close_connection(self) -> None:
        self.bus.close()

    def _send_instruction(self, value: int) -> None:
        self._send(value, rs=False)

    def _send_data(self, value: int) -> None:
        self._send(value, rs=True)

    def _send(self, value: int, *, rs: bool) -> None:
        self.bus.write_nibble(rs, value >> 4 & 0x0F)
        self.bus.write_nibble(rs, value & 0x0F)
