"""The launcher on the Pi's pins and on the Pico firmware over a serial line, side by side.

Both backends drive the same launcher model in real time: the GPIO ejector on simulated pins,
and the serial ejector through a real pseudo-terminal to the firmware (firmware/) running
under CPython, as `flashtable firmware-sim` runs it. Prints, for each, the time from the
dispense command to the motor starting (p50 and p99 over many dispenses) and the cards per
second of a long dispense. Usage: python bench/launcher_link.py [dispenses] [cards]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tty

from gpiozero import Motor

from hardware.clock import LoopClock
from hardware.ejector import Halted
from hardware.gpio_ejector import GpioEjector
from hardware.inputs import EdgeInput
from hardware.serial_ejector import SerialEjector
from hardware.sim.firmware import FirmwareSim
from hardware.sim.launcher_model import LauncherModel
from hardware.sim.pins import SimFactory

FORWARD, BACKWARD, BEAM, EMPTY = 19, 16, 26, 15


class Backend:
    """An ejector and the launcher model it drives; `halted` is set at each Halted report."""

    def __init__(self) -> None:
        self.halted = asyncio.Event()
        self.model: LauncherModel
        self.ejector: GpioEjector | SerialEjector

    def report(self, item: object) -> None:
        if isinstance(item, Halted):
            self.halted.set()

    async def ready(self) -> None:
        pass

    def close(self) -> None:
        pass


class Gpio(Backend):
    name = "gpio"

    def __init__(self, clock: LoopClock) -> None:
        super().__init__()
        factory = SimFactory(clock)
        self.model = LauncherModel(
            factory, clock, forward_pin=FORWARD, backward_pin=BACKWARD, beam_pin=BEAM,
            empty_pin=EMPTY, cards=1_000_000,
        )  # fmt: skip
        motor = Motor(FORWARD, BACKWARD, pwm=True, pin_factory=factory)
        beam = EdgeInput(
            BEAM,
            role="launcher.beam",
            on_edge=lambda _, clear, t: self.ejector.beam(clear, t),
            pin_factory=factory,
        )
        self.ejector = GpioEjector(
            motor, clock=clock, on_report=self.report, beam_clear=lambda: bool(beam.is_active)
        )


class Serial(Backend):
    name = "serial"

    def __init__(self, clock: LoopClock) -> None:
        super().__init__()
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.firmware = FirmwareSim(self.master, clock=clock, cards=1_000_000)
        self.model = self.firmware.model
        self.ejector = SerialEjector(os.ttyname(self.slave), clock=clock, on_report=self.report)

    async def ready(self) -> None:
        while not self.ejector.link_up:
            await asyncio.sleep(0.01)

    def close(self) -> None:
        assert isinstance(self.ejector, SerialEjector)
        self.ejector.close()
        self.firmware.close()


async def measure(backend: Backend, clock: LoopClock, dispenses: int, cards: int) -> dict:
    await backend.ready()
    starts = []
    for _ in range(dispenses):
        backend.halted.clear()
        asked = clock.now()
        backend.ejector.dispense(2)
        await backend.halted.wait()
        drive = [t for t, speed in backend.model.drive_log if t >= asked and speed > 0]
        starts.append(drive[0] - asked)
        await asyncio.sleep(0.1)  # the retract ends
    backend.halted.clear()
    before, began = backend.model.cards_out, clock.now()
    backend.ejector.dispense(cards)
    await backend.halted.wait()
    rate = (backend.model.cards_out - before) / (clock.now() - began)
    backend.close()
    starts.sort()
    return {
        "p50": statistics.median(starts) * 1000,
        "p99": starts[min(len(starts) - 1, round(0.99 * (len(starts) - 1)))] * 1000,
        "rate": rate,
    }


async def main(dispenses: int, cards: int) -> None:
    clock = LoopClock(asyncio.get_running_loop())
    print(f"{dispenses} dispenses of 2 cards, then one of {cards}; real time")
    print(f"{'backend':<8} {'command->motor p50':>19} {'p99':>9} {'cards/s':>9}")
    for kind in (Gpio, Serial):
        figures = await measure(kind(clock), clock, dispenses, cards)
        print(
            f"{kind.name:<8} {figures['p50']:>16.2f} ms {figures['p99']:>6.2f} ms "
            f"{figures['rate']:>9.2f}"
        )


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    asyncio.run(main(*(args + [40, 30][len(args) :])))
