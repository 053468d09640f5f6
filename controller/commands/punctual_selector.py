"""The selector of the daemon's loop: epoll holds the descriptors, whatever their numbers,
and a wait is made by select(2) on epoll's own descriptor, whose timeout is in microseconds
(epoll_wait's is in whole milliseconds, rounded up: every timer would run up to 1 ms late).
What is ready is then collected from epoll without waiting (docs/architecture.md)."""

from __future__ import annotations

import select
import selectors

# The descriptors select(2) takes are those numbered below FD_SETSIZE (glibc's, 1024).
FD_SETSIZE = 1024


class PunctualSelector(selectors.EpollSelector):
    """epoll's registry, select's timeout. The loop's selector is made first, so that
    epoll's descriptor is numbered low; if it is not (a process with a thousand open
    before), the wait is epoll's own, to the millisecond, and `punctual` is False."""

    def __init__(self) -> None:
        super().__init__()
        self.punctual = self.fileno() < FD_SETSIZE

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is not None and timeout > 0 and self.punctual:
            try:
                # epoll's descriptor reads as ready while any it holds is ready.
                select.select([self.fileno()], [], [], timeout)
            except InterruptedError:
                return []
            timeout = 0
        return super().select(timeout)
