"""scripts/references.py: generate a reference, check it, break it, regenerate it."""
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
WMNSIM = os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "ci" / "cli" / "wmnsim"))
FLAGSHIP = ROOT / "scenarios" / "two_hop_chain_tcp.json"
SCRIPT = ROOT / "scripts" / "references.py"


def references(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args), "--wmnsim", WMNSIM],
                          capture_output=True, text=True, timeout=300)


def test_generate_check_break_regenerate(tmp_path):
    ref = tmp_path / "flagship.quick.reference.json"
    ref.write_text(json.dumps({
        "wmnsim_reference": 1,
        "scenario": os.path.relpath(FLAGSHIP, tmp_path),
        "overrides": ["/simulation/duration_s=3"],
        "seeds": [1, 2],
        "note": "kept as written",
        "metrics": [
            {"metric": "flows/B_to_GW/goodput_bps", "tolerance": {"ci": 0.95, "relative": 0.05}},
            {"metric": "summary/total_goodput_bps", "tolerance": {"relative": 0.05}},
        ],
    }))

    r = references("generate", tmp_path)
    assert r.returncode == 0, r.stderr
    assert "flows/B_to_GW/goodput_bps: new" in r.stdout
    text = ref.read_text()
    assert text.endswith("}\n") and '\n  "metrics": [\n' in text  # 2-space indent
    doc = json.loads(text)
    assert list(doc) == ["wmnsim_reference", "scenario", "overrides", "seeds", "scenario_hash", "duration_s",
                         "generated", "note", "metrics"]
    assert doc["note"] == "kept as written"
    # What the numbers were made from: the runs' scenario hash (the same as `wmnsim run` gives) and duration.
    run = tmp_path / "run.json"
    assert subprocess.run([WMNSIM, "run", FLAGSHIP, "--set", "/simulation/duration_s=3", "--seed", "5", "-o", run],
                          capture_output=True).returncode == 0
    assert doc["scenario_hash"] == json.loads(run.read_text())["scenario_hash"]
    assert doc["duration_s"] == 3
    assert set(doc["generated"]) == {"wmnsim_version", "build_type", "commit", "date"}
    m = doc["metrics"][0]
    assert list(m) == ["metric", "mean", "std", "n", "samples", "tolerance"]
    assert m["n"] == 2 and len(m["samples"]) == 2 and m["tolerance"] == {"ci": 0.95, "relative": 0.05}

    r = references("check", "--quick", tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 of 2 metrics within tolerance" in r.stdout
    assert "1 of 1 references passed" in r.stdout

    # A wrong expected value: check fails, and regenerating says it moved.
    doc["metrics"][1]["mean"] *= 2
    ref.write_text(json.dumps(doc))
    r = references("check", ref)
    assert r.returncode == 3
    assert "1 of 2 outside: summary/total_goodput_bps" in r.stdout

    r = references("generate", ref, "--jobs", 1)
    assert r.returncode == 0, r.stderr
    moved = [line for line in r.stdout.splitlines() if "summary/total_goodput_bps" in line]
    assert len(moved) == 1 and "->" in moved[0] and "MOVED beyond the old tolerance band" in moved[0]
    assert references("check", ref).returncode == 0

    # The scenario edited after the reference was made: check refuses the stale reference.
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(dict(json.loads(FLAGSHIP.read_text()), mac=dict(
        json.loads(FLAGSHIP.read_text())["mac"], cw_min=16))))
    doc = json.loads(ref.read_text())
    ref.write_text(json.dumps(dict(doc, scenario="edited.json")))
    r = references("check", ref)
    assert r.returncode == 2
    assert "it changed since the reference was made (regenerate the reference" in r.stderr


def test_no_references_is_not_an_error(tmp_path):
    (tmp_path / "plain.reference.json").write_text("{}")  # not quick: not selected
    r = references("check", "--quick", tmp_path)
    assert r.returncode == 0
    assert "no references found" in r.stdout


def test_broken_reference_exits_2(tmp_path):
    ref = tmp_path / "x.quick.reference.json"
    ref.write_text('{"wmnsim_reference": 1, "scenario": "nope.json", "seeds": [1], '
                   '"metrics": [{"metric": "summary/total_goodput_bps", "tolerance": {"absolute": 1}}]}')
    r = references("check", "--quick", tmp_path)
    assert r.returncode == 2
    assert "cannot run the seeds [1]" in r.stderr and "nope.json" in r.stderr


def test_lookup_reads_radio_rows_as_compare_does():
    import importlib.util

    spec = importlib.util.spec_from_file_location("references_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    results = {"radios": [{"id": "R9:0", "mac_service_delay_mean_s": 0.0023},
                          {"id": "R9:1", "mac_service_delay_mean_s": 0.0064}]}
    assert module.lookup(results, "radios/R9:1/mac_service_delay_mean_s") == 0.0064
    assert module.lookup(results, "radios/R6:1/mac_service_delay_mean_s") is None
    assert module.lookup({}, "radios/R9:1/channel") is None  # a file without the table
