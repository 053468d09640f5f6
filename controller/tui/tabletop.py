"""The round table seen from above: the seats around its edge, SLAP and play/pause inside."""

from __future__ import annotations

import math

from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget

from .buttons import SeatButton, TableButton

SEAT_WIDTH, SEAT_HEIGHT = 7, 3


def seat_places(seats: int, width: int, height: int) -> list[tuple[int, int]]:
    """Top-left corners of the seat boxes, evenly round an ellipse, seat 1 at the top.

    Seats go clockwise as players sit round the real table.
    """
    half_w = max(width - SEAT_WIDTH, 0) / 2
    half_h = max(height - SEAT_HEIGHT, 0) / 2
    places = []
    for index in range(seats):
        angle = -math.pi / 2 + 2 * math.pi * index / seats
        x = round(half_w + half_w * math.cos(angle))
        y = round(half_h + half_h * math.sin(angle))
        places.append((x, y))
    return places


def table_outline(width: int, height: int) -> list[str]:
    """The table's rim as a ring of dots inside the seats."""
    grid = [[" "] * width for _ in range(height)]
    centre_x, centre_y = (width - 1) / 2, (height - 1) / 2
    radius_x = max(width / 2 - SEAT_WIDTH - 1, 1)
    radius_y = max(height / 2 - SEAT_HEIGHT + 0.5, 1)
    steps = 4 * (width + height)
    for step in range(steps):
        angle = 2 * math.pi * step / steps
        x = round(centre_x + radius_x * math.cos(angle))
        y = round(centre_y + radius_y * math.sin(angle))
        if 0 <= x < width and 0 <= y < height:
            grid[y][x] = "·"
    return ["".join(row) for row in grid]


class TableTop(Widget):
    """The table with `seats` stations; keeps the seats on its rim as it is resized."""

    DEFAULT_CSS = """
    TableTop { width: 1fr; height: 1fr; min-height: 13; }
    TableTop > #slap, TableTop > #play_pause { position: absolute; }
    TableTop > #slap { width: 10; }
    TableTop > #play_pause { width: 10; }
    """

    def __init__(self, seats: int) -> None:
        super().__init__(id="tabletop")
        self.seats = seats

    def compose(self) -> ComposeResult:
        for seat in range(1, self.seats + 1):
            yield SeatButton(seat)
        yield TableButton("slap", "SLAP", id="slap")
        yield TableButton("play_pause", "▶ ‖", id="play_pause")

    def render(self) -> Text:
        width, height = self.content_size
        return Text("\n".join(table_outline(width, height)), style="grey42")

    def on_resize(self) -> None:
        width, height = self.content_size
        for seat, (x, y) in enumerate(seat_places(self.seats, width, height), start=1):
            self.query_one(f"#seat{seat}", SeatButton).styles.offset = (x, y)
        middle_x, middle_y = width // 2, height // 2
        self.query_one("#slap").styles.offset = (middle_x - 5, middle_y - 3)
        self.query_one("#play_pause").styles.offset = (middle_x - 5, middle_y)
