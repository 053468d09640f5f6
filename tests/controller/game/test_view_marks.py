"""The seated lights while a hit's chime sounds in Extreme mode: they blink, and on the
ascending profile they quicken with every miss, as the newest originals do (SPEC §2.4)."""

import pytest

from controller.game.events import Configure
from controller.game.launch import CHIME_TIME
from controller.game.state import Phase

from .driver import Game

# The seated lights during a chime on the ascending profile, after 0, 1, 2 and 3+ misses.
QUICKENING = ("blink", "blink_fast", "flash", "flash")


def extreme_game(profile: str, seed: int, **settings) -> Game:
    game = Game(
        {"mode": "extreme", "launcher_profile": profile, **settings},
        has_launcher=True,
        seed=seed,
    )
    game.seat(1, 2, 3)
    game.tap("play_pause")
    assert game.table.phase is Phase.EXTREME
    return game


def chime_lights(game: Game) -> tuple[set[str], bool]:
    """Press the launcher: the seated lights while its chime sounds, and whether it fired."""
    game.tap("launcher")
    assert game.table.launcher.chimes
    lights = set(game.view.lights[:3])
    game.wait(CHIME_TIME)
    assert not game.table.launcher.chimes
    assert set(game.view.lights[:3]) == {"on"}
    return lights, game.announced("hit")[-1]["drawn"] > 0


@pytest.mark.parametrize("seed", range(4))
def test_ascending_lights_quicken_with_the_misses_before_each_chime_not_its_outcome(seed):
    # The lights are part of the suspense: while the chime sounds they show how many presses
    # missed before it, never whether this one will fire.
    game = extreme_game("ascending", seed)
    misses, fired = 0, 0
    for _ in range(16):
        lights, fires = chime_lights(game)
        assert lights == {QUICKENING[min(misses, 3)]}
        misses = 0 if fires else misses + 1
        fired += fires
    assert fired >= 4  # at least one in four presses fires


def test_other_profiles_blink_through_every_chime_however_many_missed():
    game = extreme_game("custom", 1, custom_chance=5)
    results = [chime_lights(game) for _ in range(8)]
    assert sum(not fires for _, fires in results) >= 4
    assert all(lights == {"blink"} for lights, _ in results)


def test_after_many_misses_on_another_profile_the_ascending_lights_flash():
    # The misses count on under any profile; a switch to ascending goes on from them.
    game = extreme_game("custom", 1, custom_chance=5)
    misses = 0
    while misses < 5:
        _, fires = chime_lights(game)
        misses = 0 if fires else misses + 1
    game.feed(Configure(game.table.settings.replace({"launcher_profile": "ascending"}), game.now))
    lights, _ = chime_lights(game)
    assert lights == {"flash"}


def test_with_two_chimes_sounding_the_lights_follow_the_later_one_as_the_buzzer_does():
    # A second press cuts the first chime off: the lights go on at the second one's pace.
    seen = set()
    for seed in range(6):
        game = extreme_game("ascending", seed)
        mark = game.mark()
        game.tap("launcher")
        game.tap("launcher")
        assert len(game.table.launcher.chimes) == 2
        first_missed = game.announced("hit", mark)[0]["drawn"] == 0
        chimes = [s for s in game.sounds(mark) if s.startswith("chime")]
        assert chimes[-1] == f"chime{int(first_missed)}"
        assert set(game.view.lights[:3]) == {QUICKENING[int(first_missed)]}
        seen.add(first_missed)
    assert seen == {True, False}


@pytest.mark.parametrize(
    ("profile", "header"),
    [
        ("classic", "Extreme  classic"),
        ("mild", "Extreme     mild"),
        ("custom", "Extreme   custom"),
        ("ascending", "Ext. ascending"),
    ],
)
def test_the_extreme_header_keeps_the_mode_and_the_profile_two_words(profile, header):
    # "ascending" fills the room "Extreme" leaves: the mode is shortened, not run into it.
    game = extreme_game(profile, 0)
    assert game.lines[0] == header
