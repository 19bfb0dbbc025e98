"""The wmnsim command line: exit codes, messages with JSON paths, no partial output."""
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


def all_scenarios():
    return sorted(p for p in (ROOT / "scenarios").rglob("*.json")
                  if "schema" not in p.parts and "reproduction" not in p.parts and not p.name.endswith((".reference.json", ".sweep.json")))


def test_version():
    r = wmnsim("--version")
    assert r.returncode == 0
    assert r.stdout.startswith("wmnsim ")


def test_validate_every_committed_scenario():
    # validate answers what run would: a committed scenario is valid, or refused only
    # for a feature not simulated yet (exit 2, naming its key), never for a mistake.
    files = all_scenarios()
    assert FLAGSHIP in files
    r = wmnsim("validate", *files)
    refused = r.stderr.splitlines()
    assert r.stdout.count(": valid") + len(refused) == len(files), r.stderr
    assert r.returncode == (2 if refused else 0)
    for line in refused:
        assert "is not simulated yet" in line or "is not recorded yet" in line or "not modelled yet" in line, line
    assert f"{FLAGSHIP}: valid" in r.stdout


def test_validate_reports_every_error_with_its_path(tmp_path):
    doc = json.loads(FLAGSHIP.read_text())
    doc["simulation"]["duration_s"] = -5
    doc["flows"][0]["dst"] = "Q"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    r = wmnsim("validate", FLAGSHIP, bad)
    assert r.returncode == 2
    assert f"{FLAGSHIP}: valid" in r.stdout
    assert "/simulation/duration_s" in r.stderr
    assert '/flows/0/dst: node "Q" is not defined' in r.stderr


def test_malformed_json_names_line_and_column(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{\n  "simulation": {\n    "duration_s": 10,,\n  }\n}\n')
    r = wmnsim("run", bad, "-o", tmp_path / "out.json")
    assert r.returncode == 2
    assert "line 3" in r.stderr and "column" in r.stderr
    assert not (tmp_path / "out.json").exists()


def test_missing_file_is_invalid_input(tmp_path):
    r = wmnsim("run", tmp_path / "nope.json")
    assert r.returncode == 2
    assert "nope.json" in r.stderr


def test_set_override_is_validated_like_the_file(tmp_path):
    out = tmp_path / "out.json"
    r = wmnsim("run", FLAGSHIP, "--set", "/simulation/duration_s=-1", "-o", out)
    assert r.returncode == 2
    assert "/simulation/duration_s" in r.stderr
    assert not out.exists()
    r = wmnsim("run", FLAGSHIP, "--set", "/simulation/duraton_s=3", "-o", out)
    assert r.returncode == 2
    assert "duration_s" in r.stderr  # did-you-mean
    assert not out.exists()


def test_output_into_a_missing_folder_is_refused_before_running(tmp_path):
    r = wmnsim("run", FLAGSHIP, "-o", tmp_path / "no" / "such" / "out.json")
    assert r.returncode == 2
    assert "does not exist" in r.stderr and "no/such" in r.stderr


def test_bad_command_line_is_invalid_input():
    assert wmnsim("run").returncode == 2
    assert wmnsim("frobnicate").returncode == 2
    assert wmnsim("run", FLAGSHIP, "--log-level", "loud").returncode == 2


def test_run_prints_the_flow_table_and_writes_results_and_csv(tmp_path):
    out, csv = tmp_path / "out.json", tmp_path / "flows.csv"
    r = wmnsim("run", FLAGSHIP, "-o", out, "--csv", csv, "--seed", 3, "--set", "/simulation/duration_s=5")
    assert r.returncode == 0, r.stderr
    assert "A_to_GW" in r.stdout and "B_to_GW" in r.stdout
    assert "jain_fairness_index:" in r.stdout
    # The compact table fits a 100-column terminal; --wide has every column by its name.
    assert max(len(line) for line in r.stdout.splitlines()) <= 100, r.stdout
    header = r.stdout.splitlines()[0].split()
    assert header == ["id", "proto", "src", "dst", "hops", "Mbit/s", "share", "deliv", "drops", "retx", "rto",
                      "delay_ms", "p95_ms", "route"]
    results = json.loads(out.read_text())
    a = r.stdout.splitlines()[1].split()
    assert a[0] == "A_to_GW" and float(a[5]) == pytest.approx(results["flows"][0]["goodput_bps"] / 1e6, rel=6e-3)
    assert float(a[11]) == pytest.approx(results["flows"][0]["delay_mean_s"] * 1e3, rel=6e-3)
    wide = wmnsim("run", FLAGSHIP, "--wide", "--seed", 3, "--set", "/simulation/duration_s=5")
    assert wide.returncode == 0 and wide.stdout.splitlines()[0].split() == list(results["flows"][0].keys())
    assert [f["id"] for f in results["flows"]] == ["A_to_GW", "B_to_GW"]
    assert results["flows"][0]["route"] == ["A", "B", "GW"]
    assert results["seed"] == 3
    p = results["summary"]["packets"]
    assert p["originated"] == p["delivered"] + p["dropped"] + p["in_network"]
    lines = csv.read_text().splitlines()
    assert lines[0].startswith("id,") and len(lines) == 3


def test_unreachable_flow_is_an_input_error_with_the_flow_path(tmp_path):
    doc = json.loads(FLAGSHIP.read_text())
    doc["nodes"][0]["position_m"] = [-2000, 0]  # A out of everyone's range
    bad = tmp_path / "far.json"
    bad.write_text(json.dumps(doc))
    out = tmp_path / "out.json"
    r = wmnsim("run", bad, "-o", out)
    assert r.returncode == 2
    assert "/flows/0" in r.stderr
    assert not out.exists()


def smallest_scenario():
    """The scenario docs/scenario.md calls the smallest, read from the document."""
    text = (ROOT / "docs" / "scenario.md").read_text()
    block = text.split("## The smallest scenario", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    return json.loads(block)


def test_the_docs_smallest_scenario_routes_around_a_link_that_delivers_nothing(tmp_path):
    # A and GW, 200 m apart, decode each other at 4 dB SNR, where 11 Mbit/s frames
    # do not get through: the flow must go through B and deliver.
    src = tmp_path / "smallest.json"
    src.write_text(json.dumps(smallest_scenario()))
    out = tmp_path / "out.json"
    r = wmnsim("run", src, "-o", out)
    assert r.returncode == 0, r.stderr
    results = json.loads(out.read_text())
    assert results["flows"][0]["route"] == ["A", "B", "GW"]
    assert results["flows"][0]["goodput_bps"] > 1e6
    assert results["warnings"] == []
    assert "delivered nothing" not in r.stderr


def test_a_fixed_rate_too_fast_for_every_link_is_refused_with_the_flow_path(tmp_path):
    doc = smallest_scenario()
    doc["nodes"] = [n for n in doc["nodes"] if n["id"] != "B"]  # A and GW alone, 200 m apart
    bad = tmp_path / "lossy.json"
    bad.write_text(json.dumps(doc))
    r = wmnsim("run", bad, "-o", tmp_path / "out.json")
    assert r.returncode == 2
    assert '/flows/0: no route from "A" to "GW": "A" has no usable link' in r.stderr
    assert "lower /phy/data_rate_bps" in r.stderr
    # At 1 Mbit/s the same link qualifies.
    r = wmnsim("run", bad, "--set", "/phy/data_rate_bps=1e6", "-o", tmp_path / "out.json")
    assert r.returncode == 0, r.stderr


def test_a_flow_that_delivers_nothing_is_warned_about(tmp_path):
    doc = smallest_scenario()
    # A datagram sent half a millisecond before the end cannot arrive in time.
    doc["flows"].append({"id": "late", "transport": "udp", "src": "A", "dst": "GW", "start_s": 9.9995,
                         "traffic": {"type": "cbr", "rate_bps": 100000}})
    src = tmp_path / "late.json"
    src.write_text(json.dumps(doc))
    out = tmp_path / "out.json"
    r = wmnsim("run", src, "-o", out)
    assert r.returncode == 0, r.stderr
    assert '/flows/1: flow "late" delivered nothing' in r.stderr
    (w,) = json.loads(out.read_text())["warnings"]
    assert w["path"] == "/flows/1"
    assert w["message"].startswith('flow "late" delivered nothing (sent 1, dropped 0)')


def test_counter_starvation_runs_and_reports_what_it_changed(tmp_path):
    out = tmp_path / "out.json"
    r = wmnsim("run", FLAGSHIP, "--set", "/simulation/duration_s=2",
               "--set", '/controllers=[{"type": "counter_starvation"}]', "-o", out)
    assert r.returncode == 0, r.stderr
    (c,) = json.loads(out.read_text())["controllers"]
    assert c["type"] == "counter_starvation"
    assert c["statistics"]["changed"][0]["node"] == "B"
    assert c["statistics"]["changed"][0]["cw_min_after"] == 128


def test_features_not_modelled_yet_are_refused_with_their_path(tmp_path):
    out = tmp_path / "out.json"
    r = wmnsim("run", FLAGSHIP, "--set", '/controllers=[{"type": "counter_starvation"}]', "--set",
               '/propagation={"model": "log_distance", "shadowing": {"sigma_db": 3, "mode": "per_frame"}}', "-o", out)
    assert r.returncode == 2
    assert "/propagation/shadowing/mode: per-frame shadowing is not modelled yet" in r.stderr
    assert not out.exists()


def test_fragments_without_the_marked_regions_is_invalid_input(tmp_path):
    schema = ROOT / "scenarios" / "schema" / "scenario.schema.json"
    doc = tmp_path / "scenario.md"
    doc.write_text("# a document without the registry regions\n")
    r = wmnsim("fragments", str(schema), str(doc))
    assert r.returncode == 2, r.stderr
    assert "registry:controllers" in r.stderr


def test_fragments_of_the_committed_files_are_in_sync():
    r = wmnsim("fragments", str(ROOT / "scenarios" / "schema" / "scenario.schema.json"), str(ROOT / "docs" / "scenario.md"))
    assert r.returncode == 0, r.stderr
