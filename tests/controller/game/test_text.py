"""The LCD's rows: a value and its label on one line, never a number cut."""

import re

from hypothesis import example, given
from hypothesis import strategies as st

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
