"""scripts/random_topology.py: connected placements, valid flows, the same file from the same seed."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "random_topology.py"
TEMPLATE = ROOT / "scenarios" / "zhai_wccp" / "chain9_tcp.json"
WMNSIM_BIN = os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "ci" / "cli" / "wmnsim"))

sys.path.insert(0, str(ROOT / "scripts"))
import random_topology  # noqa: E402


def generate(tmp_path, name, *extra):
    out = tmp_path / name
    subprocess.run([sys.executable, str(SCRIPT), "--template", str(TEMPLATE), "--out", str(out), *extra],
                   check=True, capture_output=True)
    return out


def connected(positions, link_m):
    adj = random_topology.neighbours(positions, link_m)
    return min(random_topology.hops_from(adj, 0)) >= 0


def test_connected_and_flows_valid(tmp_path):
    for seed in (1, 2, 3):
        out = generate(tmp_path, f"s{seed}.json", "--nodes", "30", "--area", "1000", "300", "--flows", "8",
                       "--seed", str(seed), "--min-hops", "2")
        scen = json.loads(out.read_text())
        nodes = scen["nodes"]
        assert [n["id"] for n in nodes] == [str(i) for i in range(1, 31)]
        positions = [tuple(n["position_m"]) for n in nodes]
        assert all(0 <= x <= 1000 and 0 <= y <= 300 for x, y in positions)
        assert len(set(positions)) == 30
        assert connected(positions, 249.5)
        adj = random_topology.neighbours(positions, 249.5)
        index = {n["id"]: i for i, n in enumerate(nodes)}
        pairs = [(f["src"], f["dst"]) for f in scen["flows"]]
        assert len(pairs) == 8 and len(set(pairs)) == 8
        for f in scen["flows"]:
            assert f["src"] != f["dst"] and f["transport"] == "tcp"
            assert f["payload_bytes"] == 1000 and f["tcp"]["window_packets"] == 20  # the template's flow
            assert random_topology.hops_from(adj, index[f["src"]])[index[f["dst"]]] >= 2
        # The template's sections are kept, its node groups are not.
        template = json.loads(TEMPLATE.read_text())
        assert "node_groups" not in scen
        for key in ("simulation", "phy", "propagation", "mac", "routing"):
            assert scen[key] == template[key]


def test_same_seed_same_file_other_seed_other_file(tmp_path):
    a = generate(tmp_path, "a.json", "--seed", "7").read_text()
    b = generate(tmp_path, "b.json", "--seed", "7").read_text()
    c = generate(tmp_path, "c.json", "--seed", "8").read_text()
    assert a == b
    assert a != c


def test_pinned_draws():
    # The draws are random.Random(seed).random() only, so these stay put across Python versions.
    scen, summary = random_topology.build(json.loads(TEMPLATE.read_text()), nodes=50, width_m=1500, height_m=300,
                                          range_m=250, margin_m=0.5, flows=10, seed=1, transport="tcp")
    assert scen["nodes"][0]["position_m"] == [201.55, 254.23]
    assert summary["pairs"][:2] == [("3", "44"), ("29", "10")]


def test_transport_switch_drops_other_transport_keys(tmp_path):
    out = generate(tmp_path, "w.json", "--seed", "1", "--transport", "wccp")
    scen = json.loads(out.read_text())
    assert all(f["transport"] == "wccp" and "tcp" not in f for f in scen["flows"])


def test_impossible_requests_are_refused(tmp_path):
    r = subprocess.run([sys.executable, str(SCRIPT), "--template", str(TEMPLATE), "--out", str(tmp_path / "x.json"),
                        "--nodes", "3", "--flows", "7", "--area", "100", "100", "--seed", "1"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "ordered pairs" in r.stderr


def test_output_validates(tmp_path):
    if not os.path.exists(WMNSIM_BIN):
        pytest.skip(f"no {WMNSIM_BIN}")
    out = generate(tmp_path, "v.json", "--seed", "3", "--nodes", "20", "--area", "800", "300", "--flows", "5")
    r = subprocess.run([WMNSIM_BIN, "validate", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_committed_snapshots_are_the_generators():
    # scenarios/zhai_wccp/random50 (003 Sec. IV-B): the nodes and flows of each committed snapshot are what the
    # generator draws from its seed (the README's command), and the TCP and WCCP files share them.
    folder = ROOT / "scenarios" / "zhai_wccp" / "random50"
    for seed in (1, 7, 20):
        tcp = json.loads((folder / f"snapshot_{seed:02d}_tcp.json").read_text())
        wccp = json.loads((folder / f"snapshot_{seed:02d}_wccp.json").read_text())
        scen, _ = random_topology.build(json.loads(TEMPLATE.read_text()), nodes=50, width_m=1500, height_m=300,
                                        range_m=250, margin_m=0.5, flows=10, seed=seed, transport="tcp")
        assert tcp["nodes"] == scen["nodes"] == wccp["nodes"]
        assert tcp["flows"] == scen["flows"]
        assert [(f["src"], f["dst"]) for f in wccp["flows"]] == [(f["src"], f["dst"]) for f in tcp["flows"]]
        assert all(f["transport"] == "wccp" for f in wccp["flows"])
