"""The one settings model: every setting the operator can change, typed, with its default,
the values it allows (in menu order), its unit and its menu label. The config file, the
settings file, the menu and MQTT all go through `Setting.parse`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

Value = int | str


class SettingError(ValueError):
    """A value a setting does not allow; the message is one line naming the setting."""


@dataclass(frozen=True)
class Setting:
    key: str
    label: str
    default: Value
    options: tuple[Value, ...]
    unit: str = ""

    def parse(self, raw: object) -> Value:
        """The allowed value that `raw` stands for (6, "6" and "6s" are all 6 seconds)."""
        value: object = raw
        if isinstance(raw, str):
            text = raw.strip().lower().removesuffix(self.unit).strip()
            value = int(text) if text.lstrip("-").isdigit() else text
        if isinstance(value, bool) or value not in self.options:
            raise SettingError(f"{self.key} cannot be {raw!r}; allowed: {self.allowed()}")
        return value  # type: ignore[return-value]

    def allowed(self) -> str:
        numbers = [o for o in self.options if isinstance(o, int)]
        words = [o for o in self.options if isinstance(o, str)]
        parts = list(words)
        if numbers:
            lo, hi = min(numbers), max(numbers)
            span = f"{lo}-{hi}" if len(numbers) == hi - lo + 1 else ", ".join(map(str, numbers))
            parts.append(span + (f" {self.unit}" if self.unit else ""))
        return ", ".join(parts)

    def text(self, value: Value) -> str:
        """The value as the LCD shows it, with its unit."""
        return f"{value} {self.unit}" if isinstance(value, int) and self.unit else str(value)


TIMER_SECONDS = tuple(range(2, 31))

SETTINGS: tuple[Setting, ...] = (
    Setting("mode", "Mode", "table", ("flash", "extreme", "table")),
    Setting("turn_timer", "Turn timer", 6, ("off", *TIMER_SECONDS), "s"),
    Setting("timeout_penalty", "Timeout penalty", 2, tuple(range(0, 5)), "cards"),
    Setting("picker", "Turn picker", "classic", ("classic", "fair")),
    Setting("volume", "Volume", "high", ("off", "low", "high")),
)

BY_KEY: Mapping[str, Setting] = {s.key: s for s in SETTINGS}


class Settings(Mapping[str, Value]):
    """An immutable, valid set of values for every setting; read as `settings.turn_timer`."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Value] | None = None) -> None:
        merged = {s.key: s.default for s in SETTINGS}
        for key, raw in (values or {}).items():
            merged[key] = setting(key).parse(raw)
        object.__setattr__(self, "_values", merged)

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
        return Settings({**self._values, **changes})  # type: ignore[dict-item]

    @classmethod
    def lenient(cls, raw: Mapping[str, object]) -> tuple[Settings, list[str]]:
        """Settings from a file: unknown keys and bad values are left out, each with a reason."""
        good: dict[str, Value] = {}
        problems: list[str] = []
        for key, value in raw.items():
            try:
                good[key] = setting(key).parse(value)
            except SettingError as err:
                problems.append(str(err))
        return cls(good), problems


def setting(key: str) -> Setting:
    try:
        return BY_KEY[key]
    except KeyError:
        raise SettingError(f"no setting named {key!r}") from None
