"""What MQTT refuses of what the broker brings, and how it tells (the payloads' own checks are
both remotes', controller/remote/inbound.py): the packet size the broker is asked to keep,
the correlation data a reply may echo, the `error` reply, and `RefusalLog`, which counts the
refusals and keeps a storm of them out of the journal.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from ..errors import MessageRefused
from ..remote.inbound import MAX_PAYLOAD

log = logging.getLogger(__name__)

MAX_CORRELATION = 64  # bytes of MQTT 5 correlation data a request may carry (echoed back)
# The largest MQTT packet the table takes from the broker (MQTT 5's Maximum Packet Size, in
# its CONNECT): a payload at the limit, the longest topic it reads (a 64-character discovery
# prefix and "/status"), the correlation data, and room left for a sender's own properties
# (a response topic, user properties). A compliant broker never sends a larger one, so a
# huge message is never read whole on the table's one event loop.
MAX_PACKET = 2 * MAX_PAYLOAD
REFUSALS_LOGGED_EVERY = 60.0  # seconds: in a storm of refused messages, one line a minute


def correlation(data: bytes | None) -> bytes | None:
    """The correlation data a reply may echo; too much refuses the whole message, since an
    answer without it could not be matched to its request."""
    if data is not None and len(data) > MAX_CORRELATION:
        raise MessageRefused(
            f"correlation data of {len(data)} bytes is over the limit of {MAX_CORRELATION}"
        )
    return data


def reply(topic: str, reason: str) -> Mapping[str, str]:
    """The `error` payload: the topic the refused message came on, and why."""
    return {"topic": topic, "reason": reason}


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
