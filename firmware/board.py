"""The Pico's side: motor driver on PWM, beam and hopper switch, serial port, watchdogs.

`machine` and the tick functions are passed in, so the same code runs on the Pico and, with
stand-ins, under CPython in the simulator. Pins are GP numbers (README.md has the wiring).
"""

from array import array

from .launcher import Launcher
from .protocol import R_POWER_ON, R_SOFT, R_WATCHDOG

MOTOR_FORWARD = 14  # driver IN1 (DRV8833 AIN1 / TB6612 AIN1 with PWM)
MOTOR_BACKWARD = 15  # driver IN2
BEAM = 16  # IR receiver, open collector: low while it sees the light
EMPTY = 17  # hopper switch to ground: closed (low) when the hopper is empty
UART_ID, UART_TX, UART_RX = 0, 0, 1  # for a link on the UART pins instead of USB
PWM_FREQ = 20000  # above hearing
WDT_MS = 2000
# The RP2040's watchdog scratch registers 0-2 survive a watchdog or soft reset (the SDK
# uses 4-7): they keep the running dispense so a reset can tell the host what it did.
SCRATCH = 0x40058000 + 0x0C
MAGIC = 0x464C5431  # "FLT1"
EDGES = 32


class Board:
    def __init__(self, machine, ticks_us, ticks_diff, link="usb", baud=115200):
        self._machine = machine
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
        self._edge_ticks = array("i", [0] * EDGES)
        self._edge_clear = bytearray(EDGES)
        self._written = 0
        self._taken = 0
        self._beam.irq(self._edge, pin.IRQ_RISING | pin.IRQ_FALLING, hard=True)
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
            out.append((self._edge_clear[i] == 0, when))
            self._taken += 1
        return out

    def start(self, write):
        """The launcher on this board, told what the reset before left; the watchdog runs."""
        now = self.now()
        launcher = Launcher(
            write, self.drive, self.beam_clear, self.hopper_empty, self.keep, self.board_id, now
        )
        kept_id, kept_counted = self.kept()
        launcher.boot(self.reset_cause(), kept_id, kept_counted, now)
        self._wdt = self._machine.WDT(timeout=WDT_MS)
        return launcher

    def service(self, launcher):
        """One pass of the main loop: the beam's edges and the hopper switch to the launcher,
        what is due done, the watchdog fed. Returns (now, when it next has work or None)."""
        now = self.now()
        for clear, when in self.edges():
            launcher.beam(clear, when)
        if self.hopper_empty():
            launcher.hopper_emptied(now)
        launcher.poll(now)
        self._wdt.feed()
        return now, launcher.next_due()

    def reset_cause(self):
        """The protocol's RESET cause."""
        cause = self._machine.reset_cause()
        if cause == self._machine.PWRON_RESET:
            return R_POWER_ON
        return R_WATCHDOG if cause == self._machine.WDT_RESET else R_SOFT

    def kept(self):
        """(id, counted) of the dispense running at the last reset; (0, 0) if none."""
        mem = self._machine.mem32
        if mem[SCRATCH] & 0xFFFFFFFF != MAGIC:
            return 0, 0
        return mem[SCRATCH + 4] & 0xFFFFFFFF, mem[SCRATCH + 8] & 0xFF

    def keep(self, ident, counted):
        mem = self._machine.mem32
        mem[SCRATCH + 4] = ident
        mem[SCRATCH + 8] = counted
        mem[SCRATCH] = MAGIC

    def _edge(self, pin):
        # Hard interrupt: no allocation here, only stamps into the ring.
        i = self._written % EDGES
        self._edge_ticks[i] = self._ticks_us()
        self._edge_clear[i] = pin.value()
        self._written += 1
