"""The motor's lease stops the motor from its own thread when its owner stays away too long,
and never while the owner keeps renewing it or has stopped the motor itself."""

import subprocess
import sys
import threading
import time

import pytest

from hardware.motor_lease import MotorLease

SHORT = 0.05  # seconds: a lease that runs out quickly
LONG = 5.0  # seconds: far more than any scheduling delay of a loaded machine


@pytest.fixture
def stops():
    stopped = threading.Event()
    lease = MotorLease(stopped.set)
    yield lease, stopped
    lease.close()


def test_a_lease_not_renewed_stops_the_motor_and_says_so_at_the_next_renewal(stops):
    lease, stopped = stops
    began = time.monotonic()
    assert lease.renew(SHORT)
    assert stopped.wait(LONG)
    assert time.monotonic() - began >= SHORT
    assert lease.renew(LONG) is False  # the motor was stopped: its owner must start it again
    assert lease.renew(LONG) is True


def test_a_lease_renewed_in_time_never_stops_the_motor(stops):
    lease, stopped = stops
    for _ in range(20):
        assert lease.renew(LONG)
        time.sleep(0.005)  # the owner's own work between cards: real time passes here
    assert not stopped.is_set()


def test_a_motor_its_owner_stopped_is_left_alone(stops):
    lease, stopped = stops
    lease.renew(SHORT)
    lease.end()
    assert not stopped.wait(SHORT * 4)
    assert lease.renew(LONG) is True


def test_a_lease_after_its_owner_stopped_the_motor_still_stops_it_when_it_runs_out(stops):
    lease, stopped = stops
    lease.renew(LONG)
    lease.end()  # the owner stopped the motor; the lease's thread waits for the next one
    time.sleep(SHORT)
    lease.renew(SHORT)
    assert stopped.wait(LONG)


def test_a_lease_granted_again_after_one_ran_out_stops_the_motor_again():
    stopped = threading.Semaphore(0)
    lease = MotorLease(stopped.release)
    lease.renew(SHORT)
    assert stopped.acquire(timeout=LONG)
    assert lease.renew(SHORT) is False  # the motor is started again, on a lease of its own
    assert stopped.acquire(timeout=LONG)
    lease.close()


def test_a_lease_left_running_keeps_no_process_from_ending():
    """A daemon that ends without closing the lease (a crash) is not held by its thread."""
    ends = "from hardware.motor_lease import MotorLease; MotorLease(lambda: None).renew(3600)"
    subprocess.run([sys.executable, "-c", ends], check=True, timeout=60)


def test_a_lease_that_ran_out_stops_the_motor_once_and_warns(caplog):
    stops = []
    first = threading.Event()

    def stop() -> None:
        stops.append(time.monotonic())
        first.set()

    lease = MotorLease(stop)
    with caplog.at_level("WARNING", logger="hardware.motor_lease"):
        lease.renew(SHORT)
        assert first.wait(LONG)
        time.sleep(SHORT)  # a lease's time more: no second stop for the same lease
    lease.close()
    assert len(stops) == 1
    assert caplog.messages == ["the launcher's motor outran its lease: stopped it"]


def test_renewals_share_one_thread_and_closing_ends_it():
    before = set(threading.enumerate())
    lease = MotorLease(lambda: None)
    for _ in range(3):
        lease.renew(LONG)
    assert len(set(threading.enumerate()) - before) == 1
    lease.close()
    assert set(threading.enumerate()) <= before
