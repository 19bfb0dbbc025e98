"""Waiting for a child process to be well into its work before signalling it, shared
by the command line's tests (tests/cli) and the Python module's (tests/python)."""
import os
import pathlib
import subprocess
import time

import pytest


def wait_until_running(p: subprocess.Popen, cpu_s: float = 0.5, within_s: float = 60) -> None:
    """Waits until the process has spent `cpu_s` of CPU time: past its start-up and well
    into its run, however loaded the machine (a fixed sleep was not, under ctest -j2
    beside other work)."""
    ticks = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + within_s
    used = 0.0
    while time.monotonic() < deadline and p.poll() is None:
        # /proc/PID/stat after the command's closing parenthesis: utime and stime are
        # fields 14 and 15 of the line, 12th and 13th after it.
        fields = pathlib.Path(f"/proc/{p.pid}/stat").read_text().rsplit(")", 1)[1].split()
        used = (int(fields[11]) + int(fields[12])) / ticks
        if used >= cpu_s:
            return
        time.sleep(0.05)
    assert p.poll() is None, "the run ended before it could be interrupted"
    p.kill()
    pytest.fail(f"the run used {used:.2f} s of CPU in {within_s} s, less than the {cpu_s} s to wait for")
