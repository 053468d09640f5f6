"""The Pico's side: motor driver on PWM, beam and hopper switch, serial port, watchdogs.

`machine` and the tick functions are passed in, so the same code runs on the Pico and, with
stand-ins, under CPython in the simulator. Pins are GP numbers (README.md has the wiring).

The motor stops by itself at the count the host allows (gate.py): the beam's hard interrupt
hands every edge to the gate, and a hardware timer ticks it for the jam time, so a main loop
that stalls lets no card out past the limit. Ticks are kept as they come, in a list: a small
integer on every port (on the RP2040 they wrap at 2**30, on a 64-bit port far later), so no
store in the interrupt allocates or overflows.
"""

from .gate import Gate
from .launcher import Launcher
from .protocol import R_POWER_ON, R_SOFT, R_WATCHDOG

MOTOR_FORWARD = 14  # the DRV8871's IN1 (with PWM)
MOTOR_BACKWARD = 15  # the DRV8871's IN2
BEAM = 16  # IR receiver, open collector: low while it sees the light
EMPTY = 17  # hopper switch to ground: closed (low) when the hopper is empty
UART_ID, UART_TX, UART_RX = 0, 0, 1  # for a link on the UART pins instead of USB
PWM_FREQ = 20000  # above hearing
WDT_MS = 2000
TICK_MS = 10  # the jam timer's period: the gate stops a jammed motor this late at most
# The RP2040's watchdog scratch registers 0-3 survive a watchdog or soft reset (the SDK
# uses 4-7), not a power-on: they keep the running dispense so a reset can tell the host what
# it did. 0: MAGIC; 1: the dispense id; 2: its cards counted, and above them the beam's clear
# edges settled (counted or found no card); 3: the clear edges the interrupt has seen. A clear
# edge seen and not settled is a card that may have left uncounted (the reset came within the
# moment the main loop takes, or while it hung with the motor running).
SCRATCH = 0x40058000 + 0x0C
ID_WORD = SCRATCH + 4
COUNT_WORD = SCRATCH + 8
CLEARS_WORD = SCRATCH + 12  # a constant: the interrupt must not allocate one
MAGIC = 0x464C5432  # "FLT2"
CLEARS_MASK = 0xFFFF
EDGES = 32


class Board:
    def __init__(self, machine, ticks_us, ticks_diff, link="usb", baud=115200, start=0):
        """`start`: a random 32-bit number naming this start, so that the host tells a RESET
        resent from the RESET of another start."""
        self._machine = machine
        self._start = start
        self._ticks_us = ticks_us
        self._ticks_diff = ticks_diff
        self._last = ticks_us()
        self._now = 0
        pin = machine.Pin
        self._forward = machine.PWM(pin(MOTOR_FORWARD), freq=PWM_FREQ, duty_u16=0)
        self._backward = machine.PWM(pin(MOTOR_BACKWARD), freq=PWM_FREQ, duty_u16=0)
        self._beam = pin(BEAM, pin.IN, pin.PULL_UP)
        self._empty = pin(EMPTY, pin.IN, pin.PULL_UP)
        # Edges are stamped in the interrupt and handed to the dispenser by the main loop.
        self._edge_ticks = [0] * EDGES
        self._edge_clear = bytearray(EDGES)
        self._written = 0
        self._taken = 0
        self._mem = machine.mem32
        self._clears = 0  # the clear edges the interrupt has seen
        self._clears_taken = 0  # of those, handed to the launcher
        self._settled = 0  # of those, counted or found no card
        self._kept_id = self._kept_counted = 0
        self._kept = self._take_kept()  # before the interrupt can count an edge
        self._wdt = None
        # Every field the interrupts touch exists before they are enabled: an attribute made
        # later could move the others while an interrupt reads them.
        self.gate = Gate(self.drive, ticks_us, ticks_diff, machine.disable_irq, machine.enable_irq)
        self._beam.irq(self._edge, pin.IRQ_RISING | pin.IRQ_FALLING, hard=True)
        timer = machine.Timer
        self._timer = timer(mode=timer.PERIODIC, period=TICK_MS, callback=self._tick, hard=True)
        self.board_id = bytes(machine.unique_id())[:8]
        if link == "uart":
            self.port = machine.UART(UART_ID, baudrate=baud, tx=pin(UART_TX), rx=pin(UART_RX))
        else:
            self.port = None  # USB: the caller reads and writes the REPL's stream

    def now(self):
        """Microseconds since start, on a count that does not wrap."""
        t = self._ticks_us()
        self._now += self._ticks_diff(t, self._last)
        self._last = t
        return self._now

    def drive(self, duty):
        """Run the roller: `duty` per mille, negative backwards, 0 stops (the driver coasts)."""
        level = min(abs(duty), 1000) * 65535 // 1000
        self._forward.duty_u16(level if duty > 0 else 0)
        self._backward.duty_u16(level if duty < 0 else 0)

    def beam_clear(self):
        return self._beam.value() == 0

    def hopper_empty(self):
        return self._empty.value() == 0

    def edges(self):
        """The beam edges since the last call, as (clear, time) on the `now` count."""
        out = []
        while self._taken != self._written:
            i = self._taken % EDGES
            when = self._now + self._ticks_diff(self._edge_ticks[i], self._last)
            clear = self._edge_clear[i] == 0
            out.append((clear, when))
            if clear:
                self._clears_taken = (self._clears_taken + 1) & CLEARS_MASK
            self._taken += 1
        return out

    def start(self, write):
        """The launcher on this board, told what the reset before left; the watchdog runs."""
        now = self.now()
        launcher = Launcher(
            write,
            self.drive,
            self.beam_clear,
            self.hopper_empty,
            self.keep,
            self.board_id,
            now,
            self.gate,
            self.edges,
        )
        kept_id, kept_counted = self.kept()
        launcher.boot(self.reset_cause(), kept_id, kept_counted, now, self._start)
        self._wdt = self._machine.WDT(timeout=WDT_MS)
        return launcher

    def service(self, launcher):
        """One pass of the main loop: the beam's edges and the hopper switch to the launcher,
        what is due done, the watchdog fed. Returns (now, when it next has work or None)."""
        now = self.now()
        launcher.take_beam()
        if self.hopper_empty():
            launcher.hopper_emptied(now)
        launcher.poll(now)
        self._settle(launcher.dispenser.leaving)
        if self._wdt is not None:  # made by `start`
            self._wdt.feed()
        return now, launcher.next_due()

    def reset_cause(self):
        """The protocol's RESET cause."""
        cause = self._machine.reset_cause()
        if cause == self._machine.PWRON_RESET:
            return R_POWER_ON
        return R_WATCHDOG if cause == self._machine.WDT_RESET else R_SOFT

    def kept(self):
        """(id, counted) of the dispense running at the last reset; (0, 0) if none. A card
        that may have left uncounted (a clear edge not settled) is counted: the host then
        deals a card too few rather than one twice."""
        return self._kept

    def keep(self, ident, counted):
        self._kept_id, self._kept_counted = ident, counted
        mem = self._mem
        mem[ID_WORD] = ident
        mem[COUNT_WORD] = counted | self._settled << 8
        mem[SCRATCH] = MAGIC

    def _take_kept(self):
        mem = self._mem
        if mem[SCRATCH] & 0xFFFFFFFF != MAGIC:
            return 0, 0
        ident = mem[ID_WORD] & 0xFFFFFFFF
        word = mem[COUNT_WORD] & 0xFFFFFFFF
        clears = mem[CLEARS_WORD] & CLEARS_MASK
        unsettled = (clears - (word >> 8)) & CLEARS_MASK
        counted = min(255, (word & 0xFF) + unsettled)
        # The interrupt counts on from here; the edges before are in the count now, so a
        # second reset tells the same.
        self._clears = self._clears_taken = self._settled = clears
        self.keep(ident, counted)
        return ident, counted

    def _settle(self, leaving):
        # Every clear edge taken is settled, but the one whose card is still to count.
        settled = (self._clears_taken - (1 if leaving else 0)) & CLEARS_MASK
        if settled != self._settled:
            self._settled = settled
            self._mem[COUNT_WORD] = self._kept_counted | settled << 8

    def _edge(self, pin):
        # Hard interrupt: no allocation here, only stamps into the ring and the scratch word,
        # and the gate, which may stop the motor.
        i = self._written % EDGES
        t = self._ticks_us()
        self._edge_ticks[i] = t
        level = pin.value()
        self._edge_clear[i] = level
        self._written += 1
        if level == 0:
            self._clears = (self._clears + 1) & CLEARS_MASK
            self._mem[CLEARS_WORD] = self._clears
        self.gate.edge(level == 0, t)

    def _tick(self, _timer):
        # Hard interrupt too: the gate stops a motor that has run the jam time without a card.
        self.gate.tick(self._ticks_us())
