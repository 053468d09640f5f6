"""The simulated table: the real daemon on gpiozero's mock pins, in virtual or real time
(table.py, `SimTable`), and the launcher's firmware in its loop (launcher_firmware.py). The
terminal view that shows it lives beside it, in `controller.tui`.
"""

__all__ = ["launcher_firmware", "table"]
