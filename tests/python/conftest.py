"""Shared fixtures of the Python module's tests (run by ctest as the `python` test).

PYTHONPATH holds bindings/ and the build's python/ folder (tests/CMakeLists.txt);
WMNSIM_BIN names the command-line program built in the same tree.
"""
import json
import os
import pathlib

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")  # no display anywhere

import wmnsim  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
FLAGSHIP = ROOT / "scenarios" / "two_hop_chain_tcp.json"
WMNSIM_BIN = str(pathlib.Path(os.environ.get("WMNSIM_BIN", ROOT / "build" / "ci" / "cli" / "wmnsim")).resolve())
# Subprocesses (python -m wmnsim) may run in another folder: absolute search paths.
os.environ["PYTHONPATH"] = os.pathsep.join(
    str(pathlib.Path(p).resolve()) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)
SAMPLE_RESULTS = pathlib.Path(__file__).resolve().parent / "data" / "sample_results.json"


@pytest.fixture
def flagship():
    return wmnsim.Scenario(FLAGSHIP)


@pytest.fixture
def sample_results_doc():
    return json.loads(SAMPLE_RESULTS.read_text())


@pytest.fixture(scope="module")
def cluster():
    """A two-worker Dask cluster for one test module, reached by its address as
    `--scheduler` reaches an existing cluster. An embedded cluster costs about 5 s of CPU
    to start (two worker processes importing wmnsim, pandas and Dask): modules that run
    many sweeps or reproductions share this one rather than start one per call."""
    import logging

    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR) as c:
        yield c
