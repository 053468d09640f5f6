"""What a light shows and the buzzer plays, as plain values without gpiozero, so the game's
shell can name them before any device exists; hardware.outputs carries them out."""

from __future__ import annotations

from enum import Enum

from .animator import Wave


class Pattern(Enum):
    """What a light does; the game decides, the light carries it out."""

    OFF = "off"
    ON = "on"
    DIM = "dim"
    PULSE = "pulse"
    BLINK = "blink"
    BLINK_FAST = "blink_fast"
    FLASH = "flash"


DIM_LEVEL = 0.15
STEADY = {Pattern.OFF: 0.0, Pattern.ON: 1.0, Pattern.DIM: DIM_LEVEL}
WAVES = {
    Pattern.PULSE: Wave(on=0.0, off=0.0, fade_in=0.6, fade_out=0.6),
    Pattern.BLINK: Wave(on=0.4, off=0.4),
    Pattern.BLINK_FAST: Wave(on=0.12, off=0.12),
    Pattern.FLASH: Wave(on=0.06, off=0.06),
}


Note = tuple[str | None, float]  # (note name such as "A4", or None for a rest; seconds)
