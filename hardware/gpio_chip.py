"""Which kernel GPIO chip drives the table, and its lines as gpiozero's pins.

On a Raspberry Pi the chip is found by the label its kernel gives the GPIO controller on the
header, whatever number the kernel gave it (a Pi 5's RP1 is gpiochip4 on older kernels,
gpiochip0 on newer ones): nothing needs naming. On another board the config names the chip
(`[gpio] chip`: its number, its /dev path, or its label). Nothing here reads /proc, which
the service's sandbox hides (`ProcSubset=pid`): a chip says what it is itself.

Line offsets on the chip are the BCM numbers of the pin map (on a Pi the header's GPIO n is
line n of its controller), so the board has one pin, `GPIOn`, per line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .device_errors import PinFactoryUnavailable

if TYPE_CHECKING:
    from gpiozero.pins import BoardInfo

# The label of each Raspberry Pi's header controller, and the boards that have it.
PI_CHIPS = {
    "pinctrl-rp1": "Raspberry Pi 5",
    "pinctrl-bcm2711": "Raspberry Pi 4, 400, CM4",
    "pinctrl-bcm2835": "Raspberry Pi Zero 2 W, 3 and older",
}
DEV = Path("/dev")
# The pin map's highest BCM number is 27: a chip with fewer lines cannot be the table's.
LINES_NEEDED = 28


@dataclass(frozen=True)
class Chip:
    path: str
    name: str  # gpiochipN
    label: str
    lines: int

    def __str__(self) -> str:
        return f"{self.name} {self.label!r} ({self.lines} lines)"


def chips(dev: Path | None = None) -> list[Chip]:
    """The GPIO chips this process can open, in the kernel's order."""
    import gpiod

    found = []
    found_paths = (dev or DEV).glob("gpiochip*")
    paths = sorted(found_paths, key=lambda p: int(re.sub(r"\D", "", p.name) or 0))
    for path in paths:
        try:
            with gpiod.Chip(str(path)) as chip:
                info = chip.get_info()
        except OSError:
            continue
        found.append(Chip(str(path), info.name, info.label, info.num_lines))
    return found


def find_chip(named: int | str | None, dev: Path | None = None) -> Chip:
    """The chip the config names (a number, a /dev path or gpiochipN, or a label), or else
    the Raspberry Pi's header controller."""
    present = chips(dev)
    listed = ", ".join(map(str, present)) or "none this user may open"
    if named is None:
        pis = [chip for chip in present if chip.label in PI_CHIPS]
        if not pis:
            raise PinFactoryUnavailable(
                "no Raspberry Pi GPIO controller among the GPIO chips "
                f"({listed}): name the table's chip in [gpio] chip"
            )
        return pis[0]
    wanted = f"gpiochip{named}" if isinstance(named, int) else Path(named).name
    for chip in present:
        if wanted in (chip.name, chip.label) or named == chip.label:
            if chip.lines < LINES_NEEDED:
                raise PinFactoryUnavailable(
                    f"GPIO chip {chip} has too few lines for the pin map (BCM 0-27)"
                )
            return chip
    raise PinFactoryUnavailable(f"no GPIO chip {named!r} (the chips: {listed})")


def board_info(chip: Chip) -> BoardInfo:
    """The chip as gpiozero's board: one header, a pin `GPIOn` (also n, "n", BCMn) per line."""
    from gpiozero.pins import BoardInfo, HeaderInfo, PinInfo

    pins = {
        line: PinInfo(
            number=line,
            name=f"GPIO{line}",
            names=frozenset({line, str(line), f"GPIO{line}", f"BCM{line}"}),
            pull="",
            row=line + 1,
            col=1,
            interfaces=frozenset({"gpio"}),
        )
        for line in range(chip.lines)
    }
    header = HeaderInfo(name=chip.name, rows=chip.lines, columns=1, pins=pins)
    return BoardInfo(
        revision="",
        model=PI_CHIPS.get(chip.label, chip.label),
        pcb_revision="",
        released="",
        soc=chip.label,
        manufacturer="",
        memory=None,
        storage="",
        usb=0,
        usb3=0,
        ethernet=0,
        eth_speed=0,
        wifi=False,
        bluetooth=False,
        csi=0,
        dsi=0,
        headers={chip.name: header},
        board="",
    )
