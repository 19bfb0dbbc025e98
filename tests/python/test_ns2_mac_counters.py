"""The MAC's refusal counters (rts_refused, cts_refused_busy, data_refused_after_cts)
in a run's node and radio tables, and EDCA under `mac.deferral: "ns2"` once the
standard's TXOP limits are cleared (docs/mac.md, "EDCA under ns2")."""
import wmnsim
from conftest import ROOT

CHAIN6 = ROOT / "scenarios" / "zhai_wccp" / "chain9_6flows_tcp.json"
COUNTERS = ["rts_refused", "cts_refused_busy", "data_refused_after_cts"]


def _totals(deferral):
    result = wmnsim.run(CHAIN6, seed=1, overrides={"/simulation/duration_s": 10, "/mac/deferral": deferral})
    nodes = result.nodes[COUNTERS].sum().to_dict()
    assert result.radios[COUNTERS].sum().to_dict() == nodes  # one radio a node: the rows agree
    return nodes


def test_the_refusal_counters_reach_the_results():
    # Fig. 7's chain (six TCP flows, RTS before every frame, hidden senders), 10 s.
    ns2 = _totals("ns2")
    # ns-2's SIFS-later refusals happen there; the standard never makes them.
    assert ns2["cts_refused_busy"] > 0 and ns2["data_refused_after_cts"] > 0
    standard = _totals("standard")
    assert standard["cts_refused_busy"] == 0 and standard["data_refused_after_cts"] == 0
    assert standard["rts_refused"] > 0  # RTS frames under the NAV


def test_edca_under_ns2_runs_with_the_standards_txop_limits_cleared():
    scenario = {
        "simulation": {"duration_s": 2},
        "mac": {"type": "edca", "deferral": "ns2", "rts_threshold_bytes": 0,
                "access_categories": {"ac_vi": {"txop_limit_us": 0}, "ac_vo": {"txop_limit_us": 0}}},
        "nodes": [{"id": "A", "position_m": [0, 0]}, {"id": "B", "position_m": [100, 0]},
                  {"id": "GW", "position_m": [200, 0], "role": "gateway"}],
        "flows": [{"id": "f1", "transport": "tcp", "src": "A", "dst": "GW"}],
    }
    result = wmnsim.run(scenario)
    assert result.flows["goodput_bps"].iloc[0] > 0
    assert (result.radios["txop_limit_frames"] <= 1).all()
