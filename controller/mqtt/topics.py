"""The topics of one table (docs/mqtt.md), and how a payload is put on them; what the payloads
hold is the remotes' shared vocabulary (controller/remote/payloads.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass

ROOT = "flashtable"
ONLINE, OFFLINE = "online", "offline"


@dataclass(frozen=True)
class Topics:
    """Everything under `flashtable/<table_id>/`."""

    table_id: str

    @property
    def base(self) -> str:
        return f"{ROOT}/{self.table_id}"

    @property
    def status(self) -> str:
        return f"{self.base}/status"

    @property
    def state(self) -> str:
        return f"{self.base}/state"

    @property
    def event(self) -> str:
        return f"{self.base}/event"

    @property
    def settings(self) -> str:
        return f"{self.base}/settings"

    @property
    def standings(self) -> str:
        return f"{self.base}/standings"

    @property
    def settings_set(self) -> str:
        return f"{self.base}/settings/set"

    @property
    def command(self) -> str:
        return f"{self.base}/command"

    @property
    def error(self) -> str:
        return f"{self.base}/error"


def encode(payload: object) -> bytes:
    return json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
