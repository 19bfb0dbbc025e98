"""`python -m wmnsim` mirrors the `wmnsim` program: exit codes, stdout and stderr."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import FLAGSHIP, ROOT, WMNSIM_BIN


def both(*args, cwd=None):
    c = subprocess.run([WMNSIM_BIN, *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)
    p = subprocess.run([sys.executable, "-m", "wmnsim", *map(str, args)], capture_output=True, text=True,
                       timeout=300, cwd=cwd, env=os.environ.copy())
    return c, p


def bad_file(tmp_path):
    doc = json.loads(FLAGSHIP.read_text())
    doc["simulation"]["duration_s"] = -5
    doc["flows"][0]["dst"] = "Q"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(doc))
    return f


@pytest.mark.parametrize("args", [
    ["--version"],
    ["validate", FLAGSHIP, ROOT / "scenarios" / "jamshaid" / "chain_1mbps.json"],
    ["validate", "BAD"],
    ["run", "BAD"],
    ["run", FLAGSHIP, "--seed", 3],
    ["run", FLAGSHIP, "--seed", 3, "--set", "/simulation/duration_s=5", "--fingerprint"],
    ["run", "MISSING"],
    ["run", FLAGSHIP, "--set", "/simulation/duraton_s=3", "--set", "/flows/0/dst=Q"],
    ["run", FLAGSHIP, "--set", "/nodes/7/id=X"],
    ["run", FLAGSHIP, "--set", "no-pointer"],
    ["run", FLAGSHIP, "-o", "no/such/out.json"],
    # A negative seed: once refused by one and taken by the other (two parsers).
    ["run", FLAGSHIP, "--seed", "-1"],
    ["validate", FLAGSHIP, "--seed", "18446744073709551616"],
    ["--help"],
    ["run", "--help"],
    ["sweep", "--help"],
    ["sweep", "spec.json", "-o", "out", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"],
    ["sweep", "spec.json", "-o", "out", "--workers", "0"],
    ["sweep", "spec.json"],
])
def test_same_exit_code_and_output(tmp_path, args):
    args = [bad_file(tmp_path) if a == "BAD" else tmp_path / "nope.json" if a == "MISSING" else a for a in args]
    c, p = both(*args, cwd=tmp_path)
    assert (p.returncode, p.stdout, p.stderr) == (c.returncode, c.stdout, c.stderr)
    if "-o" in args:
        assert list(tmp_path.iterdir()) == []


def test_one_parser():
    """python -m wmnsim has no parser of its own: it hands its arguments to the C++ command line."""
    import wmnsim.cli

    source = pathlib.Path(wmnsim.cli.__file__).read_text()
    assert "argparse" not in source and "_core.command_line(" in source


@pytest.mark.parametrize("args", [["run"], ["frobnicate"], ["run", FLAGSHIP, "--log-level", "loud"], []])
def test_bad_command_lines_exit_2(args):
    c, p = both(*args)
    assert c.returncode == p.returncode == 2


def test_python_keeps_its_ctrl_c_after_command_lines_in_threads():
    """The command line installs its stop handlers for a run and puts Python's back,
    also when several threads run it at once (the last one out restores)."""
    code = f"""
import os, signal, threading, time, wmnsim.cli
args = ["run", {str(FLAGSHIP)!r}, "--set", "/simulation/duration_s=3"]
codes = []
threads = [threading.Thread(target=lambda: codes.append(wmnsim.cli.main(args))) for _ in range(3)]
for t in threads: t.start()
for t in threads: t.join()
assert codes == [0, 0, 0], codes
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(1)
except KeyboardInterrupt:
    print("KeyboardInterrupt")
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env=os.environ.copy())
    assert p.returncode == 0, p.stderr
    assert p.stdout.rstrip().endswith("KeyboardInterrupt")
