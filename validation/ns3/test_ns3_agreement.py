"""CI-optional: wmnsim under the ns3 preset against ns-3 3.44's stored results.

Not part of the README's test command or .ci/run (it needs minutes, and the ns-3
half needs the `ns3` wheel). Run it on its own (docs/validation.md):

    /usr/bin/python3 -m pytest -q -p no:cacheprovider validation/ns3

with a ci build in build/ci (WMNSIM_BUILD to use another) and, for the ns-3 half,
ns-3 3.44 in a venv (NS3_VENV, default /work/venv-ns3).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
BUILD = Path(os.environ.get("WMNSIM_BUILD", REPO / "build" / "ci"))
CLI = BUILD / "cli" / "wmnsim"
NS3_VENV = Path(os.environ.get("NS3_VENV", "/work/venv-ns3"))
sys.path.insert(0, str(HERE))
import run_ns3  # noqa: E402

CASES = [run_ns3.Case(s) for s in run_ns3.DEFAULT_SCENARIOS]
# Metrics that differ from ns-3, each listed in docs/validation.md ("What still
# differs", with its mechanism where one is traced; the cell's is not yet):
# `wmnsim compare` must still find them outside the 15 % band (if one comes inside,
# the doc is out of date), and every other metric inside it.
KNOWN_DIFFERENCES: dict = {
    "cell50_saturated": {
        "summary/total_goodput_bps": "the cell: ns-3 carries 5.8 % more, to its closest stations",
        "summary/jain_fairness_index": "the cell: ns-3's index is 0.07 lower (its closest stations get more)",
    },
    "chain2_udp_rts_off": {
        m: "saturated UDP at a relay: ns-3's on-off source keeps B's queue full, A's relayed packets are lost"
        for m in ("flows/A_to_GW/goodput_bps", "flows/B_to_GW/goodput_bps", "flows/GW_to_A/goodput_bps",
                  "summary/total_goodput_bps", "summary/jain_fairness_index")
    },
}

needs_build = pytest.mark.skipif(not CLI.exists(), reason=f"no wmnsim build at {BUILD}")


def compare_rows(case: run_ns3.Case, tmp_path: Path) -> list:
    ref = run_ns3.reference_name(case)
    doc = json.loads(ref.read_text())
    files = []
    for seed in doc["seeds"]:
        out = tmp_path / f"{case.name}.{seed}.json"
        sets = [a for o in doc["overrides"] for a in ("--set", o)]
        subprocess.run([str(CLI), "run", str(case.path), "--seed", str(seed), *sets, "-o", str(out)],
                       check=True, stdout=subprocess.DEVNULL)
        files.append(str(out))
    r = subprocess.run([str(CLI), "compare", "--json", *files, str(ref)], capture_output=True, text=True)
    assert r.returncode in (0, 3), r.stderr
    return json.loads(r.stdout)["rows"]


@needs_build
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_preset_agrees_with_ns3_or_the_difference_is_named(case, tmp_path):
    rows = compare_rows(case, tmp_path)
    known = KNOWN_DIFFERENCES.get(case.name, {})
    for row in rows:
        if row["metric"] in known:
            assert row["status"] == "fail", (f"{row['metric']} now agrees with ns-3: docs/validation.md's "
                                       f"'{known[row['metric']]}' is out of date")
        else:
            assert row["status"] == "pass", (f"{row['metric']}: wmnsim {row['measured']} against ns-3 "
                                             f"{row['expected']} [{row['low']}, {row['high']}]")


@pytest.mark.skipif(not (NS3_VENV / "bin" / "python").exists(), reason=f"no ns-3 venv at {NS3_VENV}")
@needs_build
def test_the_stored_ns3_results_are_what_ns3_gives(tmp_path):
    # ns-3 is deterministic for a seed and a version: the flagship's first seed again.
    binary = run_ns3.build_ns3(tmp_path / "wmnsim_ns3")
    wmnsim = run_ns3.wmnsim_module(BUILD)
    case = CASES[0]
    ref = json.loads(run_ns3.reference_name(case).read_text())
    seed = ref["seeds"][0]
    run = run_ns3.run_ns3(binary, run_ns3.spec_for(case.path, seed, wmnsim, case.overrides))
    for m in ref["metrics"]:
        if m["metric"].startswith("flows/"):
            fid = m["metric"].split("/")[1]
            got = next(f["goodput_bps"] for f in run["flows"] if f["id"] == fid)
            assert round(got, 1) == m["samples"][0], fid
