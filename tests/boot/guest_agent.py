"""The test machine's agent: it runs on the guest's first serial port, as root, and runs the
shell commands the host sends, one at a time, answering each on a line of its own.

It is copied into the image (tests/boot/image.py) and runs on the guest's Python, with the
standard library alone. A request is one line, `ID BASE64(JSON)`; the JSON holds `sh` (a
command for /bin/sh), `stdin` (base64) and `timeout` (seconds). The answer is one line,
`@@ ID BASE64(JSON) CRC32`, the JSON holding `rc`, `out` and `err`. The kernel may still
write on the same port, so the host keeps only lines that check out, and asks again (same
ID) when an answer came damaged: a repeated ID is answered from memory, never run twice.
"""

import base64
import json
import os
import subprocess
import sys
import termios
import tty
import zlib

PORT = sys.argv[1] if len(sys.argv) > 1 else "/dev/ttyS0"


def frame(ident: str, answer: dict) -> bytes:
    body = base64.b64encode(json.dumps(answer).encode()).decode()
    # A newline first: the line starts clean even after a partial line of kernel output.
    return f"\n@@ {ident} {body} {zlib.crc32(body.encode()):08x}\n".encode()


def run(request: dict) -> dict:
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", request["sh"]],
            input=base64.b64decode(request.get("stdin", "")),
            capture_output=True,
            timeout=request.get("timeout", 60),
        )
    except subprocess.TimeoutExpired as err:
        return {"rc": None, "out": _text(err.stdout), "err": _text(err.stderr) + "(timed out)"}
    return {"rc": done.returncode, "out": _text(done.stdout), "err": _text(done.stderr)}


def _text(data: bytes | None) -> str:
    return (data or b"").decode(errors="replace")


def write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def main() -> None:
    fd = os.open(PORT, os.O_RDWR | os.O_NOCTTY)
    # Raw: no echo, no line editing, no line-length limit; bytes as the host sends them.
    tty.setraw(fd)
    attrs = termios.tcgetattr(fd)
    attrs[1] &= ~termios.OPOST
    termios.tcsetattr(fd, termios.TCSANOW, attrs)
    # From now on the kernel writes only emergencies to the console: fewer damaged answers.
    with open("/proc/sys/kernel/printk", "w") as printk:
        printk.write("1")
    answered: dict[str, bytes] = {}
    with open("/proc/uptime") as uptime:
        write_all(fd, frame("ready", {"uptime": float(uptime.read().split()[0])}))
    pending = b""
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            parts = line.strip().split(b" ")
            if len(parts) != 2:
                continue  # the host's lines always have two parts; anything else is noise
            ident = parts[0].decode(errors="replace")
            if ident not in answered:
                try:
                    request = json.loads(base64.b64decode(parts[1]))
                except ValueError:
                    continue  # damaged on the way in: the host asks again
                answered.clear()  # the host asks again only for its latest request
                answered[ident] = frame(ident, run(request))
            write_all(fd, answered[ident])


if __name__ == "__main__":
    main()
