"""The web page's sign-ins as the table's clock keeps them (docs/web.md): each lasts LIFETIME,
no more and no less, and a sign-out of what is no session is no fault."""

from controller.web.sessions import LIFETIME, MAX_SESSIONS, Sessions
from hardware.clock import VirtualClock


def kept(clock: VirtualClock) -> tuple[Sessions, list[str]]:
    ended: list[str] = []
    return Sessions(clock, ended.append), ended


def run_until(clock: VirtualClock, when: float) -> None:
    while clock.run_next(when):
        pass
    clock.set(when)


def test_a_sign_in_lasts_its_lifetime_of_the_tables_clock_and_not_a_moment_longer():
    clock = VirtualClock()
    sessions, ended = kept(clock)
    token = sessions.new()
    run_until(clock, clock.now() + LIFETIME - 0.001)
    assert sessions.valid(token) and ended == []
    run_until(clock, clock.now() + 0.001)
    assert not sessions.valid(token) and ended == [token]


def test_signing_out_of_what_is_no_session_is_no_fault_and_ends_nothing():
    """An expired cookie, one from before a restart, or none at all: signed out already."""
    clock = VirtualClock()
    sessions, ended = kept(clock)
    token = sessions.new()
    for stale in ("a-cookie-from-before-a-restart", "", None):
        sessions.end(stale)
    assert sessions.valid(token) and ended == []
    sessions.end(token)
    sessions.end(token)  # signed out twice: the second finds no session
    assert not sessions.valid(token) and ended == [token]


def test_the_oldest_sign_in_gives_way_to_a_new_one_past_the_limit():
    clock = VirtualClock()
    sessions, ended = kept(clock)
    tokens = [sessions.new() for _ in range(MAX_SESSIONS + 1)]
    assert ended == [tokens[0]] and not sessions.valid(tokens[0])
    assert all(sessions.valid(token) for token in tokens[1:])
