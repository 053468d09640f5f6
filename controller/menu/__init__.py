"""The LCD menu on the rotary encoder: turn to move or change a value, push to select or
confirm, hold 1 s to go back. Pure: the panel (controller.shell.panel) feeds it and carries out
the actions it returns.
"""

from .navigator import Back, Menu, Push, Turn, render, step
from .tree import Action, Close, Context, Hand, HardwareTest

__all__ = [
    "Action",
    "Back",
    "Close",
    "Context",
    "Hand",
    "HardwareTest",
    "Menu",
    "Push",
    "Turn",
    "render",
    "step",
]
