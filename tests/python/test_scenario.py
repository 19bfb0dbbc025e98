"""wmnsim.Scenario: reading, validation with JSON paths (the CLI's messages), overrides."""
import json
import pickle
import subprocess

import pytest

import wmnsim
from conftest import FLAGSHIP, ROOT, WMNSIM_BIN


def cli(*args):
    return subprocess.run([WMNSIM_BIN, *map(str, args)], capture_output=True, text=True, timeout=60)


def test_from_file_dict_and_json_string_are_the_same_scenario(flagship):
    doc = json.loads(FLAGSHIP.read_text())
    assert wmnsim.Scenario(doc) == flagship
    assert wmnsim.Scenario(json.dumps(doc)) == flagship
    assert wmnsim.Scenario.from_json(json.dumps(doc)) == flagship
    assert wmnsim.Scenario.from_dict(doc) == flagship
    assert wmnsim.Scenario.from_file(FLAGSHIP) == flagship
    assert flagship.source == str(FLAGSHIP)
    assert flagship.name == "two_hop_chain_tcp"
    assert list(flagship.to_dict()) == list(doc)  # the file's key order is kept
    assert json.loads(flagship.to_json()) == doc


def test_every_committed_scenario_validates():
    files = sorted(p for p in (ROOT / "scenarios").rglob("*.json")
                   if "schema" not in p.parts and "reproduction" not in p.parts
                   and not p.name.endswith((".reference.json", ".sweep.json")))  # references, sweep specs
    assert len(files) >= 7
    for f in files:
        s = wmnsim.Scenario(f)
        # As `wmnsim validate`: valid, or refused only for a feature not simulated yet.
        try:
            s.validate()
        except wmnsim.NotSupportedError as e:
            assert len(e.errors) == 1 and s.errors() == e.errors and not s.is_valid()
            continue
        assert s.errors() == [] and s.is_valid()


def test_validation_errors_carry_paths_and_the_cli_messages(tmp_path):
    doc = json.loads(FLAGSHIP.read_text())
    doc["simulation"]["duration_s"] = -5
    doc["flows"][0]["dst"] = "Q"
    doc["mac"]["cw_mni"] = 64
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(wmnsim.ScenarioError) as info:
        wmnsim.Scenario(bad).validate()
    e = info.value
    assert isinstance(e, ValueError)
    paths = [issue.path for issue in e.errors]
    assert "/simulation/duration_s" in paths and "/flows/0/dst" in paths and "/mac/cw_mni" in paths
    assert any('node "Q" is not defined' in issue.message for issue in e.errors)
    assert any('did you mean "cw_min"' in issue.message for issue in e.errors)
    assert e.source == str(bad)
    # Exactly what `wmnsim validate` prints.
    r = cli("validate", bad)
    assert r.returncode == 2
    assert str(e) == r.stderr.rstrip("\n")
    # From a dict: the same issues, without a file name.
    e2 = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario(doc).validate).value
    assert e2.errors == e.errors and e2.source is None
    assert str(e2).splitlines()[0] == str(e2.errors[0])
    assert wmnsim.Scenario(doc).errors() == e.errors


def test_malformed_and_missing_files_read_like_the_cli(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "simulation": {\n    "duration_s": 10,,\n  }\n}\n')
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario, broken).value
    assert "line 3" in str(e) and "column" in str(e)
    assert str(e) == cli("validate", broken).stderr.rstrip("\n")
    missing = tmp_path / "nope.json"
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario, missing).value
    assert "nope.json" in str(e)
    assert str(e) == cli("validate", missing).stderr.rstrip("\n")


def test_duplicate_keys_are_errors_in_files_and_strings(tmp_path):
    text = '{"simulation": {"duration_s": 10, "duration_s": 20}, "nodes": []}'
    f = tmp_path / "dup.json"
    f.write_text(text)
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario, f).value
    assert [i.path for i in e.errors] == ["/simulation/duration_s"]
    assert str(e) == cli("validate", f).stderr.rstrip("\n")
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario, text).value
    assert [i.path for i in e.errors] == ["/simulation/duration_s"]
    assert "duplicate key" in e.errors[0].message
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario, '{"simulation": {"duration_s": 10}').value
    assert "line 1" in str(e)


def test_values_that_are_not_json_are_reported_at_their_path():
    for bad, path in (({"simulation": {"duration_s": float("nan")}}, "/simulation/duration_s"),
                      ({"nodes": [{"id": object()}]}, "/nodes/0/id"),
                      ({"nodes": {1: "x"}}, "/nodes")):
        e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario, bad).value
        assert e.errors[0].path == path
    with pytest.raises(wmnsim.ScenarioError):
        wmnsim.Scenario({"a": 1}).with_overrides({"/x": float("inf")})
    with pytest.raises(TypeError):
        wmnsim.Scenario(42)


def test_overrides_replace_create_and_append(flagship):
    s = flagship.with_overrides({
        "/simulation/duration_s": 30,
        "/phy/preamble": "short",
        "/phy/data_rate_bps": 5.5e6,
        "/nodes/1/mac/cw_min": 128,  # creates /nodes/1/mac
        "/controllers": [],
        "/controllers/-": {"type": "counter_starvation"},
    })
    d = s.to_dict()
    assert d["simulation"]["duration_s"] == 30
    assert d["phy"]["preamble"] == "short" and d["phy"]["data_rate_bps"] == 5.5e6
    assert d["nodes"][1]["mac"] == {"cw_min": 128}
    assert d["controllers"] == [{"type": "counter_starvation"}]
    assert list(d)[:4] == list(flagship.to_dict())[:4]  # key order kept
    s.validate()
    assert flagship.to_dict()["simulation"]["duration_s"] == 120  # the original is unchanged
    # The command line's "--set" strings work too, parsed the same way.
    t = flagship.with_overrides(["/simulation/duration_s=30", "/phy/preamble=short",
                                 "/phy/data_rate_bps=5.5e6",
                                 "/nodes/1/mac/cw_min=128", "/controllers=[]",
                                 '/controllers/-={"type": "counter_starvation"}'])
    assert t == s


def test_override_errors_name_the_pointer_like_set(tmp_path):
    with pytest.raises(wmnsim.ScenarioError) as info:
        wmnsim.Scenario(FLAGSHIP).with_overrides({"/nodes/7/id": "X"})
    assert info.value.errors[0].path == "/nodes/7/id"
    assert "out of range" in info.value.errors[0].message
    r = cli("run", FLAGSHIP, "--set", "/nodes/7/id=X")
    assert r.returncode == 2 and str(info.value) == r.stderr.rstrip("\n")
    # A valid pointer with an invalid value is caught by validation, with its path.
    s = wmnsim.Scenario(FLAGSHIP).with_overrides({"/simulation/duraton_s": 3})
    e = pytest.raises(wmnsim.ScenarioError, s.validate).value
    assert e.errors[0].path == "/simulation/duraton_s" and "duration_s" in e.errors[0].message
    r = cli("run", FLAGSHIP, "--set", "/simulation/duraton_s=3")
    assert str(e) == r.stderr.rstrip("\n")


def test_describe_resolves_groups_and_radio_links_follow_the_phy(flagship):
    d = flagship.describe()
    assert [n["id"] for n in d["nodes"]] == ["A", "B", "GW"]
    assert d["nodes"][2]["role"] == "gateway" and d["nodes"][1]["position_m"] == (200.0, 0.0, 0.0)
    assert [(f["id"], f["src"], f["dst"]) for f in d["flows"]] == [("A_to_GW", "A", "GW"), ("B_to_GW", "B", "GW")]
    links = set(zip(flagship.radio_links()["src"], flagship.radio_links()["dst"]))
    # 200 m apart is within the 250 m range; A and GW (400 m) are hidden from each other.
    assert links == {("A", "B"), ("B", "A"), ("B", "GW"), ("GW", "B")}
    grid = wmnsim.Scenario(ROOT / "scenarios" / "fu2009" / "mesh40_4gw.json").describe()
    assert len(grid["nodes"]) >= 40
    assert sum(n["role"] == "gateway" for n in grid["nodes"]) == 4
    with pytest.raises(wmnsim.ScenarioError):
        flagship.with_overrides({"/flows/0/dst": "Q"}).describe()
    # A flow without a route: still described (for a plot of what is wrong), with no
    # routes and the reason.
    far = flagship.with_overrides({"/nodes/0/position_m": [5000, 0]}).describe()["routing"]
    assert far["paths"] is None and far["routes"] is None and "no route from" in far["error"]


def test_describe_gives_the_routes_a_run_takes(flagship):
    # auto routing: the computed next hops, each flow's path both ways, each node's gateway.
    d = flagship.describe()["routing"]
    assert d["type"] == "auto"
    assert {(r["node"], r["dst"], r["next_hop"]) for r in d["routes"]} >= {("A", "GW", "B"), ("GW", "A", "B")}
    assert [(p["flow"], p["path"], p["return_path"]) for p in d["paths"]] == [
        ("A_to_GW", ["A", "B", "GW"], ["GW", "B", "A"]), ("B_to_GW", ["B", "GW"], ["GW", "B"])]
    assert d["gateway"] == {"A": "GW", "B": "GW"}
    # gateway_trees with the airtime metric (004's mesh): a hop-count search would not
    # find these; the paths are the ones the run records, and the next hops chain along them.
    mesh = wmnsim.Scenario(ROOT / "scenarios" / "fu2009" / "mesh40_4gw_tcp.json")
    d = mesh.describe()["routing"]
    assert d["type"] == "gateway_trees" and d["metric"] == "airtime"
    hops = {(r["node"], r["dst"]): r["next_hop"] for r in d["routes"]}
    for p in d["paths"]:
        assert all(hops[(a, p["dst"])] == b for a, b in zip(p["path"], p["path"][1:]))
    run = wmnsim.run(mesh.with_overrides({"/simulation/duration_s": 0.05}))
    recorded = {str(i): list(r) for i, r in zip(run.flows["id"], run.flows["route"])}
    assert {p["flow"]: p["path"] for p in d["paths"]} == recorded
    # Every flow sends up or down between a station and its own tree's gateway.
    for p in d["paths"]:
        station = p["src"] if p["dst"].startswith("GW") else p["dst"]
        assert d["gateway"][station] in (p["src"], p["dst"])


def test_scenario_error_pickles():
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario({"simulation": {}}).validate).value
    back = pickle.loads(pickle.dumps(e))
    assert str(back) == str(e) and back.errors == e.errors
