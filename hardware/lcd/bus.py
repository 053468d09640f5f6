"""The last hop to the LCD: 4-bit transfers, which every wiring and the simulator can carry."""

from __future__ import annotations

from typing import Protocol


class NibbleBus(Protocol):
    """Carries one 4-bit transfer at a time to an HD44780 wired in 4-bit mode (RW low)."""

    def write_nibble(self, rs: bool, nibble: int) -> None:
        """Set RS and DB7-DB4 (bit 3 to bit 0 of `nibble`), then strobe E."""
        ...

    def set_backlight(self, on: bool) -> None: ...

    def close(self) -> None: ...
