"""`flashtable run` stopped while it starts (SIGTERM from systemd, Ctrl+C at a terminal) ends
cleanly, with status 0 and one line, never a traceback nor a death by the signal; and so does
one stopped a second time while its process ends."""

import signal
import subprocess
import sys
import textwrap

import pytest

# The stop lands at a known moment of the start: as the table is about to be built, before
# the daemon's own handlers exist.
STOPPED_WHILE_STARTING = textwrap.dedent(
    """
    import os, signal, sys
    import controller.commands.run
    build = controller.commands.run.build_daemon
    def build_after_a_stop(*args, **options):
        os.kill(os.getpid(), signal.{signal})
        return build(*args, **options)
    controller.commands.run.build_daemon = build_after_a_stop
    from controller import main
    sys.exit(main(["run", "--sim", "--seed", "1", "--state-dir", sys.argv[1]]))
    """
)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_while_run_starts_ends_it_cleanly(tmp_path, signum):
    script = STOPPED_WHILE_STARTING.format(signal=signum.name)
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stderr.endswith(f"flashtable: stopped by {signum.name} before the table was up\n")


# Stopped once the table is up, and stopped again as the process ends: after the table has
# stopped and its loop has closed, before the interpreter is done.
STOPPED_TWICE = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    import controller.commands.run as run
    build, on_loop = run.build_daemon, run.run_on_table_loop
    def build_then_stop(*args, **options):
        daemon = build(*args, **options)
        asyncio.get_running_loop().call_soon(os.kill, os.getpid(), signal.{signal})
        return daemon
    def stopped_again(main):
        status = on_loop(main)
        os.kill(os.getpid(), signal.{signal})
        return status
    run.build_daemon, run.run_on_table_loop = build_then_stop, stopped_again
    from controller import main
    sys.exit(main(["run", "--sim", "--seed", "1", "--state-dir", sys.argv[1]]))
    """
)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_second_stop_as_the_process_ends_still_ends_it_with_status_0(tmp_path, signum):
    done = subprocess.run(
        [sys.executable, "-c", STOPPED_TWICE.format(signal=signum.name), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("INFO flashtable: stopped")
