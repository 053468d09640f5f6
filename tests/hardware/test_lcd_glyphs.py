"""The timer bar's own glyphs, as the LCD's CGRAM holds them: a cell of 5x8 pixels with one
to four of its pixel columns lit from the left (the solid block is the ROM's own)."""

from controller.game.lcd_glyphs import BAR, BAR_1, BAR_2, BAR_3, BAR_4, CUSTOM_CHARS


def pixels(bitmap: tuple[int, ...]) -> list[str]:
    """The glyph as the glass shows it, top row first: "#" lit, "." dark."""
    assert all(0 <= row < 32 for row in bitmap)  # five pixels a row
    return [format(row, "05b").replace("1", "#").replace("0", ".") for row in bitmap]


def test_each_bar_glyph_lights_its_fifths_of_the_cell_from_the_left_in_every_row():
    for columns, glyph in enumerate((BAR_1, BAR_2, BAR_3, BAR_4), start=1):
        assert BAR[columns] == glyph
        assert pixels(CUSTOM_CHARS[ord(glyph)]) == ["#" * columns + "." * (5 - columns)] * 8


def test_every_custom_glyph_is_eight_rows_of_five_pixels():
    assert len(CUSTOM_CHARS) == 8  # the CGRAM's eight slots
    for bitmap in CUSTOM_CHARS:
        assert len(bitmap) == 8
        pixels(bitmap)
