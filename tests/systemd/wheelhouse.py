"""Wheels for installing the table without a network: this checkout's, and its dependencies
packed again from the distributions already installed in the test's environment."""

import base64
import hashlib
import re
import subprocess
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

CHECKOUT = Path(__file__).parents[2]
# The distribution's packages, as pyproject.toml names them for setuptools.
PACKAGES = tuple(
    pattern.rstrip("*")
    for pattern in tomllib.loads((CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]["packages"]["find"]["include"]
)
# Files an installer writes beside a distribution; a wheel does not carry them.
INSTALLER_FILES = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}
COMPILED = {".so", ".pyd"}  # extension modules, built for one Python
# Distributions that cannot run without their extension modules (gpiod, the table's pins;
# lgpio, which bench/pins.py measures beside it): packed with them, tagged as they were
# built, for a Python of the same version.
NEEDS_COMPILED = {"gpiod", "lgpio"}


def python_markers(python: Path) -> dict[str, str]:
    """The markers of the Python a wheel will be installed with, which may not be this one."""
    code = "import platform; print(platform.python_version())"
    version = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    full = version.stdout.strip()
    return {"python_version": ".".join(full.split(".")[:2]), "python_full_version": full}


def runtime_distributions(
    name: str = "flashtable", markers: dict[str, str] | None = None
) -> list[metadata.Distribution]:
    """`name`'s dependencies, and theirs with the extras they ask for, as installed here, for
    a Python with `markers` (this one's by default)."""
    found: dict[str, metadata.Distribution] = {}
    wanted: list[tuple[str, set[str]]] = [(name, set())]
    while wanted:
        wanted_name, extras = wanted.pop()
        for text in metadata.distribution(wanted_name).requires or []:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker and not any(
                marker.evaluate({**(markers or {}), "extra": e}) for e in {"", *extras}
            ):
                continue
            key = canonicalize_name(requirement.name)
            if key not in found:
                found[key] = metadata.distribution(requirement.name)
            wanted.append((requirement.name, set(requirement.extras)))
    return list(found.values())


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _write_wheel(path: Path, files: list[tuple[str, bytes]], info: str) -> Path:
    record = []
    with zipfile.ZipFile(path, "w") as wheel:
        for name, data in files:
            wheel.writestr(name, data)
            record.append(f"{name},sha256={_digest(data)},{len(data)}")
        record.append(f"{info}/RECORD,,")
        wheel.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return path


def repack(dist: metadata.Distribution, out: Path) -> Path:
    """An installed distribution as a pure-Python wheel again. One with compiled modules
    (aiohttp and its helpers, which all fall back on pure Python without them) loses them:
    the system's Python installing it may not be the one they were compiled for. Those that
    need theirs (NEEDS_COMPILED) keep them, for a Python of this one's version."""
    name = canonicalize_name(dist.metadata["Name"]).replace("-", "_")
    compiled = name in NEEDS_COMPILED
    files = [
        f
        for f in dist.files or []
        if not str(f).startswith("..")
        and "__pycache__" not in f.parts
        and not (f.parent.name.endswith(".dist-info") and f.name in INSTALLER_FILES)
        and (compiled or f.suffix not in COMPILED)
    ]
    info = next(f.parent for f in files if f.name == "METADATA")
    wheel_file = Path(str(dist.locate_file(info / "WHEEL"))).read_text(encoding="utf-8")
    contents = [(f.as_posix(), Path(str(dist.locate_file(f))).read_bytes()) for f in files]
    if compiled:
        tag = next(line for line in wheel_file.splitlines() if line.startswith("Tag:"))
        wheel = f"{name}-{dist.version}-{tag.split(':', 1)[1].strip()}.whl"
        return _write_wheel(out / wheel, contents, info.as_posix())
    if "Root-Is-Purelib: true" not in wheel_file:
        contents = [
            (n, pure_wheel_file(data) if n == f"{info}/WHEEL" else data) for n, data in contents
        ]
    return _write_wheel(out / f"{name}-{dist.version}-py3-none-any.whl", contents, info.as_posix())


def pure_wheel_file(data: bytes) -> bytes:
    """A WHEEL file that says pure Python, for any platform."""
    lines = [
        line
        for line in data.decode().splitlines()
        if not line.startswith(("Root-Is-Purelib:", "Tag:"))
    ]
    return "\n".join([*lines, "Root-Is-Purelib: true", "Tag: py3-none-any", ""]).encode()


def build_table_wheel(out: Path, version: str, patch: dict[str, tuple[str, str]]) -> Path:
    """This checkout's packages as a wheel of `version`, with `patch` (file: (old, new))
    applied; its metadata from pyproject.toml (the project's own build needs a network)."""
    files = {}
    for package in PACKAGES:
        for path in sorted((CHECKOUT / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                # Bytes: the compiled message catalogs (.mo) are no text.
                files[path.relative_to(CHECKOUT).as_posix()] = path.read_bytes()
    files["controller/__init__.py"] = re.sub(
        rb'^__version__ = ".*"$',
        f'__version__ = "{version}"'.encode(),
        files["controller/__init__.py"],
        flags=re.M,
    )
    for name, (old, new) in patch.items():
        assert old.encode() in files[name], f"{name} has no {old!r}"
        files[name] = files[name].replace(old.encode(), new.encode(), 1)
    project = tomllib.loads((CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = f"flashtable-{version}.dist-info"
    meta = [
        "Metadata-Version: 2.1",
        "Name: flashtable",
        f"Version: {version}",
        f"Requires-Python: {project['requires-python']}",
        *(f"Requires-Dist: {requirement}" for requirement in project["dependencies"]),
    ]
    scripts = [f"{name} = {target}" for name, target in project["scripts"].items()]
    entries = list(files.items())
    entries += [
        (f"{info}/METADATA", ("\n".join(meta) + "\n").encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        (f"{info}/entry_points.txt", ("[console_scripts]\n" + "\n".join(scripts) + "\n").encode()),
    ]
    return _write_wheel(out / f"flashtable-{version}-py3-none-any.whl", entries, info)
