"""The launcher's faults on demand and their cures: jam or clear the slot, empty or refill the
hopper.

On the simulated launcher, as on the real one, a jammed card stays stuck until someone frees
it. So a push of OK while the table shows the jam stands for what the person does there:
free the card, then press OK (`clear_for_ok`).
"""

from __future__ import annotations

from controller.simulation.table import SimTable

from ..errors import FaultRefused

FULL_DECK = 54  # `refill` with no count tops the hopper up to one deck


async def apply_fault(table: SimTable, command: str, *args: int) -> str:
    """Do a launcher command to the table's model; returns a line saying what was done."""
    model = table.launcher
    if model is None and table.config.launcher.link == "serial" and not table.firmware:
        raise FaultRefused(f"cannot {command}: the launcher is a real controller's: do it by hand")
    if model is None:
        raise FaultRefused(f"cannot {command}: this table has no launcher")
    if command == "jam":
        table.jam()
        done = "launcher jammed"
    elif command == "clear":
        done = "slot cleared" if model.jammed else "slot was clear: no card stuck"
        table.clear_jam()
    elif command == "empty":
        done = f"hopper emptied ({table.empty_hopper()} cards taken out)"
    elif command == "refill":
        cards = args[0] if args else max(FULL_DECK - table.cards_left, 0)
        if cards < 0:
            raise FaultRefused(f"cannot refill {cards} cards")
        table.refill(cards)
        done = f"hopper refilled (+{cards}, {table.cards_left} in it)"
    else:
        raise FaultRefused(f"no launcher command {command!r}")
    await table.settle()
    return done


def jam_shown(table: SimTable) -> bool:
    """Whether the table shows a jam and waits for OK."""
    return table.daemon.table.launcher.fault == "jam"


async def clear_for_ok(table: SimTable) -> str | None:
    """Before a push of OK on a jam: free the stuck card. Returns a line if one was freed."""
    if table.launcher is None or not table.launcher.jammed or not jam_shown(table):
        return None
    return await apply_fault(table, "clear")
