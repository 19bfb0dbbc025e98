"""scripts/fingerprints.py and `wmnsim run --fingerprint`: check the stored file,
break it, see the check name what moved, regenerate it."""
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
WMNSIM = os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "ci" / "cli" / "wmnsim"))
FLAGSHIP = "scenarios/two_hop_chain_tcp.json"
SCRIPT = ROOT / "scripts" / "fingerprints.py"
STORED = ROOT / "tests" / "fingerprints" / "fingerprints.json"


def fingerprints(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args), "--wmnsim", WMNSIM],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def wmnsim(*args, cwd=ROOT):
    return subprocess.run([WMNSIM, *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)


def stored_copy(tmp_path):
    copy = tmp_path / "fingerprints.json"
    copy.write_text(STORED.read_text())
    return copy


def test_every_shipped_scenario_is_stored_once_per_seed():
    doc = json.loads(STORED.read_text())
    scenarios = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "scenarios").rglob("*.json")
                       if p.parent.name != "schema" and "reproduction" not in p.parts and not p.name.endswith((".reference.json", ".sweep.json")))
    assert sorted({e["scenario"] for e in doc["runs"]}) == scenarios
    keys = [(e["scenario"], e["seed"], tuple(e["overrides"])) for e in doc["runs"]]
    assert len(keys) == len(set(keys))
    for e in doc["runs"]:
        assert ("fingerprint" in e) != ("refused" in e), e
        if "refused" in e:
            assert e["refused"]["exit_code"] == 2
        else:
            assert len(e["fingerprint"]) == 16 and set(e["records"]) == {"events", "frames", "deliveries", "drops"}
    # Most scenarios run today; a refused one still documents why.
    assert sum("fingerprint" in e for e in doc["runs"]) > len(doc["runs"]) // 2


def test_cli_prints_and_records_the_fingerprint(tmp_path):
    out = tmp_path / "r.json"
    r = wmnsim("run", FLAGSHIP, "--seed", 1, "--set", "/simulation/duration_s=5", "--fingerprint", "-o", out)
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    fp, records = doc["run"]["event_fingerprint"], doc["run"]["fingerprint_records"]
    assert f"event_fingerprint: {fp} (events {records['events']}, frames {records['frames']}, " \
           f"deliveries {records['deliveries']}, drops {records['drops']})\n" in r.stdout
    stored = [e for e in json.loads(STORED.read_text())["runs"]
              if e["scenario"] == FLAGSHIP and e["seed"] == 1 and e["duration_s"] == 5 and not e["overrides"]]
    assert [e["fingerprint"] for e in stored] == [fp]

    # Without --fingerprint: nothing printed, null in the file, the rest identical.
    plain = tmp_path / "plain.json"
    csv = tmp_path / "flows.csv"
    r = wmnsim("run", FLAGSHIP, "--seed", 1, "--set", "/simulation/duration_s=5", "-o", plain, "--csv", csv,
               "--log-level", "off")
    assert r.returncode == 0 and "event_fingerprint" not in r.stdout
    other = json.loads(plain.read_text())
    assert other["run"]["event_fingerprint"] is None and other["run"]["fingerprint_records"] is None
    for d in (doc, other):
        del d["wall_clock"], d["run"]["event_fingerprint"], d["run"]["fingerprint_records"]
    assert doc == other


def test_check_passes_on_the_stored_file(tmp_path):
    r = fingerprints("check", FLAGSHIP, "--file", stored_copy(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "fingerprinted runs as stored" in r.stdout


def test_check_names_what_moved_and_how_to_regenerate(tmp_path):
    copy = stored_copy(tmp_path)
    doc = json.loads(copy.read_text())
    entry = next(e for e in doc["runs"] if e["scenario"] == FLAGSHIP and e["seed"] == 2)
    true_fingerprint = entry["fingerprint"]
    entry["fingerprint"] = "0123456789abcdef"
    copy.write_text(json.dumps(doc))

    r = fingerprints("check", FLAGSHIP, "--file", copy)
    assert r.returncode == 3
    assert f"{FLAGSHIP} seed 2 " in r.stderr and "moved" in r.stderr
    assert "stored: 0123456789abcdef" in r.stderr and f"now:    {true_fingerprint}" in r.stderr
    assert f"run {FLAGSHIP} --seed 2 --set /simulation/duration_s=" in r.stderr  # how to rerun it
    assert "python3 scripts/fingerprints.py generate --wmnsim build/ci/cli/wmnsim" in r.stderr
    assert f"{FLAGSHIP} seed 1 " not in r.stderr  # seed 1 did not move

    r = fingerprints("generate", FLAGSHIP, "--file", copy)
    assert r.returncode == 0, r.stderr
    assert f"moved:     {FLAGSHIP} seed 2" in r.stdout
    regenerated = json.loads(copy.read_text())
    assert regenerated["runs"] == json.loads(STORED.read_text())["runs"]
    assert fingerprints("check", FLAGSHIP, "--file", copy).returncode == 0


def test_check_notices_a_refused_scenario_that_runs_and_a_missing_one(tmp_path):
    copy = stored_copy(tmp_path)
    doc = json.loads(copy.read_text())
    entry = next(e for e in doc["runs"] if e["scenario"] == FLAGSHIP and e["seed"] == 1)
    del entry["fingerprint"], entry["records"]
    entry["refused"] = {"exit_code": 2, "message": "pretend it was refused"}
    copy.write_text(json.dumps(doc))
    r = fingerprints("check", FLAGSHIP, "--file", copy)
    assert r.returncode == 3
    assert "stored: refused (exit 2" in r.stderr

    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"wmnsim_fingerprints": 1, "runs": []}))
    r = fingerprints("check", "--file", empty)
    assert r.returncode == 3
    assert f"{FLAGSHIP}: a shipped scenario without a stored fingerprint" in r.stderr


def test_bad_input_exits_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"wmnsim_fingerprints": 1, "runs": [{"scenario": FLAGSHIP, "seed": -1}]}))
    r = fingerprints("check", "--file", bad)
    assert r.returncode == 2 and "/runs/0/seed" in r.stderr
    r = fingerprints("check", "scenarios/nope.json", "--file", stored_copy(tmp_path))
    assert r.returncode == 2 and "not a shipped scenario" in r.stderr
