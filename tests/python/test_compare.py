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
    return {"wmnsim_reference": 1, "scenario": str(FLAGSHIP), "overrides": ["/simulation/duration_s=3"],
            "seeds": [1, 2], "metrics": metrics, **extra}


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
                                    "status", "reason", "open_below", "open_above"]
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


def test_results_of_another_duration_or_scenario_are_refused(results):
    r, path = results[0]
    metrics = [{"metric": "summary/total_goodput_bps", "mean": r.summary["total_goodput_bps"],
                "tolerance": {"relative": 0.5}}]
    longer = reference(metrics, overrides=["/simulation/duration_s=120"])
    with pytest.raises(wmnsim.ScenarioError) as e:
        wmnsim.compare(r, longer)
    assert isinstance(e.value, ValueError)
    assert str(e.value) == ("result 1: not made from the reference's scenario: the results are of a 3 s run, the "
                            "reference of 120 s (allow_different_scenario=True compares anyway)")
    other = reference(metrics, overrides=["/simulation/duration_s=3", "/mac/cw_min=16"])
    with pytest.raises(wmnsim.ScenarioError, match=r"/mac/cw_min is 32 in the results, 16 in the reference's"):
        wmnsim.compare(path, other)
    # Allowed: compared, what differs is a warning.
    c = wmnsim.compare([path], other, allow_different_scenario=True)
    assert c.passed
    assert len(c.warnings) == 1 and f"{path}: not made from the reference's scenario, compared anyway" in c.warnings[0]
    # What a reference records is checked too: the hash the results carry.
    assert wmnsim.compare(r, reference(metrics, scenario_hash=r.to_dict()["scenario_hash"], duration_s=3)).passed
    with pytest.raises(wmnsim.ScenarioError, match="the results are of a 3 s run, the reference of 20 s"):
        wmnsim.compare(r, reference(metrics, duration_s=20))


def test_the_scenario_hash_is_the_results(results):
    r, _ = results[0]
    doc = r.to_dict()
    assert wmnsim._core.scenario_hash(json.dumps(doc["scenario"])) == doc["scenario_hash"]
    assert results[1][0].to_dict()["scenario_hash"] == doc["scenario_hash"]  # another seed, the same scenario


def test_bands_are_clipped_to_the_metrics_range(results):
    r, _ = results[0]
    c = wmnsim.compare(r, reference([{"metric": "flows/B_to_GW/goodput_bps", "mean": goodput(r),
                                      "tolerance": {"relative": 2}}]))
    row = c.rows.iloc[0]
    assert row["low"] == 0 and bool(row["open_below"]) and not bool(row["open_above"])
    assert "the band reaches 0, the least the metric can be: it cannot fail from below" in str(c)


def both(*args, cwd=None):
    c = subprocess.run([WMNSIM_BIN, *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)
    p = subprocess.run([sys.executable, "-m", "wmnsim", *map(str, args)], capture_output=True, text=True,
                       timeout=300, cwd=cwd, env=os.environ.copy())
    return c, p


@pytest.mark.parametrize("case", ["pass", "several", "fail", "json", "bad_reference", "bad_results", "too_few",
                                  "other_duration", "allowed"])
def test_python_m_wmnsim_compare_mirrors_the_cli(results, tmp_path, case):
    r, path = results[0]
    factor = 1.5 if case == "fail" else 1.0
    metrics = [{"metric": "summary/total_goodput_bps", "mean": r.summary["total_goodput_bps"] * factor,
                "tolerance": {"relative": 0.5 if case == "several" else 0.01}}]
    if case == "bad_reference":
        metrics[0]["tolerance"] = {"ci": 2}
    ref = tmp_path / "x.reference.json"
    extra = {"overrides": ["/simulation/duration_s=5"]} if case in ("other_duration", "allowed") else {}
    ref.write_text(json.dumps(reference(metrics, **extra)))
    args = {"pass": [path, ref], "several": [path, results[1][1], ref], "fail": [path, ref], "json": [path, "--reference", ref, "--json"],
            "bad_reference": [path, ref], "bad_results": [ref, tmp_path / "nope.json", ref],
            "too_few": [ref], "other_duration": [path, ref], "allowed": [path, ref, "--allow-different-scenario"]}[case]
    c, p = both("compare", *args)
    assert (p.returncode, p.stdout, p.stderr) == (c.returncode, c.stdout, c.stderr)
    assert c.returncode == {"pass": 0, "several": 0, "fail": 3, "json": 0, "bad_reference": 2, "bad_results": 2,
                            "too_few": 2, "other_duration": 2, "allowed": 0}[case], c.stdout + c.stderr
