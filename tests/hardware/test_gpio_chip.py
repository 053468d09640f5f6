"""Which GPIO chip drives the table: the Raspberry Pi's by its label, or the one the config
names; its lines are the pin map's BCM numbers. (The chips themselves are the booted tests':
tests/boot/test_pins.py.)"""

import pytest

from hardware.device_errors import PinFactoryUnavailable
from hardware.gpio_chip import Chip, board_info, find_chip


def test_without_a_pis_chip_the_table_asks_for_one_to_be_named(tmp_path):
    with pytest.raises(PinFactoryUnavailable) as err:
        find_chip(None, tmp_path)
    assert str(err.value) == (
        "no Raspberry Pi GPIO controller among the GPIO chips (none this user may open): "
        "name the table's chip in [gpio] chip"
    )


@pytest.mark.parametrize("named", [7, "gpiochip7", "/dev/gpiochip7", "pinctrl-rp1"])
def test_a_chip_named_that_is_not_there_is_said_so(tmp_path, named):
    with pytest.raises(PinFactoryUnavailable, match=f"no GPIO chip {named!r}"):
        find_chip(named, tmp_path)


def test_the_chips_lines_are_the_boards_pins_by_bcm_number():
    board = board_info(Chip("/dev/gpiochip0", "gpiochip0", "pinctrl-bcm2711", 58))
    assert board.model == "Raspberry Pi 4, 400, CM4"
    for name in (17, "17", "GPIO17", "BCM17"):
        [(header, pin)] = board.find_pin(name)
        assert (header.name, pin.name) == ("gpiochip0", "GPIO17")
    assert list(board.find_pin(58)) == []
