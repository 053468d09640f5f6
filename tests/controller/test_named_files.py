"""Files the config names (the MQTT password, the broker's CA certificate, the launcher's
serial port) are read with the config's own bounds: a FIFO, a directory, /dev/zero or a
300 MB file never hangs a command nor fills the memory; `check-config` says what is wrong
with each, in one line, at once, and `run` starts all the same."""

import concurrent.futures
import os
import tempfile
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.config import MAX_PASSWORD, load

from .test_damaged_files import assert_started, run_sim

TEST_CA = """-----BEGIN CERTIFICATE-----
MIIBkjCCATegAwIBAgIUIPrE9dShrRi1bcu/JNdfABYVlaowCgYIKoZIzj0EAwIw
HTEbMBkGA1UEAwwSZmxhc2h0YWJsZS10ZXN0LWNhMCAXDTI2MTIwMjA0MDgzNloY
DzIxMjYxMTA4MDQwODM2WjAdMRswGQYDVQQDDBJmbGFzaHRhYmxlLXRlc3QtY2Ew
WTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASeBXUKe7kYRpC/waQ5n7bjWkJvcNPa
voPIKjQ03M4FVqZZXID56tSxwm0DLXkuf9F0XmIN5KIYrdKLuER/547ao1MwUTAd
BgNVHQ4EFgQU3tyElrEC7p5SGLt09gzNKNQuoHswHwYDVR0jBBgwFoAU3tyElrEC
7p5SGLt09gzNKNQuoHswDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNJADBG
AiEAtFZIacdMQcGmXuBIF1v2IVgGB8K5TVxWM4xefX0ZxBECIQCYCBTFGPLFsq50
zkavuXRU7xRVYgzNptSB2j8ANrTwIw==
-----END CERTIFICATE-----
"""


def a_fifo(path: Path) -> Path:
    os.mkfifo(path, 0o600)
    return path


def a_directory(path: Path) -> Path:
    path.mkdir(mode=0o700)
    return path


def dev_zero(path: Path) -> Path:
    return Path("/dev/zero")


def a_300_mb_file(path: Path) -> Path:
    with open(path, "wb") as file:
        file.truncate(300 * 1024 * 1024)  # sparse: 300 MB to read, nothing on the disk
    os.chmod(path, 0o600)
    return path


ODD = {
    "a FIFO": (a_fifo, "not a regular file (a FIFO)", "not a serial device but a FIFO"),
    "a directory": (a_directory, "not a regular file (a directory)", "but a directory"),
    "/dev/zero": (dev_zero, "not a regular file (a device)", "not a serial port but a mem"),
    "a 300 MB file": (a_300_mb_file, "larger than", "not a serial device but a regular"),
}
NAMED = {
    "mqtt.password_file": '[mqtt]\nhost = "127.0.0.1"\nusername = "t"\npassword_file = "{}"\n',
    "mqtt.tls_ca": '[mqtt]\nhost = "127.0.0.1"\ntls_ca = "{}"\n',
    "launcher.port": '[launcher]\nlink = "serial"\nport = "{}"\n',
}


@pytest.fixture
def under_dev():
    """A folder under /dev, where a launcher port must be (tmpfs: the sparse file is free)."""
    with tempfile.TemporaryDirectory(dir="/dev/shm") as name:
        yield Path(name)


@pytest.mark.parametrize("key", NAMED)
@pytest.mark.parametrize("odd", ODD)
def test_an_odd_named_file_is_refused_at_once_and_the_table_starts(
    tmp_path, under_dev, capsys, key, odd
):
    make, file_says, port_says = ODD[odd]
    named = make((under_dev if key == "launcher.port" else tmp_path) / "named")
    config = tmp_path / "flashtable.toml"
    config.write_text(NAMED[key].format(named), encoding="utf-8")
    # Refused at once: a check that waited on the file (a FIFO's open) would never return.
    pool = concurrent.futures.ThreadPoolExecutor(1)
    checked = pool.submit(main, ["check-config", "--config", str(config)])
    pool.shutdown(wait=False)
    assert checked.result(timeout=60) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"flashtable: {config}: {key} {named}")
    assert (port_says if key == "launcher.port" else file_says) in err
    status, log = run_sim(tmp_path, "--config", str(config))
    assert_started(status, log)


def test_a_password_longer_than_mqtt_carries_is_refused_by_name(tmp_path):
    path = tmp_path / "password"
    path.write_text("x" * (MAX_PASSWORD + 1) + "\n")
    os.chmod(path, 0o600)
    config = tmp_path / "flashtable.toml"
    config.write_text(NAMED["mqtt.password_file"].format(path), encoding="utf-8")
    with pytest.raises(ValueError, match="a password longer than MQTT carries"):
        load(config)
    path.write_text("x" * MAX_PASSWORD + "\n")
    assert load(config).mqtt.password() == "x" * MAX_PASSWORD


@pytest.mark.parametrize("text", ["", "-----BEGIN CERTIFICATE-----\n", "not a certificate"])
def test_a_ca_file_without_a_certificate_is_refused_by_name(tmp_path, text):
    path = tmp_path / "ca.pem"
    path.write_text(text)
    config = tmp_path / "flashtable.toml"
    config.write_text(NAMED["mqtt.tls_ca"].format(path), encoding="utf-8")
    with pytest.raises(ValueError, match="no CA certificate in PEM form"):
        load(config)
    path.write_text(TEST_CA)
    assert load(config).mqtt.tls_context() is not None


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_check_config_says_a_device_that_is_no_serial_port_is_none(tmp_path, capsys, device):
    config = tmp_path / "flashtable.toml"
    config.write_text(NAMED["launcher.port"].format(device), encoding="utf-8")
    assert main(["check-config", "--config", str(config)]) == 1
    assert "is not a serial port but a mem device" in capsys.readouterr().err


def test_check_config_takes_a_pseudo_terminal_for_a_serial_port(tmp_path, capsys):
    leader, follower = os.openpty()
    try:
        config = tmp_path / "flashtable.toml"
        config.write_text(NAMED["launcher.port"].format(os.ttyname(follower)), encoding="utf-8")
        assert main(["check-config", "--config", str(config)]) == 0
    finally:
        os.close(leader)
        os.close(follower)
    assert "launcher on a controller at /dev/pts/" in capsys.readouterr().out
