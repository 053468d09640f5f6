"""The messages of the launcher protocol (PROTOCOL.md): type codes, payloads, error codes."""

import struct

PROTOCOL_VERSION = 2

# Link
ACK = 0x01
# Host -> launcher
HELLO = 0x10
DISPENSE = 0x11
RETRACT = 0x12
STATUS = 0x13
STOP = 0x14
SET = 0x15
KEPT = 0x16
WELCOME = 0x17
# Launcher -> host
INFO = 0x20
RESET = 0x21
CARD = 0x22
DONE = 0x23
JAM = 0x24
EMPTY = 0x25
HOST_LOST = 0x26
STOPPED = 0x27
STATE = 0x28
START = 0x29
ERROR = 0x2F

# The events that end a dispense (and CARD, on the way), each as (id, counted).
PROGRESS = (CARD, DONE, JAM, EMPTY, HOST_LOST, STOPPED)

# ERROR codes
E_VERSION = 1  # HELLO asked for a protocol version this firmware does not speak
E_TYPE = 2  # a frame type the receiver does not know
E_PAYLOAD = 3  # the payload has the wrong length or a value out of range
E_BUSY = 4  # a new dispense while another runs; STOP it first
E_PARAM = 5  # SET names no parameter this firmware has

# SET parameters: (code, smallest, largest)
P_JAM_MS = 1
P_RETRACT_MS = 2
PARAMS = {P_JAM_MS: (100, 10000), P_RETRACT_MS: (0, 500)}

# STATE codes
S_IDLE = 0
S_RUNNING = 1
S_JAM = 2
S_EMPTY = 3
S_HOST_LOST = 4

# RESET causes
R_POWER_ON = 1
R_WATCHDOG = 2
R_SOFT = 3

# The payload length of every type; a frame of a known type with another length is line noise.
SIZES = {
    ACK: 1,
    HELLO: 1,
    DISPENSE: 5,
    RETRACT: 0,
    STATUS: 0,
    STOP: 0,
    SET: 3,
    KEPT: 5,
    WELCOME: 4,
    INFO: 12,
    RESET: 6,
    START: 4,
    CARD: 5,
    DONE: 5,
    JAM: 5,
    EMPTY: 5,
    HOST_LOST: 5,
    STOPPED: 5,
    STATE: 9,
    ERROR: 2,
}

# dispense id, cards counted (CARD, DONE, JAM, EMPTY, HOST_LOST, STOPPED; and KEPT)
ID_PROGRESS = ">IB"
ID_COUNT = ">IB"  # DISPENSE: dispense id, cards asked for (1-255)
START_FORMAT = ">I"  # START, WELCOME: a random number naming one start of the launcher
SET_FORMAT = ">BH"  # parameter, value
INFO_FORMAT = ">BBBB8s"  # protocol version, firmware major, minor, patch, board id
RESET_FORMAT = ">BIB"  # cause, id of the dispense started last (0: none), counted
STATE_FORMAT = ">BIBBBB"  # state, id, counted, asked, hopper empty, beam clear
ERROR_FORMAT = ">BB"  # code, the type of the frame refused


def well_formed(seq, kind, payload):
    """False for a frame no side would send, though its CRC is good: a known type with the
    wrong payload length, or an ACK with a sequence number."""
    size = SIZES.get(kind)
    if size is not None and len(payload) != size:
        return False
    return kind != ACK or seq == 0


def pack(fmt, *values):
    return struct.pack(fmt, *values)


def unpack(fmt, payload):
    """The payload's values, or None when its length is not the format's."""
    if len(payload) != struct.calcsize(fmt):
        return None
    return struct.unpack(fmt, payload)
