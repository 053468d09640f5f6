"""The game's `TextDisplay` on an HD44780: only changed cells are rewritten, bus errors heal.

A countdown from "5s" to "4s" costs one cursor move and one character: no clear, no flicker.
An I2C error re-initialises the controller once and rewrites the whole screen; while the LCD
stays silent, every later update tries again, and the caller never sees the error.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from RPLCD import codecs

from ..device_errors import DisplayUnavailable
from ..display import COLUMNS, ROWS, fit
from .bus import NibbleBus
from .driver import NibbleLCD

log = logging.getLogger(__name__)

CODECS = {"A00": codecs.A00Codec, "A02": codecs.A02Codec, "ST0B": codecs.ST0BCodec}
SPACE = 0x20
CGRAM_SLOTS = 8
Cells = list[list[int]]


def _blank() -> Cells:
    return [[SPACE] * COLUMNS for _ in range(ROWS)]


class CharacterDisplay:
    """A 16x2 HD44780 behind a `NibbleBus`, with the glyphs of `glyphs` in its CGRAM: up to
    eight bitmaps of eight rows of five pixels, shown for the characters chr(0) to chr(7).
    `substitutes` writes a character its character map lacks as a code of its own: a ROM
    cell that reads as it, or one of those glyphs."""

    def __init__(
        self,
        bus: NibbleBus,
        *,
        glyphs: Sequence[Sequence[int]] = (),
        charmap: str = "A00",
        substitutes: Mapping[str, int] | None = None,
    ) -> None:
        if charmap not in CODECS:
            raise DisplayUnavailable(f"LCD character map must be one of {', '.join(CODECS)}")
        if len(glyphs) > CGRAM_SLOTS:
            raise DisplayUnavailable(f"the LCD holds {CGRAM_SLOTS} glyphs, not {len(glyphs)}")
        self._bus = bus
        self._glyphs = tuple(tuple(bitmap) for bitmap in glyphs)
        self._charmap = charmap
        self._codec = CODECS[charmap]()
        self._codes: dict[str, int] = dict(substitutes or {})
        self._lcd: NibbleLCD | None = None
        self._lines = (fit(""), fit(""))
        self._wanted = _blank()
        # What the controller's DDRAM holds, as far as the writes that succeeded tell.
        self._glass = _blank()
        self._lit = True
        self._failing = False
        self._closed = False
        self._restart()

    @property
    def lines(self) -> tuple[str, str]:
        """The text last asked for, each line cut or padded to the width."""
        return self._lines

    @property
    def lit(self) -> bool:
        return self._lit

    @property
    def healthy(self) -> bool:
        """False while the LCD does not answer; the next update tries it again."""
        return self._lcd is not None

    def show(self, lines: tuple[str, str]) -> None:
        if self._closed:
            return
        self._lines = (fit(lines[0]), fit(lines[1]))
        self._wanted = [[self._code(ch) for ch in line] for line in self._lines]
        if self._lcd is None:
            self._restart()
            return
        try:
            self._write_changes(self._lcd)
        except OSError as err:
            self._recover(err)

    def backlight(self, on: bool) -> None:
        if self._closed:
            return
        self._lit = on
        if self._lcd is None:
            self._restart()
            return
        try:
            self._bus.set_backlight(on)
        except OSError as err:
            self._recover(err)

    def close(self) -> None:
        """Release the bus; the glass keeps its last text."""
        if self._closed:
            return
        self._closed = True
        try:
            self._bus.close()
        except OSError as err:
            log.warning("closing the LCD bus failed: %s", err)

    def _recover(self, err: OSError) -> None:
        log.warning("LCD bus error (%s); re-initialising the display", err)
        self._lcd = None
        self._restart()

    def _restart(self) -> None:
        """Initialise the controller, load the glyphs and write the whole screen, once."""
        try:
            lcd = NibbleLCD(self._bus, charmap=self._charmap)
            for slot, bitmap in enumerate(self._glyphs):
                lcd.create_char(slot, bitmap)
            self._bus.set_backlight(self._lit)
            # The initialisation cleared DDRAM.
            self._glass = _blank()
            self._write_changes(lcd)
        except OSError as err:
            self._lcd = None
            if self._failing:
                log.debug("LCD still not responding: %s", err)
            else:
                log.warning("LCD not responding (%s); retrying on the next update", err)
                self._failing = True
            return
        self._lcd = lcd
        if self._failing:
            log.info("LCD responding again")
            self._failing = False

    def _write_changes(self, lcd: NibbleLCD) -> None:
        for row, (wanted, glass) in enumerate(zip(self._wanted, self._glass, strict=True)):
            col = 0
            while col < COLUMNS:
                if wanted[col] == glass[col]:
                    col += 1
                    continue
                # One cursor move per run of changed cells; the controller steps along the run.
                lcd.cursor_pos = (row, col)
                while col < COLUMNS and wanted[col] != glass[col]:
                    lcd.write(wanted[col])
                    glass[col] = wanted[col]
                    col += 1

    def _code(self, ch: str) -> int:
        code = self._codes.get(ch)
        if code is None:
            if ch < " ":
                # Codes 0-7 are the CGRAM glyphs; other control characters have no cell.
                code = ord(ch) if ord(ch) < len(self._glyphs) else SPACE
            else:
                code = self._codec.encode(ch)[0]
            self._codes[ch] = code
        return code
