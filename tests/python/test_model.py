"""wmnsim.model: the Markov model of paper 000 Sec. 5, and `python -m wmnsim model`."""
import json
import os
import subprocess
import sys

import pytest

import wmnsim
from conftest import ROOT, WMNSIM_BIN

CHAIN = str(ROOT / "scenarios" / "jamshaid" / "chain_1mbps.json")


def test_starvation_defaults():
    r = wmnsim.model.starvation()
    assert isinstance(r, wmnsim.model.StarvationResult)
    assert r.params["cw_min_b"] == 32 and r.params["window_a"] == r.params["window_b"] == 3
    assert r.feasible_states == 3920 and r.bound_h == 7938
    assert sum(r.p.values()) == pytest.approx(1.0, abs=1e-12)
    assert r.residual < 1e-12 and r.max_row_sum_error < 1e-12
    assert 0 < r.share_a < 0.5
    assert r.lambda_a_bps == pytest.approx(r.lambda_a_pps * 1460 * 8)
    assert r.to_dict()["share_a"] == r.share_a


def test_counter_starvation_policy_trend():
    shares = [wmnsim.model.starvation(cw_min_b=cw).share_a for cw in (16, 32, 64, 128)]
    assert shares == sorted(shares)


def test_keywords():
    r = wmnsim.model.starvation(cw_min_b=64, window=2, window_b=1, rts_cts=True, payload_bytes=500,
                                short_preamble=True)
    assert (r.params["window_a"], r.params["window_b"], r.params["rts_cts"]) == (2, 1, True)
    assert r.params["short_preamble"] is True


@pytest.mark.parametrize("kwargs", [dict(cw_min_b=48), dict(window=0), dict(window_a=300), dict(retry_limit=0),
                                    dict(rts_cts="yes"), dict(colour="red"), dict(data_rate_bps=54e6)])
def test_bad_parameters_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        wmnsim.model.starvation(**kwargs)


def both(*args):
    c = subprocess.run([WMNSIM_BIN, *map(str, args)], capture_output=True, text=True, timeout=120)
    p = subprocess.run([sys.executable, "-m", "wmnsim", *map(str, args)], capture_output=True, text=True,
                       timeout=120, env=os.environ.copy())
    return c, p


@pytest.mark.parametrize("args", [
    ["model", "starvation"],
    ["model", "starvation", "--cwmin-b", "16,64", "--rts", "on", "--json"],
    ["model", "starvation", "--window", "2", "--window-a", "1", "--payload-bytes", "500", "--cwmin-g", "64"],
    ["model", "starvation", "--cwmin-b", "48"],
    ["model", "starvation", "--cwmin-b", "16,,32"],
    ["model", "starvation", "--window-a", "300"],
    ["model", "capacity", CHAIN],
    ["model", "capacity", CHAIN, "--at", "5", "--json"],
    ["model", "capacity", CHAIN, "--mac-capacity-bps", "-1"],
])
def test_cli_mirror(args):
    c, p = both(*args)
    assert (p.returncode, p.stdout, p.stderr) == (c.returncode, c.stdout, c.stderr)


@pytest.mark.parametrize("args", [["model"], ["model", "starvation", "--rts", "maybe"],
                                  ["model", "starvation", "--window", "x"]])
def test_cli_mirror_bad_command_lines(args):
    c, p = both(*args)
    assert c.returncode == p.returncode == 2


def test_json_output_parses():
    c, _ = both("model", "starvation", "--json")
    (row,) = json.loads(c.stdout)
    assert row["params"]["cw_min_b"] == 32


# ---- wmnsim.model.capacity: paper 001's capacity models (docs/capacity.md) ----

def test_capacity_three_hop_parking_lot():
    path = ROOT / "scenarios" / "jamshaid" / "chain_1mbps.json"
    c = wmnsim.model.capacity(str(path))
    b = c["b"]["mac_capacity_bps"]
    assert c["b"]["source"] == "bianchi"
    assert [f["hops"] for f in c["flows"]] == [1, 2, 3]
    assert [f["collision_domain_bps"] for f in c["flows"]] == pytest.approx([b / 6] * 3)
    assert [f["clique_bps"] for f in c["flows"]] == pytest.approx([b / 6] * 3)
    # The same as the command line's document, from a dict and with options.
    doc = json.loads(path.read_text())
    given = wmnsim.model.capacity(doc, mac_capacity_bps=750e3, overrides={"/flows/2/start_s": 20}, at=10)
    assert given["b"]["source"] == "given"
    assert [f["collision_domain_bps"] for f in given["flows"]] == pytest.approx([250e3, 250e3, 0.0])
    r = subprocess.run([WMNSIM_BIN, "model", "capacity", str(path), "--json"], capture_output=True, text=True,
                       check=True)
    assert json.loads(r.stdout)["flows"] == c["flows"]


def test_capacity_errors():
    path = ROOT / "scenarios" / "jamshaid" / "chain_1mbps.json"
    with pytest.raises(ValueError, match="MAC capacity B"):
        wmnsim.model.capacity(str(path), mac_capacity_bps=-5)
    with pytest.raises(wmnsim.ScenarioError, match="no route"):
        wmnsim.model.capacity(str(path), overrides={"/nodes/3/position_m": [5000, 0]})


def test_capacity_with_b_measured_in_a_one_hop_run():
    # B measured (runner/one_hop_capacity.hpp): a TCP flow's ACKs take airtime, so below Bianchi's.
    bianchi = wmnsim.model.capacity(CHAIN)["b"]["mac_capacity_bps"]
    r = subprocess.run([WMNSIM_BIN, "model", "capacity", CHAIN, "--measure-mac-capacity", "--json"],
                       capture_output=True, text=True, check=True)
    measured = json.loads(r.stdout)["b"]["mac_capacity_bps"]
    assert 0.6 * bianchi < measured < 0.95 * bianchi
    one_hop = subprocess.run([WMNSIM_BIN, "model", "capacity", CHAIN, "--one-hop-scenario"], capture_output=True,
                             text=True, check=True)
    doc = json.loads(one_hop.stdout)
    assert [n["id"] for n in doc["nodes"]] == ["ap", "sta"] and len(doc["flows"]) == 1
    # The run of that scenario is the measurement.
    run = wmnsim.run(doc)
    assert run.flows["goodput_bps"].iloc[0] == pytest.approx(measured, rel=1e-12)
    both_given = subprocess.run([WMNSIM_BIN, "model", "capacity", CHAIN, "--measure-mac-capacity",
                                 "--mac-capacity-bps", "1e5"], capture_output=True, text=True)
    assert both_given.returncode != 0


def test_capacity_measured_b_readings_differ_for_tcp_and_agree_for_udp(tmp_path):
    # --measured-b-counts: the flow's goodput (data) or the MAC's throughput with the TCP
    # ACKs' bytes (data_and_tcp_acks) (docs/capacity.md, "Two readings of a measured B").
    def b(path, counts=None):
        cmd = [WMNSIM_BIN, "model", "capacity", str(path), "--measure-mac-capacity", "--json"]
        if counts:
            cmd += ["--measured-b-counts", counts]
        out = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        assert out["b"]["source"] == "measured"
        return out["b"]["mac_capacity_bps"]

    data, acks = b(CHAIN, "data"), b(CHAIN, "data_and_tcp_acks")
    assert b(CHAIN) == data  # the default reading
    assert 1.01 * data < acks < 1.05 * data  # 40 bytes per ACK of 1000-byte segments
    doc = json.loads(open(CHAIN).read())
    for f in doc["flows"]:
        f["transport"] = "udp"
        f.pop("tcp", None)
    udp = tmp_path / "udp.json"
    udp.write_text(json.dumps(doc))
    assert b(udp, "data") == b(udp, "data_and_tcp_acks")
    # Only with a measured B.
    alone = subprocess.run([WMNSIM_BIN, "model", "capacity", CHAIN, "--measured-b-counts", "data"],
                           capture_output=True, text=True)
    assert alone.returncode != 0
