"""MicroPython's `time` for the firmware under the unix port with the board double
(machine.py): the same, but that in an interrupt `ticks_us()` is the edge's own time, as on
the RP2040, where a hard interrupt runs within microseconds of its edge."""

import _thread
import time as _time

ticks_add = _time.ticks_add
ticks_diff = _time.ticks_diff
ticks_ms = _time.ticks_ms
sleep_ms = _time.sleep_ms
sleep = _time.sleep
_real = _time.ticks_us
_at = [0]
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


def ticks_us():
    if _inside[0] and _thread.get_ident() == _thread_id[0]:
        return _at[0]
    return _real()
