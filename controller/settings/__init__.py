"""The one settings model: every setting the operator can change, typed, with its default,
the values it allows (in menu order), its unit and its menu label. The config file, the
settings file, the menu and MQTT all go through `Setting.parse`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..catalogs import LANGUAGE_NAMES, LANGUAGES, N_, Words, translation
from ..errors import CrossedBounds, SettingError, shown
from .meanings import ABOUT, MEANINGS

Value = int | str
# ASCII digits only ("²" is a digit to str.isdigit), and never so many that int() balks.
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")


@dataclass(frozen=True)
class Setting:
    key: str
    label: str
    default: Value
    options: tuple[Value, ...]
    unit: str = ""
    zero: str = ""  # the word for 0, where 0 turns the setting off ("off")

    @property
    def about(self) -> str:
        """What the setting does, in one line, for wherever it is chosen."""
        return ABOUT[self.key.rstrip("0123456789")]  # handicap_seat3: handicap_seat

    def explain(self, value: Value) -> str:
        """The line that says what `value` does: a word option's own, or the setting's."""
        return MEANINGS.get(self.key, {}).get(str(value), self.about)

    def parse(self, raw: object) -> Value:
        """The allowed value that `raw` stands for (6, "6" and "6s" are all 6 seconds)."""
        value: object = raw
        if isinstance(raw, str):
            text = raw.strip().lower()
            # Only a number may carry the unit: "surprise" must not lose its last "s".
            number = text.removesuffix(self.unit).strip() if self.unit else text
            value = int(number) if _WHOLE_NUMBER.fullmatch(number) else text
            if self.zero and value == self.zero:
                value = 0
        # 6.0 == 6 in Python, but a setting is a whole number or a word, never a float.
        if not isinstance(value, int | str) or isinstance(value, bool) or value not in self.options:
            raise SettingError(f"{self.key} cannot be {shown(raw)}; allowed: {self.allowed()}")
        return value

    def allowed(self) -> str:
        """The options in menu order, each run of whole numbers as a span with its unit."""
        parts: list[str] = []
        numbers: list[int] = []
        for option in (*self.options, None):
            if isinstance(option, int) and not (option == 0 and self.zero):
                numbers.append(option)
                continue
            if numbers:
                parts.append(self._span(numbers))
                numbers = []
            if option is not None:
                parts.append(f"0 ({self.zero})" if option == 0 else str(option))
        return ", ".join(parts)

    def _span(self, numbers: list[int]) -> str:
        """ "300-3000 ms in steps of 100", "1-12 cards", or each number if no step fits."""
        unit = f" {self.unit}" if self.unit else ""
        if len(numbers) == 1:
            return self.text(numbers[0])
        step = numbers[1] - numbers[0]
        if any(b - a != step for a, b in itertools.pairwise(numbers)):
            return ", ".join(map(str, numbers)) + unit
        steps = f" in steps of {step}" if step != 1 else ""
        return f"{numbers[0]}-{numbers[-1]}{unit}{steps}"

    def text(self, value: Value, words: Words | None = None) -> str:
        """The value as the LCD shows it, with its unit, in the language of `words` (English
        without): "2 cards", "2 Karten"; a language by its own name."""
        t = words or translation("en")
        if value == 0 and self.zero:
            return t.gettext(self.zero)
        if self.key == "language":
            return LANGUAGE_NAMES[str(value)]
        if isinstance(value, str):
            return t.gettext(value)
        if self.unit == "cards":
            return t.ngettext("{n} card", "{n} cards", value).format(n=value)
        if self.unit == "points":
            return t.ngettext("{n} point", "{n} points", value).format(n=value)
        return f"{value} {self.unit}" if self.unit else str(value)

    def label_in(self, words: Words) -> str:
        """The menu label in the language of `words`: every seat's handicap one text."""
        seat = self.key.removeprefix("handicap_seat")
        if seat != self.key:
            return words.gettext(HANDICAP_LABEL).format(n=seat)
        return words.gettext(self.label)


TIMER_SECONDS = tuple(range(2, 31))
MAX_SEATS = 8
PENALTY_CARDS = tuple(range(0, 5))
BURST_CARDS = tuple(range(1, 13))

HANDICAP_LABEL = N_("Seat {n} handicap")

# Labels and word values in English, marked for the catalogs: shown translated (Setting.text,
# Setting.label_in); the settings file, MQTT and the config keep the English word.
SETTINGS: tuple[Setting, ...] = (
    Setting("mode", N_("Mode"), "table", (N_("flash"), N_("extreme"), N_("table"))),
    Setting("turn_timer", N_("Turn timer"), 6, (N_("off"), *TIMER_SECONDS, N_("surprise")), "s"),
    Setting("surprise_min", N_("Surprise min"), 3, TIMER_SECONDS, "s"),
    Setting("surprise_max", N_("Surprise max"), 8, TIMER_SECONDS, "s"),
    Setting("timeout_penalty", N_("Timeout penalty"), 2, PENALTY_CARDS, "cards"),
    Setting("slap_window", N_("Slap window"), 3, tuple(range(1, 11)), "s"),
    Setting("slap_penalty", N_("Slap penalty"), 2, PENALTY_CARDS, "cards"),
    Setting("picker", N_("Turn picker"), "classic", (N_("classic"), N_("fair"))),
    Setting("jump_in", N_("Jump-In"), "off", (N_("off"), N_("on"))),
    # "first": the first player out wins and the round ends; "places": the house rule
    # Weiterspielen, play on until every place is taken.
    Setting("finish", N_("Finish"), "first", (N_("first"), N_("places"))),
    # UNO's official score: first to 500 (0: off).
    Setting(
        "target_score", N_("Score to win"), 500, (0, *range(100, 1001, 50)), "points", N_("off")
    ),
    Setting("hit_ends_turn", N_("Hit ends turn"), "off", (N_("off"), N_("on"))),
    Setting("sleep_time", N_("Sleep time"), 10, (N_("off"), *range(1, 61)), "min"),
    Setting(
        "launcher_profile",
        N_("Launcher"),
        "classic",
        (N_("classic"), N_("mild"), N_("wild"), N_("ascending"), N_("custom")),
    ),
    Setting("custom_chance", N_("Custom chance"), 33, tuple(range(5, 101)), "%"),
    Setting("custom_min", N_("Custom min"), 1, BURST_CARDS, "cards"),
    Setting("custom_max", N_("Custom max"), 8, BURST_CARDS, "cards"),
    Setting("burst_cap", N_("Burst cap"), 12, (N_("off"), *range(1, 31)), "cards"),
    Setting("jam_time", N_("Jam time"), 800, tuple(range(300, 3001, 100)), "ms"),
    Setting("volume", N_("Volume"), "high", (N_("off"), N_("low"), N_("high"))),
    Setting("brightness", N_("Brightness"), 100, tuple(range(10, 101, 10)), "%"),
    Setting("language", N_("Language"), "en", LANGUAGES),
    *(
        Setting(f"handicap_seat{n}", HANDICAP_LABEL.format(n=n), 0, tuple(range(0, 11)), "s")
        for n in range(1, MAX_SEATS + 1)
    ),
)

BY_KEY: Mapping[str, Setting] = {s.key: s for s in SETTINGS}


class Settings(Mapping[str, Value]):
    """An immutable, valid set of values for every setting; read as `settings.turn_timer`."""

    __slots__ = ("_values",)
    _values: dict[str, Value]

    # What `settings.key` holds: one line per setting of SETTINGS (a test holds them equal).
    mode: str
    turn_timer: int | str  # 2-30 s, "off" or "surprise"
    surprise_min: int
    surprise_max: int
    timeout_penalty: int
    slap_window: int
    slap_penalty: int
    picker: str
    jump_in: str
    finish: str
    target_score: int  # 100-1000 points, 0: off
    hit_ends_turn: str
    sleep_time: int | str  # minutes or "off"
    launcher_profile: str
    custom_chance: int
    custom_min: int
    custom_max: int
    burst_cap: int | str  # cards or "off"
    jam_time: int
    volume: str
    brightness: int
    language: str  # en, de or zh
    handicap_seat1: int
    handicap_seat2: int
    handicap_seat3: int
    handicap_seat4: int
    handicap_seat5: int
    handicap_seat6: int
    handicap_seat7: int
    handicap_seat8: int

    def __init__(self, values: Mapping[str, object] | None = None) -> None:
        defaults: dict[str, Value] = {s.key: s.default for s in SETTINGS}
        object.__setattr__(self, "_values", _merge(defaults, values or {}))

    def __getattr__(self, key: str) -> Value:
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(key) from None

    def __getitem__(self, key: str) -> Value:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Settings({self._values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Settings) and self._values == other._values

    def replace(self, changes: Mapping[str, object]) -> Settings:
        """These settings with `changes` applied; raises SettingError naming a bad one."""
        new = object.__new__(Settings)
        object.__setattr__(new, "_values", _merge(self._values, changes))
        return new


# Every pair of settings that bound a range from below and above.
BOUNDS = (("surprise_min", "surprise_max"), ("custom_min", "custom_max"))


def _merge(base: Mapping[str, Value], changes: Mapping[str, object]) -> dict[str, Value]:
    """`base` with `changes` parsed and applied. A pair of BOUNDS left with its smaller above
    its larger raises CrossedBounds naming both, whether the change moved one or both: a
    change never moves a setting it does not name (the menu's turn names both, `dragged`)."""
    merged = {**base, **parsed(changes)}
    _uncrossed(merged)
    return merged


def parsed(changes: Mapping[str, object]) -> dict[str, Value]:
    """`changes` as their settings' values, checked as far as any table would: each value
    alone, and a pair of bounds named together; raises SettingError naming what it refuses.
    Whether a bound passes the other's value on a table is for that table to say."""
    values = {key: setting(key).parse(raw) for key, raw in changes.items()}
    _uncrossed(values)
    return values


def _uncrossed(values: Mapping[str, Value]) -> None:
    for low_key, high_key in BOUNDS:
        low, high = values.get(low_key), values.get(high_key)
        if isinstance(low, int) and isinstance(high, int) and low > high:
            raise CrossedBounds(low_key, high_key, (low, high))


def dragged(settings: Settings, key: str, value: Value) -> dict[str, Value]:
    """The change that sets `key` to `value`, the other bound of its pair moved along when
    the value passes it: what a turn of the menu's knob asks for."""
    change = {key: value}
    if isinstance(value, int):
        for low_key, high_key in BOUNDS:
            low, high = settings[low_key], settings[high_key]
            if key == low_key and isinstance(high, int) and value > high:
                change[high_key] = value
            elif key == high_key and isinstance(low, int) and value < low:
                change[low_key] = value
    return change


def setting(key: str) -> Setting:
    try:
        return BY_KEY[key]
    except KeyError:
        raise SettingError(f"no setting named {shown(key)}") from None


def key_value(text: str) -> tuple[str, str]:
    """A "KEY=VALUE" of the shell as (key, value); raises SettingError if it is not one."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise SettingError(f"{text!r} is not KEY=VALUE")
    return key.strip(), value.strip()


def key_values(texts: list[str]) -> dict[str, str]:
    """The shell's KEY=VALUE words as {key: value}. A word that is not one raises
    SettingError showing the form it wants: `turn_timer 5` is told `turn_timer=5`."""
    if not texts:
        raise SettingError("nothing to set: give KEY=VALUE, e.g. turn_timer=6")
    pairs: dict[str, str] = {}
    for at, text in enumerate(texts):
        try:
            key, value = key_value(text)
        except SettingError as err:
            following = texts[at + 1] if at + 1 < len(texts) else ""
            value = following if following and "=" not in following else "VALUE"
            form = f"{text.strip()}={value}" if text.strip() and "=" not in text else "KEY=VALUE"
            raise SettingError(f"{err}: write {form}") from None
        pairs[key] = value
    return pairs
