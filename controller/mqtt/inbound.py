"""Untrusted input from the broker: `settings/set` and `command` payloads, checked before
anything changes. Each check either returns what to do or raises `MessageRefused` with the reason
that goes back on `error`; `RefusalLog` counts the refusals and keeps a storm of them out of
the journal. The size limits are here too, with the packet size the broker is asked to keep.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import DamagedFile, MessageRefused, SettingError
from ..requests import MAX_DEAL, ChangeSettings, EnterPoints, NameSeat
from ..storage.safe_read import parse_json

log = logging.getLogger(__name__)

MAX_PAYLOAD = 1024  # bytes: every setting at once fits in a third of it
MAX_CORRELATION = 64  # bytes of MQTT 5 correlation data a request may carry (echoed back)
# The largest MQTT packet the table takes from the broker (MQTT 5's Maximum Packet Size, in
# its CONNECT): a payload at the limit, the longest topic it reads (a 64-character discovery
# prefix and "/status"), the correlation data, and room left for a sender's own properties
# (a response topic, user properties). A compliant broker never sends a larger one, so a
# huge message is never read whole on the table's one event loop.
MAX_PACKET = 2 * MAX_PAYLOAD
ACTIONS = ("start", "pause", "resume", "new_round", "dispense", "name", "points")
# What each action takes beside "action".
FIELDS = {"dispense": {"cards"}, "name": {"seat", "name"}, "points": {"seat", "points"}}
MAX_REASON = 160  # characters: a reason never echoes a huge value back
REFUSALS_LOGGED_EVERY = 60.0  # seconds: in a storm of refused messages, one line a minute


@dataclass(frozen=True)
class Order:
    """A command from the broker: an action, the cards for `dispense`, and for `name` and
    `points` what they ask, checked."""

    action: str
    cards: int = 0
    asked: NameSeat | EnterPoints | None = None


def correlation(data: bytes | None) -> bytes | None:
    """The correlation data a reply may echo; too much refuses the whole message, since an
    answer without it could not be matched to its request."""
    if data is not None and len(data) > MAX_CORRELATION:
        raise MessageRefused(
            f"correlation data of {len(data)} bytes is over the limit of {MAX_CORRELATION}"
        )
    return data


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
    if missing and action != "dispense":
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


def reply(topic: str, reason: str) -> Mapping[str, str]:
    """The `error` payload: the topic the refused message came on, and why."""
    return {"topic": topic, "reason": reason}


def short(text: str, limit: int = 40) -> str:
    """`text`, cut to `limit` characters with "..." when longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


class RefusalLog:
    """MessageRefused messages, counted since the daemon started, and logged without flooding the
    journal: the first at once, then while they keep coming one line per `every` seconds
    with how many more there were. The caller says the time, and calls `summarise` at `due`.
    """

    def __init__(self, every: float = REFUSALS_LOGGED_EVERY) -> None:
        self.count = 0
        self.due: float | None = None  # when the held ones are to be told; None: none held
        self._every = every
        self._since = 0.0
        self._held = 0
        self._latest = ("", "")

    def refused(self, topic: str, reason: str, now: float) -> None:
        self.count += 1
        if self.due is None:
            log.warning("MQTT: refused a message on %s: %s", topic, reason)
            self._since, self.due = now, now + self._every
        else:
            self._held += 1
            self._latest = (topic, reason)

    def summarise(self, now: float) -> None:
        """Tell how many were refused since the last line; call at `due`, and on the way out.
        While they keep coming the next line waits another period, so a storm costs one line
        a minute."""
        if not self._held:
            self.due = None
            return
        topic, reason = self._latest
        log.warning(
            "MQTT: refused %d more message%s in %.0f s (%d since start); the latest on %s: %s",
            self._held,
            "" if self._held == 1 else "s",
            now - self._since,
            self.count,
            topic,
            reason,
        )
        self._held = 0
        self._since, self.due = now, now + self._every
