"""Untrusted input from the broker: `settings/set` and `command` payloads, checked before
anything changes. Each check either returns what to do or raises `Refused` with the reason
that goes back on `error`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..requests import MAX_DEAL
from ..safe_read import Damaged, parse_json
from ..settings import SettingError, Settings

MAX_PAYLOAD = 1024  # bytes: every setting at once fits in a third of it
ACTIONS = ("start", "pause", "resume", "new_round", "dispense")
MAX_REASON = 160  # characters: a reason never echoes a huge value back


class Refused(ValueError):
    """An inbound message that changes nothing; the message is the reason, one line."""


@dataclass(frozen=True)
class Order:
    """A command from the broker: an action, and the cards for `dispense`."""

    action: str
    cards: int = 0


def _json_object(payload: bytes) -> dict[str, object]:
    if len(payload) > MAX_PAYLOAD:
        raise Refused(f"payload of {len(payload)} bytes is over the limit of {MAX_PAYLOAD}")
    try:
        value = parse_json(payload)  # bounded as every file the daemon reads is
    except Damaged as err:
        raise Refused(f"payload: {err}") from None
    if not isinstance(value, dict):
        raise Refused(f"payload must be a JSON object, not {type(value).__name__}")
    return value


def settings_update(payload: bytes, current: Settings) -> Settings:
    """The settings after a partial update, checked by the one settings model."""
    changes = _json_object(payload)
    if not changes:
        raise Refused("nothing to set: the object is empty")
    try:
        return current.replace(changes)
    except SettingError as err:
        raise Refused(_short(str(err), MAX_REASON)) from None


def order(payload: bytes) -> Order:
    """A command: `{"action": ...}`, with `"cards"` for `dispense`."""
    body = _json_object(payload)
    action = body.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        raise Refused(f"action must be one of {', '.join(ACTIONS)}, not {_short(repr(action))}")
    allowed = {"action", "cards"} if action == "dispense" else {"action"}
    extra = sorted(set(body) - allowed)
    if extra:
        raise Refused(f"{action} takes no {_short(repr(extra[0]))}")
    if action != "dispense":
        return Order(action)
    cards = body.get("cards")
    if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= MAX_DEAL:
        raise Refused(f"dispense needs cards, a whole number 1 to {MAX_DEAL}")
    return Order(action, cards)


def reply(topic: str, reason: str) -> Mapping[str, str]:
    """The `error` payload: the topic the refused message came on, and why."""
    return {"topic": topic, "reason": reason}


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
