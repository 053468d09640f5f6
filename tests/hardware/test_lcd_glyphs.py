"""The LCD's own glyphs, as its CGRAM holds them: cells of 5x8 pixels, at most eight."""

from controller.game.lcd_glyphs import ARROW_LEFT, ARROW_RIGHT, CUSTOM_CHARS


def pixels(bitmap: tuple[int, ...]) -> list[str]:
    """The glyph as the glass shows it, top row first: "#" lit, "." dark."""
    assert all(0 <= row < 32 for row in bitmap)  # five pixels a row
    return [format(row, "05b").replace("1", "#").replace("0", ".") for row in bitmap]


def test_every_custom_glyph_is_eight_rows_of_five_pixels_in_the_cgrams_eight_slots():
    assert len(CUSTOM_CHARS) <= 8
    for bitmap in CUSTOM_CHARS:
        assert len(bitmap) == 8
        pixels(bitmap)


def test_the_arrows_point_the_way_they_are_named():
    left, right = (pixels(CUSTOM_CHARS[ord(glyph)]) for glyph in (ARROW_LEFT, ARROW_RIGHT))
    assert left[3] == right[3] == "#####"  # the shaft
    assert left[2] == ".#..." and right[2] == "...#."  # the head on its side
