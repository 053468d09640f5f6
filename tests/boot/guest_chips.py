"""The guest's GPIO chips: gpio-sim devices made through configfs, each of one bank with a
label and a number of lines, as a board's kernel would have them. Run at boot, before the
table starts (tests/boot/image.py), and by the tests to make other boards' chips; prints one
line of JSON, what the kernel named each chip.

    guest_chips.py LABEL:LINES ...   the chips, made anew (all the chips it made before go)

It runs on the guest's Python with the standard library alone.
"""

import json
import os
import sys
from pathlib import Path

CONFIG = Path("/sys/kernel/config/gpio-sim")
PREFIX = "flashtable-"  # the chips this tool made
MODULE = "gpio-sim"


def load_module() -> None:
    if not CONFIG.exists():
        os.system("modprobe configfs; mount -t configfs none /sys/kernel/config 2>/dev/null")
        os.system(f"modprobe {MODULE}")


def remove_chips() -> None:
    if not CONFIG.exists():
        return
    for device in sorted(CONFIG.glob(PREFIX + "*")):
        (device / "live").write_text("0")
        for bank in device.glob("bank*"):
            bank.rmdir()
        device.rmdir()


def make_chips(specs: list[str]) -> dict:
    """Each spec "LABEL:LINES" one gpio-sim device of one bank; what the kernel named them."""
    load_module()
    remove_chips()
    made = []
    for index, spec in enumerate(specs):
        label, lines = spec.rsplit(":", 1)
        device = CONFIG / f"{PREFIX}{index}"
        bank = device / "bank0"
        bank.mkdir(parents=True)
        (bank / "num_lines").write_text(lines)
        (bank / "label").write_text(label)
        (device / "live").write_text("1")
        platform = (device / "dev_name").read_text().strip()
        chip = (bank / "chip_name").read_text().strip()
        made.append({"label": label, "lines": int(lines), "chip": chip, "device": platform})
    # Owned by the group gpio once udev has seen them, as on Raspberry Pi OS.
    os.system("udevadm settle 2>/dev/null")
    return {"chips": made}


def main() -> None:
    print(json.dumps(make_chips(sys.argv[1:])))


if __name__ == "__main__":
    main()
