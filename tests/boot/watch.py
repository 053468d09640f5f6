"""The host's view of a guest's table through the broker: everything it publishes, kept in
order, and waited on; and commands sent to it, as an operator's phone would."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import paho.mqtt.client as mqtt

from tests.controller.mqtt.broker import OPERATOR, PASSWORD, Broker


@dataclass
class Message:
    topic: str
    payload: bytes
    retained: bool
    at: float  # the host's monotonic clock

    @property
    def json(self) -> dict:
        return json.loads(self.payload)


class TableWatch:
    """Subscribed to `flashtable/TABLE/#` as the broker's operator."""

    def __init__(self, broker: Broker, table: str) -> None:
        self.prefix = f"flashtable/{table}/"
        self.messages: list[Message] = []
        self._changed = threading.Condition()
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=f"boot-watch-{time.monotonic_ns()}",
            protocol=mqtt.MQTTv5,
        )
        self.client.username_pw_set(OPERATOR, PASSWORD)
        self.client.on_message = self._arrived
        self.client.on_connect = lambda client, *_: client.subscribe(self.prefix + "#", qos=1)
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *_: subscribed.set()
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        # Only once subscribed does the watch see all that follows.
        if not subscribed.wait(60):
            self.close()
            raise TimeoutError("the broker did not take the watch's subscription")

    def _arrived(self, _client, _userdata, message) -> None:
        with self._changed:
            self.messages.append(
                Message(message.topic, message.payload, message.retain, time.monotonic())
            )
            self._changed.notify_all()

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

    def __enter__(self) -> TableWatch:
        return self

    def __exit__(self, *_) -> None:
        self.close()

    def wait_for(
        self, topic: str, check: Callable[[Message], bool], timeout: float = 300.0, after: int = 0
    ) -> Message:
        """The first message on `topic` (under the table's prefix) from index `after` on that
        passes `check`."""
        deadline = time.monotonic() + timeout
        with self._changed:
            index = after
            while True:
                while index < len(self.messages):
                    message = self.messages[index]
                    index += 1
                    if message.topic == self.prefix + topic and check(message):
                        return message
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [m.topic.removeprefix(self.prefix) for m in self.messages[after:]]
                    raise TimeoutError(f"nothing on {topic} in {timeout:.0f} s; saw {seen[-30:]}")
                self._changed.wait(left)

    def until(self, condition: Callable[[], bool], what: str, timeout: float = 300.0) -> None:
        """Wait until `condition` (of what has arrived) holds."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"not in {timeout:.0f} s: {what}")
                self._changed.wait(left)

    def events(self, kind: str, after: int = 0) -> list[dict]:
        """The events of `kind` that have arrived from index `after` on."""
        with self._changed:
            found = self.messages[after:]
        event = self.prefix + "event"
        return [m.json for m in found if m.topic == event and m.json.get("type") == kind]

    def mark(self) -> int:
        """An index for `wait_for(after=...)`: only what arrives from now on."""
        with self._changed:
            return len(self.messages)

    def event(self, kind: str, timeout: float = 300.0, after: int = 0) -> dict:
        found = self.wait_for("event", lambda m: m.json.get("type") == kind, timeout, after)
        return found.json

    def online(self, timeout: float = 300.0, after: int = 0) -> Message:
        """The table coming online from now on: the broker's retained word may be an earlier
        table's, not yet taken back by its will."""
        return self.wait_for(
            "status", lambda m: m.payload == b"online" and not m.retained, timeout, after
        )

    def came_online(self, after: int, timeout: float = 300.0) -> int:
        """The index of a table's coming online from index `after` on: whatever a daemon
        publishes comes after its own `online` (docs/mqtt.md), so from there on it is all
        that daemon's, none of one that stopped before it."""
        message = self.online(timeout, after)
        with self._changed:
            return self.messages.index(message, after)

    def command(self, **fields) -> None:
        self.client.publish(self.prefix + "command", json.dumps(fields), qos=1).wait_for_publish()

    def set_settings(self, **fields) -> None:
        self.client.publish(
            self.prefix + "settings/set", json.dumps(fields), qos=1
        ).wait_for_publish()
