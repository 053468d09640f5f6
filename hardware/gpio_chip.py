"""Which kernel GPIO chip drives the table, and its lines as gpiozero's pins.

On a Raspberry Pi the chip is found by the label its kernel gives the GPIO controller on the
header, whatever number the kernel gave it (a Pi 5's RP1 is gpiochip4 on older kernels,
gpiochip0 on newer ones): nothing needs naming. On another board the config names the chip
(`[gpio] chip`: its number, its /dev path, or its label; a number or path may be a udev
link's, as Raspberry Pi OS's gpiochip4 on a Pi 5). Nothing here reads /proc, which
the service's sandbox hides (`ProcSubset=pid`): a chip says what it is itself.

Line offsets on the chip are the BCM numbers of the pin map (on a Pi the header's GPIO n is
line n of its controller), so the board has one pin, `GPIOn`, per line.
"""

from __future__ import annotations

import errno
import os
import pwd
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

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
    name: str  # gpiochipN, the kernel's name
    label: str
    lines: int
    # Its names in /dev: the kernel's and any link's (Raspberry Pi OS's udev rule
    # 60-gpiochip4.rules links a Pi 5's gpiochip0 as gpiochip4, its number on older kernels).
    names: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.name} {self.label!r} ({self.lines} lines)"


class GpioChips(NamedTuple):
    openable: list[Chip]  # each chip once, in the kernel's order
    denied: list[str]  # the chips this user may not open (EACCES: not in their group)
    # The chips a device policy refuses (EPERM: a systemd unit's DeviceAllow= without them).
    refused: list[str]


def _number(name: str) -> int:
    return int(re.sub(r"\D", "", name) or 0)


def chips(dev: Path | None = None) -> GpioChips:
    """The GPIO chips in /dev: those this process can open, and those it may not."""
    import gpiod

    names: dict[str, list[str]] = {}  # a chip's real path: its names in /dev
    for path in sorted((dev or DEV).glob("gpiochip*"), key=lambda p: _number(p.name)):
        names.setdefault(os.path.realpath(path), []).append(path.name)
    found = GpioChips([], [], [])
    for real in sorted(names, key=lambda real: _number(os.path.basename(real))):
        try:
            with gpiod.Chip(real) as chip:
                info = chip.get_info()
        except OSError as err:  # not a GPIO chip (a dangling link, say), or not this user's
            if err.errno == errno.EACCES:
                found.denied.append(os.path.basename(real))
            elif err.errno == errno.EPERM:
                found.refused.append(os.path.basename(real))
            continue
        chip_names = tuple(sorted({info.name, *names[real]}, key=_number))
        found.openable.append(Chip(real, info.name, info.label, info.num_lines, chip_names))
    return found


def _user() -> str:
    """This process's user by name, or by number where the system has no name for it."""
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def find_chip(named: int | str | None, dev: Path | None = None) -> Chip:
    """The chip the config names (a number, a /dev path or gpiochipN, or a label), or else
    the Raspberry Pi's header controller."""
    present, denied, refused = chips(dev)
    listed = ", ".join(map(str, present)) or "none this user may open"
    if named is None:
        matching = [chip for chip in present if chip.label in PI_CHIPS]
    else:
        wanted = f"gpiochip{named}" if isinstance(named, int) else Path(named).name
        matching = [chip for chip in present if named == chip.label or wanted in chip.names]
    if not matching and (denied or refused):
        why = []
        if denied:
            why.append(
                f"{', '.join(denied)}: permission denied; the user {_user()} needs the group gpio"
            )
        if refused:
            why.append(
                f"{', '.join(refused)}: refused by a device policy; a systemd unit needs "
                "DeviceAllow=char-gpiochip rw"
            )
        raise PinFactoryUnavailable("; ".join(why))
    if not matching:
        if named is not None:
            raise PinFactoryUnavailable(f"no GPIO chip {named!r} (the chips: {listed})")
        raise PinFactoryUnavailable(
            "no Raspberry Pi GPIO controller among the GPIO chips "
            f"({listed}): name the table's chip in [gpio] chip"
        )
    if len(matching) > 1:  # no real Pi's: a guess between them could drive the wrong one
        which = "Raspberry Pi GPIO controllers" if named is None else f"GPIO chips {named!r}"
        raise PinFactoryUnavailable(
            f"{len(matching)} {which} ({', '.join(map(str, matching))}): "
            "name the table's chip in [gpio] chip by its number"
        )
    [chip] = matching
    if chip.lines < LINES_NEEDED:
        raise PinFactoryUnavailable(
            f"GPIO chip {chip} has too few lines for the pin map (BCM 0-27)"
        )
    return chip


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
