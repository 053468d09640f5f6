"""The web page's tests: a simulated table serving its page on a free loopback port."""

from __future__ import annotations

import os
from pathlib import Path

from controller.config import Config, WebConfig
from controller.web.password import write_hash
from tests.ports import free_port

PASSWORD = "table-night-42"


def password_file(directory: Path) -> Path:
    path = directory / "web-password"
    write_hash(path, PASSWORD)
    os.chmod(path, 0o600)
    return path


def web_config(directory: Path, **options: object) -> Config:
    """A simulated table's config with its page on a free port, locked by PASSWORD."""
    web = WebConfig(
        enabled=True,
        listen=f"127.0.0.1:{free_port()}",
        password_file=password_file(directory),
        **options,  # type: ignore[arg-type]
    )
    return Config(seats=3, web=web)
