"""The `[mqtt]` section: checked by check-config, its password file kept private."""

from __future__ import annotations

import os

import pytest

from controller.commands.cli import main
from controller.config import load
from controller.errors import ConfigError

from ..test_named_files import TEST_CA


def write(tmp_path, text: str):
    path = tmp_path / "flashtable.toml"
    path.write_text(text, encoding="utf-8")
    return path


def secret(tmp_path, mode: int):
    path = tmp_path / "password"
    path.write_text("hunter2-not-for-logs\n")
    os.chmod(path, mode)
    return path


def test_an_mqtt_section_loads_with_its_defaults(tmp_path):
    config = load(write(tmp_path, '[mqtt]\nhost = "broker.lan"\n'))
    assert config.mqtt is not None
    assert (config.mqtt.host, config.mqtt.port, config.mqtt.keepalive) == ("broker.lan", 1883, 30)
    assert (config.mqtt.discovery, config.mqtt.discovery_prefix) == (True, "homeassistant")
    ca = tmp_path / "ca.pem"
    ca.write_text(TEST_CA)
    tls = load(write(tmp_path, f'[mqtt]\nhost = "b"\ntls_ca = "{ca}"\n'))
    assert tls.mqtt is not None and tls.mqtt.port == 8883


def test_a_password_file_others_may_read_is_refused_with_one_line(tmp_path, capsys):
    path = secret(tmp_path, 0o644)
    config = write(tmp_path, f'[mqtt]\nhost = "b"\nusername = "t"\npassword_file = "{path}"\n')
    assert main(["check-config", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "open to group or others (mode 644): chmod 600 it" in err
    assert "hunter2" not in err
    os.chmod(path, 0o640)
    with pytest.raises(ConfigError, match="mode 640"):
        load(config)
    os.chmod(path, 0o600)
    loaded = load(config)
    assert loaded.mqtt is not None and loaded.mqtt.password() == "hunter2-not-for-logs"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("port = 1883\n", "[mqtt] needs a host"),
        ('host = "b"\nport = 0\n', "mqtt.port must be 1 to 65535"),
        ('host = "b"\nkeepalive = 0\n', "mqtt.keepalive must be 1 to 65535"),
        ('host = "b"\ndiscovery = "yes"\n', "mqtt.discovery must be true or false"),
        ('host = "b"\ndiscovery_prefix = "a/#"\n', "mqtt.discovery_prefix 'a/#'"),
        ('host = "b"\npassword_file = "/x"\n', "mqtt.password_file needs mqtt.username"),
        ('host = "b"\ntls_ca = "/nonexistent/ca.pem"\n', "mqtt.tls_ca /nonexistent/ca.pem: no"),
        ('host = "b"\ntls_insecure = true\n', "unknown key 'tls_insecure' in [mqtt]"),
    ],
)
def test_a_bad_mqtt_section_is_refused_naming_the_key(tmp_path, body, reason):
    with pytest.raises(ConfigError) as refused:
        load(write(tmp_path, "[mqtt]\n" + body))
    assert reason in str(refused.value)
