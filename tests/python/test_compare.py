"""wmnsim.compare and `python -m wmnsim compare` (docs/references.md)."""
import json
import os
import subprocess
import sys

import pytest

import wmnsim
from conftest import FLAGSHIP, WMNSIM_BIN

DURATION = {"/simulation/duration_s": 3}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Two short flagship runs (seeds 1, 2) and their files."""
    folder = tmp_path_factory.mktemp("results")
    out = []
    for seed in (1, 2):
        r = wmnsim.run(FLAGSHIP, seed=seed, overrides=DURATION)
        path = folder / f"seed_{seed}.json"
        r.to_json(path)
        out.append((r, path))
    return out


def goodput(result, fid="B_to_GW"):
    return float(result.flows.set_index("id").loc[fid, "goodput_bps"])


def reference(metrics, **extra):
    return {"wmnsim_reference": 1, "scenario": str(FLAGSHIP), "seeds": [1, 2], "metrics": metrics, **extra}


def test_pass_with_a_result_and_a_dict(results):
    r, _ = results[0]
    c = wmnsim.compare(r, reference([
        {"metric": "flows/B_to_GW/goodput_bps", "mean": goodput(r), "tolerance": {"relative": 0.01}},
        {"metric": "summary/drops/retry_limit", "mean": r.summary["drops"]["retry_limit"],
         "tolerance": {"absolute": 0}},
    ]))
    assert isinstance(c, wmnsim.Comparison)
    assert c.passed and bool(c)
    assert list(c.rows.columns) == ["metric", "expected", "low", "high", "tolerance", "measured", "n_measured",
                                    "status", "reason"]
    assert list(c.rows["status"]) == ["pass", "pass"]
    assert str(c).splitlines()[-1] == "2 of 2 metrics within tolerance"
    assert c.warnings == []


def test_fail_and_missing(results):
    r, path = results[0]
    c = wmnsim.compare(path, reference([
        {"metric": "flows/B_to_GW/goodput_bps", "mean": 2 * goodput(r), "tolerance": {"relative": 0.05}},
        {"metric": "nodes/Q/forwarded", "mean": 1, "tolerance": {"absolute": 1}},
    ]))
    assert not c.passed
    rows = c.rows.set_index("metric")
    assert rows.loc["flows/B_to_GW/goodput_bps", "status"] == "fail"
    assert rows.loc["nodes/Q/forwarded", "status"] == "missing"
    assert 'no node "Q"' in rows.loc["nodes/Q/forwarded", "reason"]
    assert "2 of 2 outside" in str(c)


def test_several_results_are_averaged(results):
    (r1, p1), (r2, _) = results
    mean = (goodput(r1) + goodput(r2)) / 2
    c = wmnsim.compare([p1, r2], reference([
        {"metric": "flows/B_to_GW/goodput_bps", "mean": mean, "tolerance": {"absolute": 1e-6}}]))
    assert c.passed
    assert c.rows["n_measured"][0] == 2
    assert c.rows["measured"][0] == pytest.approx(mean)


def test_the_table_is_the_command_lines(results, tmp_path):
    r, path = results[0]
    ref = tmp_path / "x.reference.json"
    ref.write_text(json.dumps(reference([
        {"metric": "summary/total_goodput_bps", "mean": r.summary["total_goodput_bps"] * 1.5,
         "std": 1000, "n": 2, "tolerance": {"ci": 0.95}}])))
    cli = subprocess.run([WMNSIM_BIN, "compare", str(path), str(ref)], capture_output=True, text=True)
    assert cli.returncode == 3
    assert str(wmnsim.compare(path, ref)) == cli.stdout


def test_invalid_reference_is_a_scenario_error(results, tmp_path):
    r, _ = results[0]
    bad = reference([{"metric": "flows/B_to_GW/goodput_bps", "mean": 1, "tolerance": {"relative": "x"}}])
    with pytest.raises(wmnsim.ScenarioError) as e:
        wmnsim.compare(r, bad)
    assert isinstance(e.value, ValueError)
    assert ("/metrics/0/tolerance/relative", 'expected a number >= 0, got "x"') in [tuple(i) for i in e.value.errors]

    path = tmp_path / "bad.reference.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(wmnsim.ScenarioError) as e:
        wmnsim.compare(r, path)
    assert f"{path}: /metrics/0/tolerance/relative" in str(e.value)

    with pytest.raises(wmnsim.ScenarioError, match="not a wmnsim results file"):
        wmnsim.compare(path, reference([{"metric": "summary/x", "mean": 1, "tolerance": {"absolute": 1}}]))


def both(*args, cwd=None):
    c = subprocess.run([WMNSIM_BIN, *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)
    p = subprocess.run([sys.executable, "-m", "wmnsim", *map(str, args)], capture_output=True, text=True,
                       timeout=300, cwd=cwd, env=os.environ.copy())
    return c, p


@pytest.mark.parametrize("case", ["pass", "several", "fail", "json", "bad_reference", "bad_results", "too_few"])
def test_python_m_wmnsim_compare_mirrors_the_cli(results, tmp_path, case):
    r, path = results[0]
    factor = 1.5 if case == "fail" else 1.0
    metrics = [{"metric": "summary/total_goodput_bps", "mean": r.summary["total_goodput_bps"] * factor,
                "tolerance": {"relative": 0.5 if case == "several" else 0.01}}]
    if case == "bad_reference":
        metrics[0]["tolerance"] = {"ci": 2}
    ref = tmp_path / "x.reference.json"
    ref.write_text(json.dumps(reference(metrics)))
    args = {"pass": [path, ref], "several": [path, results[1][1], ref], "fail": [path, ref], "json": [path, "--reference", ref, "--json"],
            "bad_reference": [path, ref], "bad_results": [ref, tmp_path / "nope.json", ref],
            "too_few": [ref]}[case]
    c, p = both("compare", *args)
    assert (p.returncode, p.stdout, p.stderr) == (c.returncode, c.stdout, c.stderr)
    assert c.returncode == {"pass": 0, "several": 0, "fail": 3, "json": 0, "bad_reference": 2, "bad_results": 2,
                            "too_few": 2}[case], c.stdout + c.stderr
