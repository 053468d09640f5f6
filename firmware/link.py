"""The firmware's end of the link: sequence numbers, acknowledgements, resending, duplicates.

Each side sends one frame at a time and resends it, same bytes, every RESEND_US until the
other side acknowledges its sequence number. A frame with the sequence number of the last one
taken from the peer is a duplicate: acknowledged again, not handed on. HELLO and RESET start
the count over, since they come from a side that has just (re)started.

A side that has just started takes only the frame that shows the peer knows of the start
(`barrier`): a frame that comes before was sent to the side before the reset. It is neither
acknowledged nor handed on, so the peer, which forgets what it had not had acknowledged when
it hears of the start (`forget`), sends anew only what it still means.
"""

from .frame import Decoder, encode
from .protocol import ACK, CARD, HELLO, KEPT, RESET, SET, STATE, well_formed

RESEND_US = 100000
OUTBOX_LIMIT = 24
# Queued, not yet sent, these say nothing a newer one of the same kind (and the same dispense
# id, or SET parameter) does not say better: the older is dropped, the newer goes to the back.
SUPERSEDED = (CARD, KEPT, SET, STATE)


class Link:
    def __init__(self, write):
        self._write = write
        self._decoder = Decoder()
        self._seq = 0
        self._peer_seq = None  # the last sequence number taken from the peer
        # While set, `barrier(kind, payload)` says which frame shows the peer knows of our
        # start; nothing is taken before it.
        self.barrier = None
        self._outbox = []  # [kind, payload] waiting to be sent
        self._in_flight = None  # (seq, frame bytes, kind) sent, not yet acknowledged
        self._resend_at = None
        self.last_heard = None  # when the last good frame came in
        self.resent = 0
        self.noise = 0

    @property
    def dropped(self):
        return self._decoder.dropped

    @property
    def idle(self):
        """Nothing waits to be sent or acknowledged."""
        return self._in_flight is None and not self._outbox

    @property
    def between_frames(self):
        """No part of a frame is waiting for the rest of it."""
        return self._decoder.idle

    def send(self, kind, payload, now):
        """Queue a frame; it goes out when every frame before it has been acknowledged."""
        if kind in SUPERSEDED:
            # STATE: one; CARD and KEPT: one per dispense id; SET: one per parameter.
            key = b"" if kind == STATE else payload[: 1 if kind == SET else 4]
            self._outbox = [
                m for m in self._outbox if not (m[0] == kind and m[1][: len(key)] == key)
            ]
        if len(self._outbox) >= OUTBOX_LIMIT:
            self._outbox.pop(0)
        self._outbox.append((kind, payload))
        self._next(now)

    def pending(self, kind):
        """A frame of `kind` waits to be sent or acknowledged."""
        flight = self._in_flight
        if flight is not None and flight[2] == kind:
            return True
        return any(m[0] == kind for m in self._outbox)

    def forget(self):
        """Drop every frame not yet acknowledged: the peer has restarted, and they were meant
        for the side it was before."""
        self._outbox = []
        self._in_flight = self._resend_at = None

    def receive(self, data, now):
        """Bytes from the line; returns the new frames for the application, as (kind, payload)."""
        taken = []
        for seq, kind, payload in self._decoder.feed(data):
            if not well_formed(seq, kind, payload):
                self.noise += 1  # a good CRC on bytes no side would send
                continue
            self.last_heard = now
            if kind == ACK:
                flight = self._in_flight
                if flight is not None and payload == bytes((flight[0],)):
                    self._in_flight = self._resend_at = None
                    self._next(now)
                continue
            if self.barrier is not None:
                if not self.barrier(kind, payload):
                    continue  # sent before the peer knew of our start: it resends what it means
                self.barrier = None
            self._write(encode(0, ACK, bytes((seq,))))
            if kind in (HELLO, RESET):
                self._peer_seq = None
            if seq == self._peer_seq:
                continue
            self._peer_seq = seq
            taken.append((kind, payload))
        return taken

    def next_due(self):
        return self._resend_at

    def poll(self, now):
        flight = self._in_flight
        if flight is not None and now >= self._resend_at:
            self.resent += 1
            self._write(flight[1])
            self._resend_at = now + RESEND_US

    def _next(self, now):
        if self._in_flight is not None or not self._outbox:
            return
        kind, payload = self._outbox.pop(0)
        self._seq = (self._seq + 1) & 0xFF
        frame = encode(self._seq, kind, payload)
        self._in_flight = (self._seq, frame, kind)
        self._resend_at = now + RESEND_US
        self._write(frame)
