"""Why the MQTT link is down, in the few words the Info screen shows (16 columns) and the
log line that tells it once: a broker's refusal by its reason code, a connection it closed,
the network's and the config's own failures; and, under systemd, what its sandbox may have
to do with a broker that never answers.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import os
import socket
import ssl
from collections.abc import Iterator

import aiomqtt
from aiomqtt.exceptions import MqttConnectError
from paho.mqtt.reasoncodes import ReasonCode

from ..catalogs import N_
from ..errors import ConfigError

# What the Info screen says of the link (16 columns at most): in English here, as the log
# and MQTT say it; marked for the catalogs, the Info screen shows it translated.
CONNECTING, CONNECTED, STOPPED = N_("connecting"), N_("connected"), N_("stopped")
LOST = N_("connection lost")
UNEXPECTED = N_("error: see log")  # a cause the link has no words for; the log has it whole
# A broker's refusal (CONNACK) by MQTT 5 reason code, and by MQTT 3's return code.
REFUSED = {
    0x84: N_("refused: version"),
    0x85: N_("refused: id"),
    0x86: N_("refused: auth"),
    0x87: N_("refused: auth"),
    0x88: N_("refused: busy"),
    0x89: N_("refused: busy"),
    0x8A: N_("refused: banned"),
    0x8C: N_("refused: auth"),
    0x95: N_("refused: size"),
    0x97: N_("refused: busy"),
    0x9F: N_("refused: busy"),
}
REFUSED_V3 = {
    1: N_("refused: version"),
    2: N_("refused: id"),
    3: N_("refused: busy"),
    4: N_("refused: auth"),
    5: N_("refused: auth"),
}
# Why a broker closed a connection it had accepted (its DISCONNECT), where it says more.
CLOSED = {0x8B: N_("broker stopped"), 0x8E: N_("id in use"), 0x87: N_("refused: auth")}
UNREACHABLE = (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN)
KNOWN = (aiomqtt.MqttError, ConfigError, OSError)  # what a network, a broker or a config does


def _causes(err: BaseException) -> Iterator[BaseException]:
    # aiomqtt hides the socket's own error behind its MqttError ("from None" keeps it as
    # the context), and a lost connection's reason code behind "Disconnected during ...".
    seen: list[BaseException] = []
    cause: BaseException | None = err
    while cause is not None and cause not in seen and len(seen) < 8:
        seen.append(cause)
        yield cause
        cause = cause.__cause__ or cause.__context__


def _code(rc: object) -> int | None:
    return rc.value if isinstance(rc, ReasonCode) else rc if isinstance(rc, int) else None


def why_down(err: BaseException, *, stage: str) -> str:
    """Why the link is down, in a few words that fit the Info screen. `stage` is where it
    failed: "building" the client (the config's files), "connecting" or "connected"."""
    if stage == "building":
        if isinstance(err, ssl.SSLError) or "tls_ca" in str(err):
            return N_("bad TLS")
        return N_("bad config") if isinstance(err, (*KNOWN, ValueError)) else UNEXPECTED
    for cause in _causes(err):
        if isinstance(cause, MqttConnectError):
            words = REFUSED if isinstance(cause.rc, ReasonCode) else REFUSED_V3
            return words.get(_code(cause.rc) or 0, N_("refused"))
        if isinstance(cause, aiomqtt.MqttCodeError) and _code(cause.rc) in CLOSED:
            return CLOSED[_code(cause.rc) or 0]
        if isinstance(cause, ConfigError):
            return N_("bad config")
        if isinstance(cause, ssl.SSLError) and stage == "connecting":
            return N_("bad TLS")  # once connected, TLS's own errors are a lost connection's
        if isinstance(cause, socket.gaierror):
            return N_("unknown host")
        if isinstance(cause, ConnectionRefusedError):
            return N_("no broker")
        if isinstance(cause, TimeoutError):
            return N_("no answer")
        if isinstance(cause, OSError) and cause.errno in UNREACHABLE:
            return N_("no network")
    if not isinstance(err, KNOWN):
        return UNEXPECTED
    return LOST if stage == "connected" else N_("no broker")


SANDBOX_HINT = (
    ". The service's sandbox lets the table reach only this machine unless a drop-in "
    "allows the broker's address (IPAddressAllow=, docs/deploy.md); without one, every "
    "attempt to reach a broker elsewhere ends so"
)


def sandbox_hint(host: str, status: str) -> str:
    """What to add to the log line of a broker on another machine that never answers, when
    the table runs as systemd's service (which sets INVOCATION_ID): its sandbox drops the
    packets to any address a drop-in has not allowed, and all the link sees is silence."""
    if status not in ("no answer", "no network") or "INVOCATION_ID" not in os.environ:
        return ""
    if host == "localhost":
        return ""
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(host).is_loopback:
            return ""
    return SANDBOX_HINT


def told_as(err: BaseException) -> str:
    """The cause as the log says it: an error the link knows by its text, any other by its
    type as well, since its text alone may say little ("required argument is not ...")."""
    text = str(err)
    if isinstance(err, KNOWN) and text:
        cause = err.__cause__  # "Disconnected during message iteration": what disconnected
        return f"{text}: {cause}" if cause is not None and str(cause) else text
    kind = type(err)
    name = kind.__qualname__
    if kind.__module__ != "builtins":
        name = f"{kind.__module__}.{name}"
    return f"{name}: {text}" if text else name
