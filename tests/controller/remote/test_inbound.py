"""Untrusted payloads for `settings/set` and `command`: every bad one is refused with a
reason, a good one is read exactly as the menu would."""

from __future__ import annotations

import json
import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.errors import MessageRefused
from controller.remote.inbound import MAX_PAYLOAD, MAX_REASON, Order, order, settings_update
from controller.requests import MAX_DEAL, EnterPoints, NameSeat
from controller.settings import SETTINGS

KEYS = [s.key for s in SETTINGS]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=10,
)


def bad_setting_value(key: str):
    allowed = next(s for s in SETTINGS if s.key == key).options
    return json_values.filter(
        lambda v: (
            isinstance(v, bool | float | list | dict | type(None))
            or (isinstance(v, int) and v not in allowed)
            or (
                isinstance(v, str)
                and v.strip().lower().removesuffix("s").strip() not in map(str, allowed)
            )
        )
    )


bad_settings = st.one_of(
    st.binary(max_size=300).filter(lambda b: not _is_json_object(b)),  # junk, or JSON not {}
    st.builds(lambda n: b'{"turn_timer": "' + b"9" * n + b'"}', st.integers(MAX_PAYLOAD, 5000)),
    st.dictionaries(
        st.text(min_size=1).filter(lambda k: k not in KEYS), json_values, min_size=1
    ).map(lambda d: json.dumps(d).encode()),  # unknown keys
    st.sampled_from(KEYS).flatmap(
        lambda key: bad_setting_value(key).map(lambda v: json.dumps({key: v}).encode())
    ),  # wrong types and out of range
    st.just(b"{}"),
)
bad_commands = st.one_of(
    st.binary(max_size=300).filter(lambda b: not _is_json_object(b)),
    st.text(min_size=MAX_PAYLOAD).map(lambda t: json.dumps({"action": "start", "x": t}).encode()),
    json_values.filter(
        lambda a: a not in ("start", "pause", "resume", "new_round", "dispense")
    ).map(lambda a: json.dumps({"action": a}).encode()),
    json_values.filter(lambda c: not (type(c) is int and 1 <= c <= MAX_DEAL)).map(
        lambda c: json.dumps({"action": "dispense", "cards": c}).encode()
    ),
    st.sampled_from(["start", "pause"]).map(
        lambda a: json.dumps({"action": a, "cards": 1}).encode()
    ),
    # Names: no seat, a seat out of range, not text, a control character, too long.
    st.sampled_from(
        [
            {"action": "name", "name": "Anna"},
            {"action": "name", "seat": 9, "name": "Anna"},
            {"action": "name", "seat": True, "name": "Anna"},
            {"action": "name", "seat": 1, "name": 42},
            {"action": "name", "seat": 1, "name": "An\u0000na"},
            {"action": "name", "seat": 1, "name": "Ann\na"},
            {"action": "name", "seat": 1, "name": "x" * 13},
            {"action": "name", "seat": 1, "name": "Anna", "points": 3},
        ]
    ).map(lambda d: json.dumps(d).encode()),
    # Too long even trimmed and composed ("000000000000 " is twelve characters).
    st.text(min_size=13)
    .filter(lambda name: len(unicodedata.normalize("NFC", name).strip()) > 12)
    .map(lambda name: json.dumps({"action": "name", "seat": 1, "name": name}).encode()),
    json_values.filter(lambda p: not (type(p) is int and 0 <= p <= 999)).map(
        lambda p: json.dumps({"action": "points", "seat": 2, "points": p}).encode()
    ),
    json_values.filter(lambda seat: not (type(seat) is int and 1 <= seat <= 8)).map(
        lambda seat: json.dumps({"action": "points", "seat": seat, "points": 5}).encode()
    ),
)


def _is_json_object(data: bytes) -> bool:
    try:
        return isinstance(json.loads(data), dict)
    except (ValueError, RecursionError):
        return False


@settings(max_examples=1000, deadline=None)
@given(bad_settings)
def test_a_bad_settings_update_is_refused_with_a_short_reason(payload):
    with pytest.raises(MessageRefused) as refused:
        settings_update(payload)
    reason = str(refused.value)
    assert reason and "\n" not in reason and len(reason) <= MAX_REASON


@settings(max_examples=1000, deadline=None)
@given(bad_commands)
def test_a_bad_command_is_refused_with_a_short_reason(payload):
    with pytest.raises(MessageRefused) as refused:
        order(payload)
    reason = str(refused.value)
    assert reason and "\n" not in reason and len(reason) <= MAX_REASON


def test_good_payloads_are_read_as_the_menu_reads_them_naming_only_what_they_change():
    change = settings_update(b'{"turn_timer": "8s", "picker": "fair"}')
    assert change.changes == {"turn_timer": 8, "picker": "fair"}
    assert order(b'{"action": "dispense", "cards": 6}') == Order("dispense", 6)
    assert order(b'{"action": "new_round"}') == Order("new_round")
    named = order('{"action": "name", "seat": 3, "name": " Zoe\u0308 "}'.encode())
    assert named == Order("name", asked=NameSeat(3, "Zoë"))  # trimmed and composed
    assert named.asked.name == "Zoë"
    assert order(b'{"action": "points", "seat": 2, "points": 0}') == Order(
        "points", asked=EnterPoints(2, 0)
    )


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ({"action": "name", "seat": 1}, "name needs name"),
        (
            {"action": "name", "seat": 1, "name": "Ann\u0007a"},
            "name: a name may not hold the character U+0007",
        ),
        (
            {"action": "name", "seat": 1, "name": "Maximilianus1"},
            "name: a name has 12 characters at most, not 13",
        ),
        ({"action": "points", "seat": 0, "points": 5}, "points: seat must be 1 to 8, not 0"),
        (
            {"action": "points", "seat": 2, "points": 1000},
            "points: points must be a whole number 0 to 999, not 1000",
        ),
    ],
)
def test_a_name_or_points_refused_say_why(payload, reason):
    with pytest.raises(MessageRefused, match=re.escape(reason)):
        order(json.dumps(payload).encode())


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b'{"turn_timer": ' + b"[" * 500 + b"]" * 500 + b"}", "payload: nested deeper than 16"),
        (b'{"turn_timer": ' + b"9" * 30 + b"}", "payload: a number longer than 20 characters"),
        (b'{"turn_timer": NaN}', "payload: NaN is not a number JSON allows"),
        (b"[1, 2]", "payload must be a JSON object, not list"),
        (b" " * 1025, "payload of 1025 bytes is over the limit of 1024"),
    ],
)
def test_payloads_are_read_with_the_bounds_of_every_file_the_daemon_reads(payload, reason):
    with pytest.raises(MessageRefused, match=f"^{reason}$"):
        settings_update(payload)


def test_an_empty_settings_update_is_refused_as_nothing_to_set():
    with pytest.raises(MessageRefused, match=r"^nothing to set: the object is empty$"):
        settings_update(b"{}")


def test_an_unknown_action_is_refused_naming_every_action_there_is():
    with pytest.raises(MessageRefused) as refused:
        order(b'{"action": "shuffle"}')
    assert str(refused.value) == (
        "action must be one of start, pause, resume, new_round, dispense, name, points,"
        " not 'shuffle'"
    )


def test_a_refusal_quotes_what_came_whole_up_to_40_characters_and_cut_with_dots_past_that():
    fits = "x" * 38  # quoted, 40 characters
    with pytest.raises(MessageRefused, match=re.escape(f" not '{fits}'") + "$"):
        order(json.dumps({"action": fits}).encode())
    with pytest.raises(MessageRefused) as refused:
        order(json.dumps({"action": "y" * 60}).encode())
    assert str(refused.value).endswith(" not '" + "y" * 36 + "...")


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ({"action": "start", "cards": 1}, "start takes no 'cards'"),
        ({"action": "points"}, "points needs points and seat"),
        ({"action": "dispense"}, "dispense needs cards"),
    ],
)
def test_a_command_refused_as_sent_names_the_field_it_lacks_or_takes_no(payload, reason):
    with pytest.raises(MessageRefused, match=f"^{re.escape(reason)}$"):
        order(json.dumps(payload).encode())


def test_a_payload_of_exactly_the_limit_is_read():
    head, tail = b'{"turn_timer": 8', b"}"
    payload = head + b" " * (MAX_PAYLOAD - len(head) - len(tail)) + tail
    assert len(payload) == MAX_PAYLOAD == 1024
    assert settings_update(payload).changes == {"turn_timer": 8}
