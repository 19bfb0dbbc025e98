"""`wmnsim model starvation`: the Markov model of paper 000 Sec. 5 from the command line."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WMNSIM = os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "ci" / "cli" / "wmnsim"))


def wmnsim(*args):
    return subprocess.run([WMNSIM, *map(str, args)], capture_output=True, text=True, timeout=120)


def test_default_table():
    r = wmnsim("model", "starvation")
    assert r.returncode == 0, r.stderr
    assert "Starvation model (paper 000 Sec. 5): W_a 3, W_b 3" in r.stdout
    assert "RTS/CTS off" in r.stdout
    assert "p_delta" in r.stdout and "lambda_a" in r.stdout


def test_sweep_json_one_row_per_value():
    r = wmnsim("model", "starvation", "--cwmin-b", "16,32,64,128,256,512", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [row["params"]["cw_min_b"] for row in rows] == [16, 32, 64, 128, 256, 512]
    shares = [row["share_a"] for row in rows]
    assert shares == sorted(shares)
    for row in rows:
        assert abs(sum(row["p"].values()) - 1) < 1e-9
        assert row["residual"] < 1e-12


def test_options_reach_the_model():
    r = wmnsim("model", "starvation", "--window", "2", "--window-b", "1", "--rts", "on", "--cwmin-a", "16",
               "--cwmin-g", "64", "--retry-limit", "4", "--payload-bytes", "500", "--json")
    assert r.returncode == 0, r.stderr
    (row,) = json.loads(r.stdout)
    p = row["params"]
    assert (p["window_a"], p["window_b"], p["rts_cts"], p["cw_min_a"], p["cw_min_g"], p["retry_limit"],
            p["payload_bytes"]) == (2, 1, True, 16, 64, 4, 500)
    # 500-byte payload: 540-byte IP packet, and RTS first packets.
    assert row["first_packet_slots_a"] == row["first_packet_slots_g"] == 14
    assert row["lambda_a_bps"] == pytest.approx(row["lambda_a_pps"] * 4000)


@pytest.mark.parametrize("args, words", [
    (["--cwmin-b", "48"], "cw_min_b must be a power of two"),
    (["--cwmin-b", "16,x"], "--cwmin-b: 'x' is not an integer"),
    (["--window", "0"], "window_a must be"),
    (["--window-a", "300"], "lower window_a"),
    (["--retry-limit", "0"], "retry_limit"),
    (["--payload-bytes", "0"], "payload_bytes"),
])
def test_bad_values_exit_2(args, words):
    r = wmnsim("model", "starvation", *args)
    assert r.returncode == 2
    assert words in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("args", [["model"], ["model", "starvation", "--rts", "maybe"],
                                  ["model", "starvation", "--cwmin-a", "abc"]])
def test_bad_command_lines_exit_2(args):
    assert wmnsim(*args).returncode == 2


# ---- `wmnsim model capacity`: paper 001's capacity models (docs/capacity.md) ----

CHAIN = ROOT / "scenarios" / "jamshaid" / "chain_1mbps.json"
CHAIN7 = ROOT / "scenarios" / "jamshaid" / "chain7_short_lived.json"


def test_capacity_table_on_the_3hop_parking_lot():
    r = wmnsim("model", "capacity", CHAIN)
    assert r.returncode == 0, r.stderr
    assert "Capacity models (paper 001 App. A): jamshaid_parking_lot_3hop_down" in r.stdout
    assert "B = 844.4 kbit/s (Bianchi, one saturated station; 1000 B payload + 40 B headers" in r.stdout
    rows = [line.split() for line in r.stdout.splitlines() if line[:2] in ("f1", "f2", "f3")]
    assert [(row[0], row[4], row[5], row[6]) for row in rows] == [
        ("f1", "1", "140.7", "140.7"), ("f2", "2", "140.7", "140.7"), ("f3", "3", "140.7", "140.7")]
    assert "U_opt: collision_domain 844.4 kbit/s" in r.stdout


def test_capacity_json_every_flow_a_sixth_of_b():
    r = wmnsim("model", "capacity", CHAIN, "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    b = doc["b"]["mac_capacity_bps"]
    assert doc["b"]["source"] == "bianchi" and doc["links"] == 6
    assert [f["hops"] for f in doc["flows"]] == [1, 2, 3]
    assert doc["flows"][2]["route"] == ["n0", "n1", "n2", "n3"]
    for f in doc["flows"]:
        assert f["collision_domain_bps"] == pytest.approx(b / 6, rel=1e-12)
        assert f["clique_bps"] == pytest.approx(b / 6, rel=1e-12)
    for model in ("collision_domain", "clique"):
        assert doc["models"][model]["u_opt_bps"] == pytest.approx(b, rel=1e-12)


def test_capacity_options_b_at_and_set():
    r = wmnsim("model", "capacity", CHAIN, "--mac-capacity-bps", "750000", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["b"]["source"] == "given"
    assert [f["collision_domain_bps"] for f in doc["flows"]] == pytest.approx([125e3] * 3)  # 001 Sec. 5.3
    # --set reaches the scenario: f3 starts late, so at 10 s only f1, f2 share B (1 + 2 hops).
    r = wmnsim("model", "capacity", CHAIN, "--set", "/flows/2/start_s=20", "--at", "10", "--mac-capacity-bps",
               "750000", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["at_s"] == 10
    assert [f["active"] for f in doc["flows"]] == [True, True, False]
    assert [f["clique_bps"] for f in doc["flows"]] == pytest.approx([250e3, 250e3, 0.0])
    # The 7-hop chain at 225 s: flows 3 -> 0 and 0 -> 6 only, B/8 and B/7.
    r = wmnsim("model", "capacity", CHAIN7, "--at", "225", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    b = doc["b"]["mac_capacity_bps"]
    on = [f for f in doc["flows"] if f["active"]]
    assert [f["id"] for f in on] == ["3to0", "0to6"]
    assert [f["collision_domain_bps"] for f in on] == pytest.approx([b / 8] * 2)
    assert [f["clique_bps"] for f in on] == pytest.approx([b / 7] * 2)


@pytest.mark.parametrize("args, message", [
    (["--at", "-1"], "--at must be a time in seconds >= 0"),
    (["--mac-capacity-bps", "0"], "MAC capacity B must be a positive number"),
    (["--set", "/flows/0/dst=nowhere"], "/flows/0/dst"),
    (["--set", "/nodes/3/position_m=[5000, 0]"], "no route"),
])
def test_capacity_bad_input_exits_2_naming_the_problem(args, message):
    r = wmnsim("model", "capacity", CHAIN, *args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert message in r.stderr, r.stderr
    assert r.stdout == ""


def test_capacity_missing_file_exits_2(tmp_path):
    r = wmnsim("model", "capacity", tmp_path / "missing.json")
    assert r.returncode == 2
    assert "missing.json" in r.stderr


def _crowd(tmp_path):
    """153 radios within range of one another: 153 x 152 links, whose collision
    domains would take about 2.16e9 link visits, past the capacity model's cap of
    2 x 10^9 (scenario/capacity_problem.hpp)."""
    doc = {"simulation": {"duration_s": 1},
           "nodes": [{"id": "A", "position_m": [0, 0]}, {"id": "GW", "position_m": [20, 0], "role": "gateway"}],
           "node_groups": [{"id_prefix": "n", "placement": "line", "count": 151, "spacing_m": 0.2,
                            "origin_m": [0, 5]}],
           "flows": [{"id": "f1", "transport": "tcp", "src": "A", "dst": "GW"}],
           "controllers": [{"type": "gateway_rate_control", "scheme": "aggregate_rate_limit"}]}
    f = tmp_path / "crowd.json"
    f.write_text(json.dumps(doc))
    return f


def test_capacity_refusals_name_the_file_and_the_controller(tmp_path):
    f = _crowd(tmp_path)
    r = wmnsim("model", "capacity", f)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith(f"{f}: 001's capacity model finds each link's collision domain"), r.stderr
    for command in ("validate", "run"):
        r = wmnsim(command, f)
        assert r.returncode == 2, (command, r.stderr)
        assert r.stderr.startswith(f"{f}: /controllers/0: 001's capacity model finds each link's collision domain"), r.stderr
