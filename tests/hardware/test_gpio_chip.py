"""Which GPIO chip drives the table: the Raspberry Pi's by its label, or the one the config
names; its lines are the pin map's BCM numbers. No kernel GPIO chip exists here, so libgpiod's
`Chip` is a stand-in that opens files of a /dev of the test's own, each the chip its real
name says (the real chips are the booted tests': tests/boot/test_pins.py)."""

import errno
import os
import pwd
from types import SimpleNamespace

import gpiod
import pytest

from hardware.device_errors import PinFactoryUnavailable
from hardware.gpio_chip import Chip, board_info, chips, find_chip


class Dev:
    """A /dev of GPIO chips: `chip` adds one, `link` a udev symlink, `deny` takes a chip
    from this user (opening it fails with EACCES, as a chip of root's group `gpio` does), or
    with EPERM: a device policy's refusal (a systemd unit whose DeviceAllow= lacks it)."""

    def __init__(self, path, monkeypatch):
        self.path = path
        self.kernel: dict[str, tuple[str, int]] = {}
        self.denied: dict[str, int] = {}
        monkeypatch.setattr(gpiod, "Chip", self.open)

    def chip(self, name, label, lines):
        (self.path / name).touch()
        self.kernel[name] = (label, lines)

    def link(self, name, to):
        (self.path / name).symlink_to(to)

    def deny(self, name, code=errno.EACCES):
        self.denied[name] = code

    def open(self, path):
        name = os.path.basename(os.path.realpath(path))
        if name in self.denied:
            code = self.denied[name]
            raise PermissionError(code, os.strerror(code), path)
        if name not in self.kernel:  # a file that is no GPIO chip
            raise OSError(errno.ENOTTY, os.strerror(errno.ENOTTY), path)
        label, lines = self.kernel[name]
        return Opened(SimpleNamespace(name=name, label=label, num_lines=lines))


class Opened:
    """An open chip, as a `with` statement uses it."""

    def __init__(self, info):
        self.info = info

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def get_info(self):
        return self.info


@pytest.fixture
def dev(tmp_path, monkeypatch):
    return Dev(tmp_path, monkeypatch)


def pi5_on_a_kernel_before_6_6_45(dev):
    # The RP1's controller came after the SoC's four small ones.
    for n, lines in enumerate((32, 4, 17, 6)):
        dev.chip(f"gpiochip{n}", f"gpio-brcmstb@107d50{n}", lines)
    dev.chip("gpiochip4", "pinctrl-rp1", 54)


def test_the_pis_chip_is_found_by_its_label_whatever_its_number(dev):
    pi5_on_a_kernel_before_6_6_45(dev)
    assert find_chip(None, dev.path) == Chip(
        str(dev.path / "gpiochip4"), "gpiochip4", "pinctrl-rp1", 54, ("gpiochip4",)
    )


def test_each_pi_is_known_by_its_controllers_label(dev):
    dev.chip("gpiochip0", "pinctrl-bcm2835", 54)
    dev.chip("gpiochip1", "raspberrypi-exp-gpio", 8)
    assert board_info(find_chip(None, dev.path)).model == "Raspberry Pi Zero 2 W, 3 and older"


def test_on_raspberry_pi_os_a_pi_5s_gpiochip4_is_a_link_to_its_gpiochip0(dev):
    # Raspberry Pi OS's udev rule (60-gpiochip4.rules) keeps the name older kernels gave the
    # RP1's controller, which the table's docs once told a Pi 5's builder to write.
    dev.chip("gpiochip0", "pinctrl-rp1", 54)
    dev.chip("gpiochip10", "gpio-brcmstb@107d508500", 32)
    dev.link("gpiochip4", "gpiochip0")
    [rp1, other] = chips(dev.path).openable
    assert (rp1.name, rp1.path, rp1.names) == (
        "gpiochip0",
        str(dev.path / "gpiochip0"),
        ("gpiochip0", "gpiochip4"),
    )
    assert other.name == "gpiochip10"
    assert find_chip(None, dev.path) == rp1
    for named in (0, 4, "gpiochip4", "/dev/gpiochip4", "/dev/gpiochip0", "pinctrl-rp1"):
        assert find_chip(named, dev.path) == rp1


def test_two_pis_controllers_are_one_too_many_to_guess_between(dev):
    dev.chip("gpiochip0", "pinctrl-bcm2711", 58)
    dev.chip("gpiochip1", "pinctrl-rp1", 54)
    with pytest.raises(PinFactoryUnavailable) as err:
        find_chip(None, dev.path)
    assert str(err.value) == (
        "2 Raspberry Pi GPIO controllers (gpiochip0 'pinctrl-bcm2711' (58 lines), "
        "gpiochip1 'pinctrl-rp1' (54 lines)): name the table's chip in [gpio] chip by its number"
    )
    assert find_chip("pinctrl-rp1", dev.path).name == "gpiochip1"


def test_a_label_two_chips_share_is_refused_for_their_numbers(dev):
    dev.chip("gpiochip0", "gpio-sim", 32)
    dev.chip("gpiochip1", "gpio-sim", 32)
    with pytest.raises(PinFactoryUnavailable) as err:
        find_chip("gpio-sim", dev.path)
    assert str(err.value) == (
        "2 GPIO chips 'gpio-sim' (gpiochip0 'gpio-sim' (32 lines), gpiochip1 'gpio-sim' (32 "
        "lines)): name the table's chip in [gpio] chip by its number"
    )
    assert find_chip(1, dev.path).name == "gpiochip1"


def test_a_chip_with_fewer_lines_than_the_pin_map_is_refused(dev):
    dev.chip("gpiochip0", "gpio-sim-a", 27)
    with pytest.raises(PinFactoryUnavailable) as err:
        find_chip("gpio-sim-a", dev.path)
    assert str(err.value) == (
        "GPIO chip gpiochip0 'gpio-sim-a' (27 lines) has too few lines for the pin map (BCM 0-27)"
    )


def test_a_chip_this_user_may_not_open_is_said_so_with_the_group_it_needs(dev):
    dev.chip("gpiochip0", "pinctrl-bcm2711", 58)
    dev.chip("gpiochip1", "raspberrypi-exp-gpio", 8)
    dev.link("gpiochip4", "gpiochip0")
    dev.deny("gpiochip0")
    dev.deny("gpiochip1")
    user = pwd.getpwuid(os.geteuid()).pw_name
    denied = f"gpiochip0, gpiochip1: permission denied; the user {user} needs the group gpio"
    for named in (None, 0, "pinctrl-bcm2711"):
        with pytest.raises(PinFactoryUnavailable) as err:
            find_chip(named, dev.path)
        assert str(err.value) == denied


def test_a_chip_a_device_policy_refuses_is_said_so_with_the_line_the_unit_needs(dev):
    dev.chip("gpiochip0", "pinctrl-bcm2711", 58)
    dev.chip("gpiochip1", "raspberrypi-exp-gpio", 8)
    dev.deny("gpiochip0", errno.EPERM)
    dev.deny("gpiochip1")
    user = pwd.getpwuid(os.geteuid()).pw_name
    with pytest.raises(PinFactoryUnavailable) as err:
        find_chip(None, dev.path)
    assert str(err.value) == (
        f"gpiochip1: permission denied; the user {user} needs the group gpio; "
        "gpiochip0: refused by a device policy; a systemd unit needs DeviceAllow=char-gpiochip rw"
    )


def test_a_chip_the_user_may_open_is_the_tables_beside_one_it_may_not(dev):
    dev.chip("gpiochip0", "pinctrl-bcm2711", 58)
    dev.chip("gpiochip1", "raspberrypi-exp-gpio", 8)
    dev.deny("gpiochip1")
    assert find_chip(None, dev.path).name == "gpiochip0"


def test_without_a_pis_chip_the_table_asks_for_one_to_be_named(dev):
    dev.chip("gpiochip0", "gpio-sim-a", 32)
    (dev.path / "gpiochipX").touch()  # not a chip: passed over
    with pytest.raises(PinFactoryUnavailable) as err:
        find_chip(None, dev.path)
    assert str(err.value) == (
        "no Raspberry Pi GPIO controller among the GPIO chips (gpiochip0 'gpio-sim-a' (32 "
        "lines)): name the table's chip in [gpio] chip"
    )


def test_with_no_chip_at_all_the_table_says_so(tmp_path):
    with pytest.raises(PinFactoryUnavailable) as err:
        find_chip(None, tmp_path)
    assert str(err.value) == (
        "no Raspberry Pi GPIO controller among the GPIO chips (none this user may open): "
        "name the table's chip in [gpio] chip"
    )


@pytest.mark.parametrize("named", [7, "gpiochip7", "/dev/gpiochip7", "pinctrl-rp1"])
def test_a_chip_named_that_is_not_there_is_said_so(dev, named):
    dev.chip("gpiochip0", "pinctrl-bcm2711", 58)
    with pytest.raises(PinFactoryUnavailable) as err:
        find_chip(named, dev.path)
    assert str(err.value) == (
        f"no GPIO chip {named!r} (the chips: gpiochip0 'pinctrl-bcm2711' (58 lines))"
    )


def test_the_chips_lines_are_the_boards_pins_by_bcm_number():
    board = board_info(Chip("/dev/gpiochip0", "gpiochip0", "pinctrl-bcm2711", 58))
    assert board.model == "Raspberry Pi 4, 400, CM4"
    for name in (17, "17", "GPIO17", "BCM17"):
        [(header, pin)] = board.find_pin(name)
        assert (header.name, pin.name) == ("gpiochip0", "GPIO17")
    assert list(board.find_pin(58)) == []


def test_a_user_without_a_name_is_given_by_number(dev, monkeypatch):
    dev.chip("gpiochip0", "pinctrl-bcm2711", 58)
    dev.deny("gpiochip0")

    def nameless(uid):
        raise KeyError(uid)

    monkeypatch.setattr(pwd, "getpwuid", nameless)
    with pytest.raises(PinFactoryUnavailable) as err:
        find_chip(None, dev.path)
    assert str(err.value) == (
        f"gpiochip0: permission denied; the user {os.geteuid()} needs the group gpio"
    )
