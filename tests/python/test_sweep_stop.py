"""Stopping `wmnsim sweep` (docs/sweeps.md, "Stopping a sweep"): Ctrl-C at a terminal
(SIGINT to the whole process group), `kill PID` of the program alone (SIGTERM) and a
hang-up (SIGHUP) all end it within seconds, with its exit code, one line and no
worker's traceback, and keep nothing half-written."""
import json
import os
import signal
import subprocess
import time

import psutil  # a dependency of Dask's distributed, which sweeps need
import pytest

from conftest import FLAGSHIP, WMNSIM_BIN

# 24 runs of 600 simulated seconds: minutes of work, so the sweep is surely running when stopped.
SPEC = {"scenario": str(FLAGSHIP), "grid": {"/mac/cw_min": [16, 32, 64, 128], "/simulation/duration_s": [600]},
        "seeds": 6}


def _descendants(pid):
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def _set_up(process):
    """A worker that has run wmnsim._worker_setup: it ignores SIGINT and SIGTERM (the
    SigIgn mask of /proc/PID/status; bit n-1 for signal n)."""
    try:
        if "spawn_main" not in " ".join(process.cmdline()):
            return False
        with open(f"/proc/{process.pid}/status", encoding="ascii") as f:
            ignored = int(next(line for line in f if line.startswith("SigIgn:")).split()[1], 16)
    except (psutil.Error, OSError, StopIteration):
        return False
    return all(ignored >> (s - 1) & 1 for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP))


def _stop(tmp_path, sig, to_group):
    spec = tmp_path / "long.sweep.json"
    spec.write_text(json.dumps(SPEC))
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "WMNSIM_PYTHON")}
    p = subprocess.Popen([WMNSIM_BIN, "sweep", str(spec), "-o", str(out), "--workers", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True)  # a process group of its own, as a terminal's job
    # Wait until both workers are set up: a worker still starting up has not yet set
    # itself to ignore the stop signals (docs/sweeps.md says so).
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None and sum(map(_set_up, _descendants(p.pid))) < 2:
        time.sleep(0.3)
    time.sleep(1)
    assert p.poll() is None, p.communicate()
    sent = time.monotonic()
    if to_group:
        os.killpg(p.pid, sig)
    else:
        os.kill(p.pid, sig)
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail(f"{signal.Signals(sig).name} did not stop the sweep within 60 s")
    took = time.monotonic() - sent
    return p.returncode, err, took, out


@pytest.mark.parametrize("sig, to_group, code", [
    (signal.SIGINT, True, 130),    # Ctrl-C: the terminal signals the whole group
    (signal.SIGTERM, False, 143),  # kill PID: the program alone, which passes it on
    (signal.SIGHUP, False, 129),   # a hang-up sent to the program
    (signal.SIGTERM, True, 143),   # kill -TERM -PGID: the group, workers included
])
def test_a_stopped_sweep_ends_with_one_line_and_keeps_only_whole_runs(tmp_path, sig, to_group, code):
    rc, err, took, out = _stop(tmp_path, sig, to_group)
    assert rc == code, err
    assert took < 30
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.count("interrupted: finished runs are kept") == 1, err
    # Only whole runs are stored: each has its results table.
    for run in (out / "runs").iterdir():
        assert any(run.iterdir()), run


def _fake_python(folder, marker):
    """An executable that stands in for Python: says who it is and exits 7."""
    folder.mkdir(parents=True)
    path = folder / "python"
    path.write_text(f"#!/bin/sh\necho {marker}\nexit 7\n")
    path.chmod(0o755)
    return path


def test_the_interpreter_is_wmnsim_python_then_the_active_venv_then_the_builds(tmp_path):
    venv_python = _fake_python(tmp_path / "venv" / "bin", "venv-python")
    chosen = _fake_python(tmp_path / "chosen", "chosen-python")
    spec = tmp_path / "s.sweep.json"
    spec.write_text(json.dumps({"scenario": str(FLAGSHIP), "seeds": 1}))
    base = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "WMNSIM_PYTHON")}

    def sweep(**env):
        return subprocess.run([WMNSIM_BIN, "sweep", str(spec), "-o", str(tmp_path / "out")],
                              capture_output=True, text=True, env=dict(base, **env), timeout=60)

    r = sweep(VIRTUAL_ENV=str(tmp_path / "venv"))
    assert (r.returncode, r.stdout.strip()) == (7, "venv-python")
    r = sweep(VIRTUAL_ENV=str(tmp_path / "venv"), WMNSIM_PYTHON=str(chosen))
    assert (r.returncode, r.stdout.strip()) == (7, "chosen-python")
    r = sweep(WMNSIM_PYTHON=str(tmp_path / "missing" / "python"))
    assert r.returncode == 2 and "cannot start the Python interpreter" in r.stderr and "WMNSIM_PYTHON" in r.stderr
    # A venv without an interpreter is passed over: the build's own runs the sweep.
    r = sweep(VIRTUAL_ENV=str(tmp_path / "nowhere"))
    assert r.returncode == 0, r.stderr


def test_an_embedded_worker_drops_only_the_closing_heartbeat_error():
    # The race the stop tests above met under load: a worker's heartbeat reaching
    # the sweep's closing scheduler logged an ERROR with a traceback.
    import logging

    from wmnsim import _worker_setup

    drop = _worker_setup._DropClosingHeartbeat()

    def record(msg):
        return logging.LogRecord("distributed.worker", logging.ERROR, __file__, 1, msg, None, None)

    assert not drop.filter(record("Failed to communicate with scheduler during heartbeat."))
    assert drop.filter(record("Compute Failed"))
    assert drop.filter(record("Failed to communicate with scheduler"))
