"""The LCD in the table's language: the rules decide by what a text is about, never by its
English words, so a German screen comes and goes exactly as the English one does."""

from __future__ import annotations

from controller.game import Command, Configure, Phase
from controller.game.holds import OUT_HINT
from controller.game.lcd_charset import can_show
from controller.menu.navigator import Menu, Turn, current, step
from controller.menu.tree import Context
from controller.settings import Settings

from .driver import Game

GERMAN = {"turn_timer": 6, "sleep_time": "off", "language": "de"}


def test_a_mode_chosen_during_a_german_round_and_taken_back_says_no_more():
    game = Game(GERMAN, seed=2)
    lit = game.start(1, 2)
    game.feed(Configure(game.table.settings.replace({"mode": "flash"}), game.now))
    assert game.lines == ("Flash ab", "nächster Runde")
    game.feed(Configure(game.table.settings.replace({"mode": "table"}), game.now))
    assert game.table.message is None
    assert game.lines[1].startswith(f"Sitz {lit} dran")


def test_a_german_player_going_out_who_lets_go_takes_their_banner_down():
    for seed in range(20):
        game = Game({**GERMAN, "finish": "first"}, seed=seed)
        lit = game.start(1, 2, 3)
        game.press(f"seat{lit}")  # ends the turn, lights the next one, and holds on
        if game.table.turn.seat != lit:
            break
    game.wait(OUT_HINT)
    assert game.lines[0] == f"Sitz {lit} geht raus"
    game.release(f"seat{lit}")
    assert game.lines[0] != f"Sitz {lit} geht raus" and game.table.turn.banner is None


def test_a_round_in_german_shows_german_on_every_line_it_can():
    game = Game({**GERMAN, "turn_timer": 2}, seed=4)
    assert game.lines == ("Tisch    Zeit 2s", "Drücken: dabei")
    lit = game.start(1, 2)
    assert game.lines[1].startswith(f"Sitz {lit} dran")
    game.wait(2.0)
    assert game.lines == (f"Sitz {lit} Zeit um!", "Zieh 2 Karten")
    assert all(can_show(line) and len(line) <= 16 for line in game.lines)


def test_changing_the_language_in_the_menu_keeps_the_menu_on_the_language():
    def context(language: str) -> Context:
        return Context(
            settings=Settings({"language": language}),
            phase="seating",
            stations=4,
            has_launcher=False,
            seated=0,
        )

    menu = Menu()
    while current(menu, context("en"))[1].key != "language":
        menu, _ = step(menu, Turn(1), context("en"))
    menu, _ = current(menu, context("de"))
    assert current(menu, context("de"))[1].key == "language"


def test_a_german_summary_writes_the_average_turn_with_a_decimal_comma():
    game = Game({**GERMAN, "turn_timer": "off"}, seed=1)
    lit = game.start(1, 2)
    game.wait(2.5)
    game.press(f"seat{lit}")
    game.feed(Command("new_round", game.now))
    assert game.table.phase is Phase.ROUND_OVER
    [over] = game.announced("round_over")
    [average] = [s["average_turn"] for s in over["seats"] if s["seat"] == lit]
    game.tap(f"seat{lit}", hold=0.05)  # a seated press brings up that seat's screens
    assert game.lines == (
        f"Sitz {lit}     1 Zug",
        "Mittl. Zug  " + f"{average:.1f}s".replace(".", ","),
    )
    assert game.lines[1].endswith(" 2,6s")  # the turn began as Play/Pause went down
