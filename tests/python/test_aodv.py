"""AODV's figures in Python: Result.routing (docs/aodv.md, docs/results.md)."""
import wmnsim
from conftest import FLAGSHIP

SHORT = {"/simulation/duration_s": 2}


def test_routing_table_per_node_with_totals_under_aodv():
    result = wmnsim.run(FLAGSHIP, seed=1, overrides={**SHORT, "/routing": {"type": "aodv"}})
    df = result.routing
    assert df is not None
    assert list(df["node"]) == ["A", "B", "GW"]
    assert df.attrs["type"] == "aodv"
    total = df.attrs["total"]
    assert total["discoveries_found"] >= 1
    assert total["control_frames_sent"] == df["control_frames_sent"].sum() > 0
    assert "drops_discovery_failed" in df.columns
    assert result.flows["delivered_packets"].sum() > 0


def test_no_routing_table_under_static_routing():
    assert wmnsim.run(FLAGSHIP, seed=1, overrides=SHORT).routing is None
