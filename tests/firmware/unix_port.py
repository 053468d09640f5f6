"""MicroPython's unix port, built from Debian's source package, for the firmware's tests that run
its whole main.py (tests/firmware/pico_double.py); firmware/README.md says why this and not a
prebuilt one.

The source is Debian's `micropython` (trixie: the first release that has it), fetched by
`apt-get source` from the machine's own Debian mirror, through an apt configuration of its
own (the machine's sources and lists are left as they are). Only the upstream tarball is
used; the unix port's standard variant is built without the parts that need libraries from
outside the tarball (TLS, btree, ffi: the firmware uses none). The interpreter is kept in
~/.cache/flashtable/micropython/VERSION/: a second run finds it and fetches nothing.

    python -m tests.firmware.unix_port     build it unless cached, print its path and the time
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from tests.boot.image import mirror

SUITE = "trixie"
PACKAGE = "micropython"
# The unix port's own variables: no TLS, btree or ffi (their libraries are not in Debian's
# tarball), no frozen modules (their manifest names micropython-lib, not in it either).
BUILD = ("VARIANT=standard", "MICROPY_PY_SSL=0", "MICROPY_PY_BTREE=0", "MICROPY_PY_FFI=0")
BUILD += ("FROZEN_MANIFEST=", "STRIP=true")


def cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "flashtable" / "micropython"


def cached() -> Path | None:
    """The newest interpreter built so far, if any."""
    built = sorted(cache().glob("*/micropython"), key=lambda path: path.stat().st_mtime)
    return built[-1] if built else None


def micropython() -> Path:
    """The interpreter's path; built first if no build is cached (one build at a time)."""
    found = cached()
    if found is not None:
        return found
    cache().mkdir(parents=True, exist_ok=True)
    with (cache() / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return cached() or build()


def build() -> Path:
    with tempfile.TemporaryDirectory(prefix="micropython-") as folder:
        work = Path(folder)
        tarball = fetch(work)
        version = re.sub(r"^micropython_|\.orig\.tar\.\w+$", "", tarball.name)
        with tarfile.open(tarball) as archive:
            archive.extractall(work / "source", filter="data")
        [source] = (work / "source").iterdir()
        jobs = f"-j{os.cpu_count() or 2}"
        subprocess.run(
            ["make", "-C", str(source / "ports" / "unix"), jobs, *BUILD],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        target = cache() / version / "micropython"
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".partial")
        shutil.copy2(source / "ports" / "unix" / "build-standard" / "micropython", partial)
        partial.rename(target)  # whole, or not at all
        return target


def fetch(work: Path) -> Path:
    """Debian's upstream tarball of the package, by apt from the machine's mirror."""
    apt = work / "apt"
    (apt / "lists" / "partial").mkdir(parents=True)
    (apt / "cache" / "archives" / "partial").mkdir(parents=True)
    sources = apt / "sources.list"
    sources.write_text(f"deb-src {mirror()} {SUITE} main\n", encoding="utf-8")
    options = [
        f"-o=Dir::Etc::SourceList={sources}",
        "-o=Dir::Etc::SourceParts=/dev/null",
        f"-o=Dir::State::Lists={apt / 'lists'}",
        f"-o=Dir::Cache={apt / 'cache'}",
        "-o=Debug::NoLocking=true",
        "-qq",
    ]
    if os.getuid() == 0:  # apt's download user could not write to this folder
        options.append("-o=APT::Sandbox::User=root")
    subprocess.run(["apt-get", *options, "update"], check=True, stdout=subprocess.DEVNULL)
    downloads = work / "downloads"
    downloads.mkdir()
    subprocess.run(
        ["apt-get", *options, "source", "--download-only", PACKAGE],
        check=True,
        cwd=downloads,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    [tarball] = downloads.glob(f"{PACKAGE}_*.orig.tar.*")
    return tarball


if __name__ == "__main__":
    start = time.monotonic()
    was = cached()
    path = micropython()
    took = "cached" if was == path else f"fetched and built in {time.monotonic() - start:.0f} s"
    print(f"{path} ({took})")
    sys.exit(0)
