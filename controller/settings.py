"""The one settings model: every setting the operator can change, typed, with its default,
the values it allows (in menu order), its unit and its menu label. The config file, the
settings file, the menu and MQTT all go through `Setting.parse`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from .errors import CrossedBounds, SettingError, shown

Value = int | str
# ASCII digits only ("²" is a digit to str.isdigit), and never so many that int() balks.
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")


# A unit read for a count of one: "1 card", not "1 cards".
ONE_OF = {"cards": "card"}


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
        return ABOUT[self.key]

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

    def text(self, value: Value) -> str:
        """The value as the LCD shows it, with its unit."""
        if value == 0 and self.zero:
            return self.zero
        if not isinstance(value, int) or not self.unit:
            return str(value)
        return f"{value} {ONE_OF.get(self.unit, self.unit) if value == 1 else self.unit}"


TIMER_SECONDS = tuple(range(2, 31))
MAX_SEATS = 8
PENALTY_CARDS = tuple(range(0, 5))
BURST_CARDS = tuple(range(1, 13))

SETTINGS: tuple[Setting, ...] = (
    Setting("mode", "Mode", "table", ("flash", "extreme", "table")),
    Setting("turn_timer", "Turn timer", 6, ("off", *TIMER_SECONDS, "surprise"), "s"),
    Setting("surprise_min", "Surprise min", 3, TIMER_SECONDS, "s"),
    Setting("surprise_max", "Surprise max", 8, TIMER_SECONDS, "s"),
    Setting("timeout_penalty", "Timeout penalty", 2, PENALTY_CARDS, "cards"),
    Setting("slap_window", "Slap window", 3, tuple(range(1, 11)), "s"),
    Setting("slap_penalty", "Slap penalty", 2, PENALTY_CARDS, "cards"),
    Setting("picker", "Turn picker", "classic", ("classic", "fair")),
    Setting("jump_in", "Jump-In", "off", ("off", "on")),
    # "first": the first player out wins and the round ends; "places": the house rule
    # Weiterspielen, play on until every place is taken.
    Setting("finish", "Finish", "first", ("first", "places")),
    # UNO's official score: first to 500 (0: off).
    Setting("target_score", "Score to win", 500, (0, *range(100, 1001, 50)), "points", "off"),
    Setting("hit_ends_turn", "Hit ends turn", "off", ("off", "on")),
    Setting("sleep_time", "Sleep time", 10, ("off", *range(1, 61)), "min"),
    Setting(
        "launcher_profile",
        "Launcher",
        "classic",
        ("classic", "mild", "wild", "ascending", "custom"),
    ),
    Setting("custom_chance", "Custom chance", 33, tuple(range(5, 101)), "%"),
    Setting("custom_min", "Custom min", 1, BURST_CARDS, "cards"),
    Setting("custom_max", "Custom max", 8, BURST_CARDS, "cards"),
    Setting("burst_cap", "Burst cap", 12, ("off", *range(1, 31)), "cards"),
    Setting("jam_time", "Jam time", 800, tuple(range(300, 3001, 100)), "ms"),
    Setting("volume", "Volume", "high", ("off", "low", "high")),
    Setting("brightness", "Brightness", 100, tuple(range(10, 101, 10)), "%"),
    *(
        Setting(f"handicap_seat{n}", f"Seat {n} handicap", 0, tuple(range(0, 11)), "s")
        for n in range(1, MAX_SEATS + 1)
    ),
)

BY_KEY: Mapping[str, Setting] = {s.key: s for s in SETTINGS}

# What each setting does, and each word option, in one line each: the LCD menu shows the line
# of the value being chosen, as do the view's help, the web remote and docs/config.md.
ABOUT: Mapping[str, str] = {
    "mode": "What the table plays.",
    "turn_timer": "How long the lit player has to press their button.",
    "surprise_min": "The shortest secret limit of a surprise turn.",
    "surprise_max": "The longest secret limit of a surprise turn.",
    "timeout_penalty": "Cards for a player whose time runs out.",
    "slap_window": "How long the others have to hit their buttons after a SLAP.",
    "slap_penalty": "Cards for the slowest player of a SLAP race.",
    "picker": "How the next player is picked.",
    "jump_in": "Whether a player may play an identical card out of turn.",
    "finish": "How a round ends.",
    "target_score": "The total of card points that wins the game.",
    "hit_ends_turn": "Whether the lit player's launcher press ends their turn.",
    "sleep_time": "Minutes without a press before the table pauses and goes dark.",
    "launcher_profile": "How often the launcher fires, and how many cards.",
    "custom_chance": "How often a press fires, on the custom profile.",
    "custom_min": "The smallest burst of the custom profile.",
    "custom_max": "The largest burst of the custom profile.",
    "burst_cap": "The most cards one player gets from hits within 10 s.",
    "jam_time": "How long the roller may run with no card out before it stops: a jam.",
    "volume": "How loud the buzzer sounds.",
    "brightness": "How bright the seat lights shine.",
    **{
        f"handicap_seat{n}": "Extra seconds on every turn of this seat, for younger players."
        for n in range(1, MAX_SEATS + 1)
    },
}
MEANINGS: Mapping[str, Mapping[str, str]] = {
    "mode": {
        "flash": "Random turns and timers; draw by hand, penalties on the LCD.",
        "extreme": "The launcher alone: each press a random hit; no turns.",
        "table": "Flash and Extreme: random turns, the launcher deals penalties.",
    },
    "turn_timer": {
        "off": "No time limit: the lit player takes their time.",
        "surprise": "A secret limit each turn, between Surprise min and max.",
    },
    "picker": {
        "classic": "Anyone, at random: the same player may come up again and again.",
        "fair": "Never 3 times running; the longer you wait, the likelier you are.",
    },
    "jump_in": {
        "off": "Only the lit player plays.",
        "on": "Hold your button 0.6 s to jump in with an identical card.",
    },
    "finish": {
        "first": "The first player out wins, and the round ends.",
        "places": "Play on: each player out takes the next place.",  # Weiterspielen
    },
    "target_score": {"0": "No score kept: enter no points after a round."},
    "hit_ends_turn": {
        "off": "The timer waits while the cards fly; then press your button.",
        "on": "UNO Attack's rule: the turn ends once the cards have landed.",
    },
    "sleep_time": {"off": "The table never sleeps."},
    "launcher_profile": {
        "classic": "Fires about 1 press in 3; 1 to 8 cards, mostly 3 to 5.",
        "mild": "Fires about 1 press in 4; 1 to 3 cards.",
        "wild": "Fires about 1 press in 2; 2 to 12 cards.",
        "ascending": "Likelier with every miss: it fires by the 4th press.",
        "custom": "Your own chance and burst sizes (Custom launcher).",
    },
    "burst_cap": {"off": "No cap: every burst lands in full."},
    "volume": {"off": "Silent.", "low": "Quiet tones.", "high": "Full tones."},
}


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

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._values.items(), key=lambda kv: kv[0])))

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
