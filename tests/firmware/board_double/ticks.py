"""MicroPython's `time` for the firmware under the unix port with the board double
(machine.py), on the mechanics' clock: in an interrupt `ticks_us()` is the edge's own time, as
on the RP2040, where a hard interrupt runs within microseconds of its edge; elsewhere it is
the time the mechanics have told (every millisecond, and at each edge and tick), so the main
loop never reads a moment whose edges its interrupts have not seen. The mechanics run on
their own thread in the test's process, and a loaded machine starves it: the machine's clock
would run ahead of them, and the main loop would see no edge for a while where a Pico sees
the card (a jam that is none). `real_us()` is the machine's clock."""

import _thread
import time as _time

ticks_add = _time.ticks_add
ticks_diff = _time.ticks_diff
ticks_ms = _time.ticks_ms
sleep_ms = _time.sleep_ms
sleep = _time.sleep
real_us = _time.ticks_us
_at = [0]
_reached = [0]  # the mechanics' time, as they last told it
_inside = [False]
_thread_id = [None]


def interrupt_thread():
    _thread_id[0] = _thread.get_ident()


def in_interrupt():
    return _inside[0] and _thread.get_ident() == _thread_id[0]


def enter(at):
    _at[0] = at
    _inside[0] = True


def leave():
    _inside[0] = False


def reach(at):
    """The mechanics have come to `at`: every edge before it has run its handler (an edge's
    own time may lie a moment before the last time told: the clock never goes back)."""
    if ticks_diff(at, _reached[0]) > 0:
        _reached[0] = at


def ticks_us():
    if _inside[0] and _thread.get_ident() == _thread_id[0]:
        return _at[0]
    return _reached[0]
