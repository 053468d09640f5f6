"""Frames on the serial line: sync byte, length, sequence, type, payload, CRC-16.

CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR,
sent high byte first. The decoder finds frames in any byte stream: garbage before a frame,
a frame cut short, or a bad checksum costs only the bytes that were wrong.
"""

SYNC = 0xA5
HEADER = 4  # sync, length, sequence, type
TRAILER = 2  # the CRC
MAX_PAYLOAD = 48


def crc16(data, crc=0xFFFF):
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def encode(seq, kind, payload=b""):
    """The bytes of one frame."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload too long")
    body = bytes((len(payload), seq & 0xFF, kind & 0xFF)) + bytes(payload)
    crc = crc16(body)
    return bytes((SYNC,)) + body + bytes((crc >> 8, crc & 0xFF))


class Decoder:
    """Bytes in, whole frames out, as (seq, kind, payload); counts what it threw away."""

    def __init__(self):
        self._buf = bytearray()
        self.dropped = 0  # bytes that were not part of a good frame

    @property
    def idle(self):
        return not self._buf

    def feed(self, data):
        """Add received bytes; returns the frames they completed, in order."""
        self._buf.extend(data)
        frames = []
        buf = self._buf
        while buf:
            if buf[0] != SYNC:
                start = buf.find(bytes((SYNC,)))
                skip = len(buf) if start < 0 else start
                self.dropped += skip
                buf = buf[skip:]
                continue
            if len(buf) < 2:
                break
            length = buf[1]
            if length > MAX_PAYLOAD:
                self.dropped += 1
                buf = buf[1:]
                continue
            end = HEADER + length + TRAILER
            if len(buf) < end:
                break
            crc = (buf[end - 2] << 8) | buf[end - 1]
            if crc16(buf[1 : end - 2]) != crc:
                # Not a frame after all: look for the next sync after this one.
                self.dropped += 1
                buf = buf[1:]
                continue
            frames.append((buf[2], buf[3], bytes(buf[HEADER : end - 2])))
            buf = buf[end:]
        self._buf = buf
        return frames
