"""What a remote sends in, checked before anything changes: a settings update and a command
(MQTT's `settings/set` and `command`, the web page's POSTs). Each check either returns what
to do or raises `MessageRefused` with the reason the remote gives back.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import DamagedFile, MessageRefused, SettingError
from ..requests import MAX_DEAL, ChangeSettings, EnterPoints, NameSeat
from ..storage.safe_read import parse_json

MAX_PAYLOAD = 1024  # bytes: every setting at once fits in a third of it
ACTIONS = ("start", "pause", "resume", "new_round", "dispense", "name", "points")
# What each action takes beside "action".
FIELDS = {"dispense": {"cards"}, "name": {"seat", "name"}, "points": {"seat", "points"}}
MAX_REASON = 160  # characters: a reason never echoes a huge value back


@dataclass(frozen=True)
class Order:
    """A command from a remote: an action, the cards for `dispense`, and for `name` and
    `points` what they ask, checked."""

    action: str
    cards: int = 0
    asked: NameSeat | EnterPoints | None = None


def _json_object(payload: bytes) -> dict[str, object]:
    if len(payload) > MAX_PAYLOAD:
        raise MessageRefused(f"payload of {len(payload)} bytes is over the limit of {MAX_PAYLOAD}")
    try:
        value = parse_json(payload)  # bounded as every file the daemon reads is
    except DamagedFile as err:
        raise MessageRefused(f"payload: {err}") from None
    if not isinstance(value, dict):
        raise MessageRefused(f"payload must be a JSON object, not {type(value).__name__}")
    return value


def settings_update(payload: bytes) -> ChangeSettings:
    """A partial update: the settings it names, each checked by the one settings model (the
    table merges them with its own when it carries the change out)."""
    changes = _json_object(payload)
    if not changes:
        raise MessageRefused("nothing to set: the object is empty")
    try:
        return ChangeSettings(changes)
    except SettingError as err:
        raise MessageRefused(short(str(err), MAX_REASON)) from None


def order(payload: bytes) -> Order:
    """A command: `{"action": ...}`, with `"cards"` for `dispense`, `"seat"` and `"name"`
    for `name`, `"seat"` and `"points"` for `points`."""
    body = _json_object(payload)
    action = body.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        raise MessageRefused(
            f"action must be one of {', '.join(ACTIONS)}, not {short(repr(action))}"
        )
    wanted = FIELDS.get(action, set())
    extra = sorted(set(body) - wanted - {"action"})
    if extra:
        raise MessageRefused(f"{action} takes no {short(repr(extra[0]))}")
    missing = sorted(wanted - set(body))
    if missing:
        raise MessageRefused(f"{action} needs {' and '.join(missing)}")
    fields = {key: body[key] for key in wanted}
    try:  # each checks its own values' types: a message's are anything JSON holds
        if action == "name":
            return Order(action, asked=NameSeat(**fields))  # type: ignore[arg-type]
        if action == "points":
            return Order(action, asked=EnterPoints(**fields))  # type: ignore[arg-type]
    except ValueError as err:
        raise MessageRefused(short(f"{action}: {err}", MAX_REASON)) from None
    if action != "dispense":
        return Order(action)
    cards = body.get("cards")
    if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= MAX_DEAL:
        raise MessageRefused(f"dispense needs cards, a whole number 1 to {MAX_DEAL}")
    return Order(action, cards)


def short(text: str, limit: int = 40) -> str:
    """`text`, cut to `limit` characters with "..." when longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
