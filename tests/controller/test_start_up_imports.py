"""Nothing heavy at import: `import controller.shell.daemon` loads no device, link or view library.
gpiozero loads when the board is built, pyserial when a serial launcher link is, RPLCD when
a real LCD is opened, aiomqtt with the MQTT link, aiohttp with the web page, Textual with
the terminal view.

Each check runs in a fresh interpreter, so modules other tests imported do not count.
"""

import subprocess
import sys

DEFERRED = (
    "gpiozero",
    "colorzero",
    "serial",
    "serial_asyncio_fast",
    "RPLCD",
    "smbus2",
    "aiomqtt",
    "paho",
    "aiohttp",
    "textual",
    "rich",
)


def loaded_after(code: str) -> list[str]:
    """Which of the deferred packages are in sys.modules after running `code`."""
    probe = (
        f"import sys\n{code}\n"
        f"print(' '.join(sorted({{m.partition('.')[0] for m in sys.modules}} & {set(DEFERRED)!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout.split()


def test_importing_the_daemon_loads_no_device_link_or_view_library():
    assert loaded_after("import controller.shell.daemon") == []


def test_the_probe_sees_the_board_bring_gpiozero():
    assert loaded_after("import controller.shell.daemon, hardware.board") == [
        "colorzero",
        "gpiozero",
    ]
