"""One connection from the guest to a port on the host's loopback: QEMU starts this for each
connection to a forwarded address (guestfwd `cmd:`), its standard input and output being the
guest's side of the connection.

    relay.py PORT
"""

import contextlib
import os
import selectors
import socket
import sys


def main() -> None:
    upstream = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    guest = sys.stdin.fileno()
    selector = selectors.DefaultSelector()
    selector.register(guest, selectors.EVENT_READ)
    selector.register(upstream, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj is upstream:
                data = upstream.recv(65536)
                if not data:
                    return
                while data:
                    data = data[os.write(sys.stdout.fileno(), data) :]
            else:
                data = os.read(guest, 65536)
                if not data:
                    return
                upstream.sendall(data)


if __name__ == "__main__":
    with contextlib.suppress(OSError):  # either side gone: the connection ends, as it would
        main()
