"""The settings the rules use: ranges, defaults, labels, and the surprise bounds kept in order."""

import pytest

from controller.errors import CrossedBounds, SettingError
from controller.settings import SETTINGS, Settings, dragged, setting


def test_the_rule_settings_and_their_defaults():
    s = Settings()
    assert (s.slap_window, s.slap_penalty, s.jump_in, s.sleep_time) == (3, 2, "off", 10)
    assert (s.surprise_min, s.surprise_max) == (3, 8)
    assert [s[f"handicap_seat{n}"] for n in range(1, 9)] == [0] * 8
    assert setting("slap_window").options == tuple(range(1, 11))
    assert setting("slap_penalty").options == (0, 1, 2, 3, 4)
    assert setting("sleep_time").options == ("off", *range(1, 61))
    assert setting("handicap_seat5").options == tuple(range(0, 11))
    assert setting("turn_timer").options[-1] == "surprise"


def test_every_label_fits_the_lcd():
    assert all(len(s.label) <= 16 for s in SETTINGS)
    assert len({s.key for s in SETTINGS}) == len(SETTINGS)


@pytest.mark.parametrize(
    ("key", "raw", "value"),
    [
        ("turn_timer", "surprise", "surprise"),
        ("turn_timer", " Surprise ", "surprise"),
        ("turn_timer", "6s", 6),
        ("sleep_time", "15 min", 15),
        ("sleep_time", "off", "off"),
        ("handicap_seat3", "10s", 10),
        ("jump_in", "on", "on"),
    ],
)
def test_values_parse_with_or_without_their_unit(key, raw, value):
    assert setting(key).parse(raw) == value


def test_allowed_values_are_listed_in_menu_order():
    assert setting("turn_timer").allowed() == "off, 2-30 s, surprise"
    assert setting("sleep_time").allowed() == "off, 1-60 min"
    assert setting("jam_time").allowed() == "300-3000 ms in steps of 100"
    assert setting("brightness").allowed() == "10-100 % in steps of 10"
    assert setting("custom_min").allowed() == "1-12 cards"


def test_one_card_is_one_card():
    assert setting("timeout_penalty").text(1) == "1 card"
    assert setting("timeout_penalty").text(2) == "2 cards"
    assert setting("slap_window").text(1) == "1 s"


@pytest.mark.parametrize(
    ("key", "raw"), [("slap_window", 0), ("slap_window", 11), ("handicap_seat1", 11)]
)
def test_out_of_range_values_are_refused(key, raw):
    with pytest.raises(SettingError, match=key):
        setting(key).parse(raw)


def bounds(settings: Settings) -> tuple[int, int]:
    return settings.surprise_min, settings.surprise_max


def test_one_surprise_bound_past_the_others_value_is_refused_naming_both():
    with pytest.raises(
        CrossedBounds, match=r"^surprise_min \(12\) cannot be above surprise_max \(8\)$"
    ):
        Settings().replace({"surprise_min": 12})
    with pytest.raises(
        CrossedBounds, match=r"^surprise_min \(3\) cannot be above surprise_max \(2\)$"
    ):
        Settings().replace({"surprise_max": 2})
    with pytest.raises(CrossedBounds, match="surprise_min"):
        Settings({"surprise_min": 20})
    assert bounds(Settings().replace({"surprise_min": 8})) == (8, 8)


def test_the_menus_turn_past_the_other_bound_names_both_in_its_change():
    settings = Settings()
    assert dragged(settings, "surprise_min", 12) == {"surprise_min": 12, "surprise_max": 12}
    assert dragged(settings, "surprise_max", 2) == {"surprise_max": 2, "surprise_min": 2}
    assert dragged(settings, "custom_max", 9) == {"custom_max": 9}
    assert dragged(settings, "turn_timer", 9) == {"turn_timer": 9}
    assert bounds(settings.replace(dragged(settings, "surprise_min", 12))) == (12, 12)


def test_setting_both_surprise_bounds_the_wrong_way_round_is_refused():
    with pytest.raises(SettingError, match="surprise_min"):
        Settings().replace({"surprise_min": 9, "surprise_max": 5})
    with pytest.raises(SettingError, match="surprise_min"):
        Settings({"surprise_min": 9, "surprise_max": 5})
    assert Settings().replace({"surprise_min": 5, "surprise_max": 5}).surprise_max == 5


def test_a_whole_number_written_as_a_float_is_refused():
    with pytest.raises(SettingError, match=r"turn_timer cannot be 6\.0"):
        Settings({"turn_timer": 6.0})
