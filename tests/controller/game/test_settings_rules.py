"""The settings the rules use: ranges, defaults, labels, and the surprise bounds kept in order."""

import pytest

from controller.catalogs import translation
from controller.errors import CrossedBounds, SettingError
from controller.settings import SETTINGS, Setting, Settings, dragged, key_value, setting


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


def test_a_setting_that_0_turns_off_reads_and_shows_its_word_and_its_numbers_with_their_unit():
    score = setting("target_score")
    assert [score.parse(raw) for raw in ("off", " OFF ", 0, "500", "500 points", 500)] == [
        0,
        0,
        0,
        500,
        500,
        500,
    ]
    assert (score.text(0), score.text(500)) == ("off", "500 points")
    assert (score.text(0, translation("de")), score.text(500, translation("de"))) == (
        "aus",
        "500 Punkte",
    )


@pytest.mark.parametrize("key", ["timeout_penalty", "target_score", "turn_timer"])
def test_an_empty_value_is_refused_even_where_0_is_allowed(key):
    with pytest.raises(SettingError, match=f"^{key} cannot be '  '; allowed: "):
        setting(key).parse("  ")


def test_a_language_is_shown_by_its_own_name_and_a_seats_handicap_names_its_seat():
    language = setting("language")
    assert [language.text(code, translation("de")) for code in ("en", "de", "zh")] == [
        "English",
        "Deutsch",
        "中文",
    ]
    assert setting("handicap_seat3").label_in(translation("de")) == "Sitz 3 Vorgabe"
    assert setting("handicap_seat3").label_in(translation("en")) == "Seat 3 handicap"


def test_allowed_values_list_a_lone_number_and_a_run_with_no_step_each_with_the_unit():
    """The rule for any options the model may hold, not only those it holds now."""
    assert Setting("x", "X", 1, (1, 2, 5), "cards").allowed() == "1, 2, 5 cards"
    assert Setting("x", "X", 3, ("auto", 3, "max", 5, 6, 7), "s").allowed() == (
        "auto, 3 s, max, 5-7 s"
    )
    unitless = Setting("x", "X", 1, (1, 2, 3))
    assert (unitless.allowed(), unitless.text(2)) == ("1-3", "2")


def test_reading_a_setting_the_model_lacks_names_it():
    with pytest.raises(AttributeError, match=r"^no_such_setting$"):
        Settings().no_such_setting  # noqa: B018


def test_a_key_value_word_splits_at_its_first_equals_sign():
    assert key_value(" turn_timer = 6=7 ") == ("turn_timer", "6=7")
