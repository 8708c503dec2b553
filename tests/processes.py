"""Waiting for a child process to be busy, for the tests that interrupt one.

A fixed sleep before sending SIGINT is not enough on a loaded machine: the child may
still be importing (the signal then lands outside the code under test). Waiting for the
child's own CPU time to pass a mark does not depend on the load.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until_busy(proc: subprocess.Popen, cpu: float, timeout: float = 120.0) -> None:
    """Return once ``proc`` has used ``cpu`` more seconds of CPU than when called; fail if
    it exits first or ``timeout`` seconds of wall time pass."""
    end, mark = time.monotonic() + timeout, cpu_seconds(proc.pid) + cpu
    while cpu_seconds(proc.pid) < mark:
        assert proc.poll() is None, (
            f"the process ended (status {proc.returncode}) before it was busy"
        )
        assert time.monotonic() < end, f"the process used under {cpu} s of CPU in {timeout} s"
        time.sleep(0.02)


def interrupt_cli(args: list[str], cpu: float) -> tuple[int, str, str, float]:
    """Run ``tricklab ARGS`` in a child process, send it SIGINT once it has used ``cpu``
    seconds of CPU, and return its status, stdout, stderr and the seconds it took to
    end after the signal."""
    import signal
    import sys

    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from analysis.cli.main import main; sys.exit(main(sys.argv[1:]))",
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    wait_until_busy(proc, cpu=cpu)
    t0 = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    return proc.returncode, out, err, time.perf_counter() - t0
