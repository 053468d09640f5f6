"""The table's loop thread, and the check that a call meant for it runs there.

The daemon's parts are not locked: they are safe because one thread, the loop's, touches
them. A call from another thread would race the loop unseen; the check makes it fail at
once instead, for the price of one thread id compared (always on, unlike `assert`).
"""

from __future__ import annotations

import threading

from ..errors import WrongThread


class LoopThread:
    """The thread this was made on: the one the table's loop runs."""

    def __init__(self) -> None:
        self.ident = threading.get_ident()

    def check(self, call: str) -> None:
        """Raise WrongThread unless the caller runs on the loop thread."""
        if threading.get_ident() != self.ident:
            raise WrongThread(
                f"{call} runs on the table's loop thread only; from another thread, submit"
            )
