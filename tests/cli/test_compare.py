"""`wmnsim compare`: results against a reference file (docs/references.md)."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WMNSIM = os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "ci" / "cli" / "wmnsim"))
FLAGSHIP = ROOT / "scenarios" / "two_hop_chain_tcp.json"


def wmnsim(*args, cwd=None):
    return subprocess.run([WMNSIM, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two short runs of the flagship (seeds 1 and 2) and their parsed documents."""
    folder = tmp_path_factory.mktemp("runs")
    files = []
    for seed in (1, 2):
        out = folder / f"seed_{seed}.json"
        r = wmnsim("run", FLAGSHIP, "--seed", seed, "--set", "/simulation/duration_s=3", "-o", out)
        assert r.returncode == 0, r.stderr
        files.append(out)
    return files, [json.loads(f.read_text()) for f in files]


def write_reference(folder, metrics, **extra):
    doc = {"wmnsim_reference": 1, "scenario": os.path.relpath(FLAGSHIP, folder),
           "overrides": ["/simulation/duration_s=3"], "seeds": [1, 2], "metrics": metrics, **extra}
    path = folder / "flagship.reference.json"
    path.write_text(json.dumps(doc, indent=2))
    return path


def flow(doc, fid):
    return next(f for f in doc["flows"] if f["id"] == fid)


def test_within_tolerance_exits_0(runs, tmp_path):
    files, docs = runs
    b = flow(docs[0], "B_to_GW")["goodput_bps"]
    ref = write_reference(tmp_path, [
        {"metric": "flows/B_to_GW/goodput_bps", "mean": b, "tolerance": {"relative": 0.01}},
        {"metric": "summary/drops/retry_limit", "mean": docs[0]["summary"]["drops"]["retry_limit"],
         "std": 0, "n": 2, "tolerance": {"ci": 0.95, "absolute": 0}},
        {"metric": "nodes/B/forwarded", "mean": 0, "tolerance": {"absolute": 1e9}},
    ])
    r = wmnsim("compare", files[0], ref)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["metric", "expected", "band", "measured", "status"]
    assert "flows/B_to_GW/goodput_bps" in lines[1] and lines[1].endswith("pass (relative)")
    assert lines[-1] == "3 of 3 metrics within tolerance"
    assert "warning" not in r.stdout


def test_outside_exits_3_and_names_the_metric(runs, tmp_path):
    files, docs = runs
    b = flow(docs[0], "B_to_GW")["goodput_bps"]
    ref = write_reference(tmp_path, [
        {"metric": "flows/B_to_GW/goodput_bps", "mean": 2 * b, "tolerance": {"relative": 0.05, "absolute": 10}},
        {"metric": "summary/total_goodput_bps", "mean": docs[0]["summary"]["total_goodput_bps"],
         "tolerance": {"relative": 0.001}},
    ])
    r = wmnsim("compare", files[0], ref)
    assert r.returncode == 3
    assert "FAIL (relative)" in r.stdout
    assert r.stdout.splitlines()[-1] == "1 of 2 outside: flows/B_to_GW/goodput_bps"


def test_missing_metric_exits_3_with_the_reason(runs, tmp_path):
    files, _ = runs
    ref = write_reference(tmp_path, [
        {"metric": "flows/C_to_GW/goodput_bps", "mean": 1, "tolerance": {"absolute": 1}},
        {"metric": "summary/drops/queue_overfow", "mean": 1, "tolerance": {"absolute": 1}},
    ])
    r = wmnsim("compare", files[0], ref)
    assert r.returncode == 3
    assert 'no flow "C_to_GW" in the results (flows: A_to_GW, B_to_GW)' in r.stdout
    assert 'summary/drops has no key "queue_overfow"; did you mean "queue_overflow"?' in r.stdout
    assert r.stdout.splitlines()[-1].startswith("2 of 2 outside:")


def test_bad_reference_exits_2_with_json_paths(runs, tmp_path):
    files, _ = runs
    ref = write_reference(tmp_path, [
        {"metric": "flows/A_to_GW/goodput_bps", "mean": 1, "tolerance": {"relative": "x"}},
        {"metric": "goodput", "mean": 1, "tolerance": {"absolute": 1}},
    ])
    r = wmnsim("compare", files[0], ref)
    assert r.returncode == 2
    assert f'{ref}: /metrics/0/tolerance/relative: expected a number >= 0, got "x"' in r.stderr
    assert f"{ref}: /metrics/1/metric: expected summary/<key>" in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("content", ["{not json", '{"format": "something-else"}'])
def test_bad_results_file_exits_2(runs, tmp_path, content):
    ref = write_reference(tmp_path, [{"metric": "summary/total_goodput_bps", "mean": 1,
                                      "tolerance": {"absolute": 1}}])
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    r = wmnsim("compare", bad, ref)
    assert r.returncode == 2
    assert str(bad) in r.stderr
    assert wmnsim("compare", tmp_path / "nope.json", ref).returncode == 2
    assert wmnsim("compare", ref).returncode == 2  # no results at all


def test_several_results_compare_their_mean(runs, tmp_path):
    files, docs = runs
    values = [flow(d, "B_to_GW")["goodput_bps"] for d in docs]
    mean = sum(values) / 2
    ref = write_reference(tmp_path, [
        {"metric": "flows/B_to_GW/goodput_bps", "mean": mean, "tolerance": {"absolute": 1e-6}},
    ])
    r = wmnsim("compare", *files, "--reference", ref, "--json")
    assert r.returncode == 0, r.stdout
    out = json.loads(r.stdout)
    assert out["passed"] is True
    row = out["rows"][0]
    assert row["n_measured"] == 2 and row["measured"] == pytest.approx(mean)
    assert row["status"] == "pass" and row["tolerance"] == "absolute"
    if values[0] != values[1]:
        assert wmnsim("compare", files[0], ref).returncode == 3  # one seed alone is off the mean


def test_results_of_another_scenario_are_refused_unless_allowed(runs, tmp_path):
    files, docs = runs
    other = dict(docs[0], scenario=dict(docs[0]["scenario"], name="elsewhere"))
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other))
    ref = write_reference(tmp_path, [{"metric": "summary/total_goodput_bps",
                                      "mean": docs[0]["summary"]["total_goodput_bps"],
                                      "tolerance": {"relative": 0.01}}])
    r = wmnsim("compare", path, ref)
    assert r.returncode == 2 and r.stdout == ""
    assert (f"{path}: not made from the reference's scenario: the scenario differs from the reference's (hash "
            in r.stderr)
    assert '/name is "elsewhere" in the results, "two_hop_chain_tcp" in the reference\'s' in r.stderr
    assert "(--allow-different-scenario compares anyway)" in r.stderr

    r = wmnsim("compare", path, ref, "--allow-different-scenario")
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"warning: {path}: not made from the reference's scenario, compared anyway: " in r.stdout


@pytest.fixture(scope="module")
def other_runs(tmp_path_factory):
    """The flagship run 2 s instead of 3, and run 3 s with CWmin 16 instead of 32."""
    folder = tmp_path_factory.mktemp("other")
    short, cw = folder / "short.json", folder / "cw16.json"
    for out, sets in ((short, ["/simulation/duration_s=2"]), (cw, ["/simulation/duration_s=3", "/mac/cw_min=16"])):
        args = [a for s in sets for a in ("--set", s)]
        r = wmnsim("run", FLAGSHIP, "--seed", 1, *args, "-o", out)
        assert r.returncode == 0, r.stderr
    return short, cw


def test_another_duration_or_cw_min_exits_2_saying_what_differs(runs, other_runs, tmp_path):
    files, docs = runs
    short, cw = other_runs
    ref = write_reference(tmp_path, [{"metric": "flows/B_to_GW/goodput_bps",
                                      "mean": flow(docs[0], "B_to_GW")["goodput_bps"], "tolerance": {"ci": 0.95},
                                      "std": 1e9, "n": 2}])
    r = wmnsim("compare", short, ref)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"{short}: not made from the reference's scenario: the results are of a 2 s run, the "
                        "reference of 3 s (--allow-different-scenario compares anyway)\n")
    r = wmnsim("compare", cw, ref)
    assert r.returncode == 2
    assert "/mac/cw_min is 16 in the results, 32 in the reference's" in r.stderr
    # A good file next to a refused one: still refused, and only the bad one named.
    r = wmnsim("compare", files[0], cw, ref)
    assert r.returncode == 2 and str(files[0]) not in r.stderr and str(cw) in r.stderr
    # Allowed: compared (the band is wide), the difference printed as a warning.
    r = wmnsim("compare", short, cw, ref, "--allow-different-scenario", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert len(out["warnings"]) == 2 and "the results are of a 2 s run, the reference of 3 s" in out["warnings"][0]


def test_a_reference_records_what_it_was_made_from(runs, tmp_path):
    files, docs = runs
    assert docs[0]["scenario_hash"] == docs[1]["scenario_hash"]  # one scenario, two seeds
    assert len(docs[0]["scenario_hash"]) == 16
    metrics = [{"metric": "summary/total_goodput_bps", "mean": docs[0]["summary"]["total_goodput_bps"],
                "tolerance": {"relative": 0.5}}]
    ref = write_reference(tmp_path, metrics, scenario_hash=docs[0]["scenario_hash"], duration_s=3)
    r = wmnsim("compare", *files, ref)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "warning" not in r.stdout
    # Made from another scenario than its file now gives: it says so, and how to fix it.
    ref = write_reference(tmp_path, metrics, scenario_hash="0123456789abcdef", duration_s=3)
    r = wmnsim("compare", files[0], ref)
    assert r.returncode == 2
    assert "it changed since the reference was made (regenerate the reference" in r.stderr
    # Another seed than the reference's is compared: the band is for new runs too.
    ref = write_reference(tmp_path, metrics, seeds=[7, 8], scenario_hash=docs[0]["scenario_hash"])
    assert wmnsim("compare", files[0], ref).returncode == 0
    # One run twice would count twice in the mean.
    r = wmnsim("compare", files[0], files[0], ref)
    assert r.returncode == 2
    assert f"{files[0]}: the same run as {files[0]} (seed 1 of the same scenario)" in r.stderr


def test_bands_stop_at_the_metrics_range(runs, tmp_path):
    files, docs = runs
    b = flow(docs[0], "B_to_GW")["goodput_bps"]
    ref = write_reference(tmp_path, [
        {"metric": "flows/B_to_GW/goodput_bps", "mean": b, "tolerance": {"absolute": 2 * b}},
        {"metric": "summary/jain_fairness_index", "mean": 0.6, "tolerance": {"absolute": 0.5}},
    ])
    r = wmnsim("compare", files[0], ref, "--json")
    assert r.returncode in (0, 3), r.stderr
    rows = json.loads(r.stdout)["rows"]
    assert rows[0]["low"] == 0 and rows[0]["high"] == pytest.approx(3 * b)
    assert rows[0]["open_below"] is True and rows[0]["open_above"] is False
    assert rows[1]["low"] == 0.5 and rows[1]["high"] == 1  # two flows: Jain's index is in [1/2, 1]
    r = wmnsim("compare", files[0], ref)
    assert ("note: flows/B_to_GW/goodput_bps: the band reaches 0, the least the metric can be: it cannot fail "
            "from below") in r.stdout


def test_the_fifo_quick_reference_sees_f3_stop_starving(tmp_path):
    """001's finding under FIFO is that f3, the far flow, starves: a run in which f3
    gets half its fair share must fail the quick reference (issue 37), and one in
    which it starves as usual must pass."""
    ref = ROOT / "scenarios" / "jamshaid" / "references" / "chain_1mbps_fifo.quick.reference.json"
    spec = json.loads(ref.read_text())
    out = tmp_path / "fifo.json"
    args = [a for o in spec["overrides"] for a in ("--set", o)]
    r = wmnsim("run", ref.parent / spec["scenario"], "--seed", 1, *args, "-o", out)
    assert r.returncode == 0, r.stderr
    assert wmnsim("compare", out, ref).returncode == 0

    doc = json.loads(out.read_text())
    goodputs = {f["id"]: f["goodput_bps"] for f in doc["flows"]}
    fair = sum(goodputs.values()) / len(goodputs)
    goodputs["f3"] = fair / 2  # f3 no longer starving
    for f in doc["flows"]:
        f["goodput_bps"] = goodputs[f["id"]]
    x = list(goodputs.values())
    doc["summary"]["jain_fairness_index"] = sum(x) ** 2 / (len(x) * sum(v * v for v in x))
    fed = tmp_path / "f3_fed.json"
    fed.write_text(json.dumps(doc))
    r = wmnsim("compare", fed, ref, "--json")
    assert r.returncode == 3, r.stdout + r.stderr
    status = {row["metric"]: row["status"] for row in json.loads(r.stdout)["rows"]}
    assert status["flows/f3/goodput_bps"] == "fail" and status["summary/jain_fairness_index"] == "fail"
