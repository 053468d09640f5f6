"""The RP2040's `machine`, as far as firmware/board.py uses it, for the firmware under
MicroPython's unix port (tests/firmware/pico_double.py starts it, with run_main.py).

The pins, the PWM, the timer, the watchdog and the scratch registers are the launcher's
mechanics in the test's process, over two TCP connections: `events` brings each edge of an
input pin, each tick of a timer, each stall of the main loop and the mechanics' time;
`writes` takes every PWM duty and scratch word written, in the order they are written, from
either thread.

A thread of this process stands for the interrupt controller. At an edge of a pin with an
interrupt, or a timer's tick, the mechanics wait while it runs the handler, with the heap
locked, as a hard interrupt runs (an allocation raises MemoryError), and with
`time.ticks_us()` giving the edge's own time (ticks.py). The writes it makes go back before
its end mark ("K"), and the mechanics apply them at the edge's time: the handler acts where
the board's would, whatever the main loop is doing.

The main loop's clock is the mechanics' (ticks.py): they tell it their time every
millisecond and at each edge and tick, once its handler has run, so the main loop never
reads a moment whose edges its interrupts have not seen, as on the RP2040, whose interrupts
never lag. The mechanics' thread, starved of the processor on a loaded machine, falls behind
the machine's clock; the firmware's time falls behind with it, and a card on its way is
never a jam.

`disable_irq` tells the mechanics ("I") and returns once they stand still ("A"), where they
are (they have passed every moment the main loop has read), until `enable_irq` ("U"): what
the main loop writes in between takes effect at that moment. On the RP2040 the main loop's
look at the gate and its write to the motor take microseconds with interrupts off: every
edge comes before the look or after the write, and no write takes effect before the main
loop made it, nor long after.
"""

import _thread
import socket
import sys

import micropython
import ticks

PWRON_RESET = 1
WDT_RESET = 3
SOFT_RESET = 5

_args = sys.argv  # run_main.py PORT CAUSE BOARD_ID SCRATCH0..3
_PORT = int(_args[1])
_CAUSE = int(_args[2])
_BOARD_ID = bytes(int(_args[3][i : i + 2], 16) for i in range(0, 16, 2))
_SCRATCH = 0x40058000 + 0x0C

_levels = {}  # input pin -> level, as the mechanics last said
_irqs = {}  # input pin -> (Pin, handler, wants rising, wants falling)
_timers = []
_held = _thread.allocate_lock()  # released by the interrupt thread when the mechanics hold
_held.acquire()
_send_lock = _thread.allocate_lock()
# What a handler writes waits here (no allocation), and goes when it returns.
_pending = [0] * 48
_count = [0]
_stall_until = [None]


def _connect():
    address = socket.getaddrinfo("127.0.0.1", _PORT)[0][-1]
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.connect(address)
    return s


_events = _connect()
_writes = _connect()
_writes.write(b"hello\n")
# The inputs' levels and the mechanics' time first, then "R": the firmware starts on them.
while True:
    _words = _events.readline().split()
    if _words[0] == b"R":
        break
    if _words[0] == b"N":
        ticks.reach(int(_words[1]))
    else:
        _levels[int(_words[1])] = int(_words[2])


def _send(line):
    _send_lock.acquire()
    try:
        _writes.write(line)
    finally:
        _send_lock.release()


def _write(kind, a, b):
    if ticks.in_interrupt():
        n = _count[0]
        _pending[n] = kind
        _pending[n + 1] = a
        _pending[n + 2] = b
        _count[0] = n + 3
    else:
        _send(b"%s %d %d\n" % (b"DM"[kind : kind + 1], a, b))


def disable_irq():
    if ticks.in_interrupt():
        return 0
    _send(b"I\n")
    _held.acquire()
    return 1


def enable_irq(state):
    if state:
        _send(b"U\n")


def unique_id():
    return _BOARD_ID


def reset_cause():
    return _CAUSE


class _Mem:
    def __init__(self, words):
        self._words = words

    def __getitem__(self, address):
        return self._words[(address - _SCRATCH) // 4]

    def __setitem__(self, address, value):
        value &= 0xFFFFFFFF
        self._words[(address - _SCRATCH) // 4] = value
        _write(1, address, value)


mem32 = _Mem([int(w) for w in _args[4:8]])


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, number, mode=None, pull=None):
        self.number = number

    def value(self):
        return _levels[self.number]

    def irq(self, handler, trigger, hard=False):
        rising = bool(trigger & Pin.IRQ_RISING)
        falling = bool(trigger & Pin.IRQ_FALLING)
        _irqs[self.number] = (self, handler, rising, falling)


class PWM:
    def __init__(self, pin, freq=1000, duty_u16=0):
        self._number = pin.number
        self.duty_u16(duty_u16)

    def duty_u16(self, value):
        _write(0, self._number, value)


class Timer:
    PERIODIC = 1

    def __init__(self, mode=PERIODIC, period=1000, callback=None, hard=True):
        self._callback = callback
        _timers.append(self)
        _send(b"T %d %d\n" % (len(_timers) - 1, period))


class WDT:
    def __init__(self, timeout=5000):
        pass

    def feed(self):
        # Fed at the end of each pass of the main loop: where the mechanics stall it.
        until = _stall_until[0]
        if until is not None:
            _stall_until[0] = None
            while ticks.ticks_diff(until, ticks.real_us()) > 0:
                ticks.sleep_ms(1)


class UART:
    def __init__(self, *args, **kwargs):
        raise OSError("the link is USB here")


def _run(handler, arg, at):
    ticks.enter(at)
    micropython.heap_lock()
    try:
        handler(arg)
    finally:
        micropython.heap_unlock()
        ticks.leave()


def _handle(words):
    kind = words[0]
    if kind == b"E":
        number, level, at = int(words[1]), int(words[2]), int(words[3])
        _levels[number] = level
        entry = _irqs.get(number)
        if entry is not None and (entry[2] if level else entry[3]):
            _run(entry[1], entry[0], at)
        ticks.reach(at)
    elif kind == b"F":
        timer = _timers[int(words[1])]
        at = int(words[2])
        _run(timer._callback, timer, at)
        ticks.reach(at)
    elif kind == b"P":
        _stall_until[0] = ticks.ticks_add(ticks.real_us(), int(words[1]))


def _interrupts():
    ticks.interrupt_thread()
    while True:
        line = _events.readline()
        if not line:
            return
        if line == b"A\n":  # the mechanics hold: the main loop's disable_irq returns
            _held.release()
            continue
        if line.startswith(b"N "):  # the mechanics' time: the main loop's clock
            ticks.reach(int(line.split()[1]))
            continue
        try:
            _handle(line.split())
        except Exception as e:  # a handler that fails (an allocation): the test hears of it
            sys.print_exception(e, sys.stderr)
            _send(b"X\n")
            return
        out = b"".join(
            b"%s %d %d\n" % (b"DM"[_pending[i] : _pending[i] + 1], _pending[i + 1], _pending[i + 2])
            for i in range(0, _count[0], 3)
        )
        _count[0] = 0
        _send(b"H\n" + out + b"K\n")  # what the handler wrote, between H and K


_thread.start_new_thread(_interrupts, ())
