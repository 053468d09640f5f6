"""The LCD behind the common PCF8574 I2C backpack, through smbus2.

The expander's port drives the LCD: P0=RS, P1=RW, P2=E, P3=backlight, P4-P7=D4-D7. One I2C
byte sets all eight lines at once, so E is strobed by writing the port twice.
"""

from __future__ import annotations

from typing import Protocol

from ..device_errors import DisplayUnavailable

RS = 0x01
RW = 0x02
E = 0x04
BACKLIGHT = 0x08
DATA_SHIFT = 4

DEFAULT_PORT = 1
DEFAULT_ADDRESS = 0x27


class ByteBus(Protocol):
    """The part of smbus2's `SMBus` this bus uses."""

    def write_byte(self, i2c_addr: int, value: int) -> None: ...

    def close(self) -> None: ...


class Pcf8574Bus:
    """A `NibbleBus` over I2C; `smbus` replaces the bus smbus2 would open (for tests)."""

    def __init__(
        self,
        port: int = DEFAULT_PORT,
        address: int = DEFAULT_ADDRESS,
        *,
        smbus: ByteBus | None = None,
    ) -> None:
        self._owns_bus = smbus is None
        self._smbus = _open_smbus(port) if smbus is None else smbus
        self._address = address
        self._backlight = BACKLIGHT
        # The port as last written, or None when a failed write left it unknown.
        self._port: int | None = None

    def write_nibble(self, rs: bool, nibble: int) -> None:
        value = (nibble & 0x0F) << DATA_SHIFT | (RS if rs else 0) | self._backlight
        # RS must be steady before E rises; it only needs its own write when it changes.
        if self._port is None or (self._port ^ value) & RS:
            self._write(value)
        self._write(value | E)
        self._write(value)

    def set_backlight(self, on: bool) -> None:
        self._backlight = BACKLIGHT if on else 0
        self._write((self._port or 0) & ~(BACKLIGHT | E) | self._backlight)

    def close(self) -> None:
        if self._owns_bus:
            self._smbus.close()

    def _write(self, value: int) -> None:
        try:
            self._smbus.write_byte(self._address, value)
        except OSError:
            # The expander may or may not have taken the byte.
            self._port = None
            raise
        self._port = value


def _open_smbus(port: int) -> ByteBus:
    try:
        import smbus2
    except ImportError as err:
        raise DisplayUnavailable(
            "the I2C LCD needs the smbus2 package, which is not installed"
        ) from err
    try:
        return smbus2.SMBus(port)
    except OSError as err:
        reason = err.strerror or str(err)
        raise DisplayUnavailable(
            f"I2C bus {port} cannot be opened ({reason}); is I2C enabled?"
        ) from err
