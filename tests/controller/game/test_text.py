"""The LCD's rows: a value and its label on one line, never a number cut."""

import re

from hypothesis import example, given
from hypothesis import strategies as st

from controller.catalogs import ON_THE_LCD
from controller.game.launch import fault_lines
from controller.game.state import MAX_OWED, Delivery, Launcher, Table
from controller.game.text import COLUMNS, row
from controller.settings import Settings

labels = st.sampled_from(["press OK", "slaps", "Seat", "avg turn", "late", "x"])
counts = st.integers(0, 10**6)


@example("press OK", 12, "owed", 10**8)
@given(labels, counts, st.sampled_from(["owed", "turns", "cards"]), st.integers(0, 10**8))
def test_a_row_keeps_every_number_whole_and_its_value_flush_right(label, a, unit, b):
    right = f"{b} {unit}"
    line = row(f"{label} {a}", right)
    assert len(line) == COLUMNS
    assert line.endswith(" " + right)
    assert set(re.findall(r"\d+", line)) <= {str(a), str(b)}


def test_a_row_that_fits_is_left_and_right_with_spaces_between():
    assert row("press OK", "3 owed") == "press OK  3 owed"


def test_the_most_a_launcher_can_owe_shows_whole_on_its_fault_line():
    launcher = Launcher(queue=(Delivery(1, MAX_OWED, "hit"),), fault="jam")
    table = Table(settings=Settings(), stations=4, launcher=launcher)
    assert fault_lines(table) == ("JAM: clear slot", "pres OK 108 owed")


def test_the_fault_line_names_the_button_to_press_in_every_language_of_the_lcd():
    # Squeezed, a row's first word gives up its letters first: the button's name must not
    # be that word ("OK drücken" became "drücke  12 offen").
    for language in ON_THE_LCD:
        for owed in (1, 12, MAX_OWED):
            launcher = Launcher(queue=(Delivery(1, owed, "hit"),), fault="empty")
            table = Table(settings=Settings({"language": language}), stations=4, launcher=launcher)
            _, line = fault_lines(table)
            assert len(line) == COLUMNS and "OK" in line.split(), (language, line)
